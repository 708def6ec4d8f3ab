// The gateway's side of the capture checks: the header is read here (a bomb or a too small image is
// answered at once, never sent on), then the image goes to a capture-check worker over RabbitMQ
// (contracts/messages/captureCheck.ts), sealed under MASTER_KEY, and the worker's verdict comes
// back. The gateway decodes nothing: the image threads run in services/capture-checker, scaled on
// their own. Within the bounds of `admission` (one check per session, a share per community, a
// total per gateway) a check waits at most `waitMs`; no worker answering in time, or none reachable,
// is check_unavailable (not kept, no retake spent), never an accepted image. So is a check over its
// community's image budget (RATE_LIMIT_IMAGES_*, shared with /verify): it is not sent.
import { randomUUID } from 'node:crypto';
import type { ImageBudget, ImageBudgetRefusal } from '@idv/auth';
import { BrokerUnavailableError, RpcTimeoutError, type Broker } from '@idv/broker';
import {
  admitCapture,
  boundedCheck,
  checkUnavailable,
  type CaptureReport,
  type CheckAdmission,
  type CheckCapture,
} from '@idv/capture-checks';
import { CaptureCheckReply, validate, type CaptureCheckRequest } from '@idv/contracts';
import type { SecretBox } from '@idv/crypto';
import { Counter, Gauge, type Logger, type Registry } from '@idv/observability';

export interface RemoteCheckDeps {
  broker: Pick<Broker, 'request'>;
  box: SecretBox;
  /** CAPTURE_CHECK_QUEUE */
  queue: string;
  /** CAPTURE_CHECK_WAIT_MS: the whole check, queueing included */
  waitMs: number;
  /** the tenant of a community (cached: a community never changes tenant) */
  tenantOf: (communityId: string) => Promise<string>;
  /** the communities' image budgets: a check over its community's is not sent (check_unavailable) */
  imageBudget?: ImageBudget;
  admission: CheckAdmission;
  logger: Pick<Logger, 'warn'>;
  metrics?: RemoteCheckMetrics;
}

export interface RemoteCheckMetrics {
  inFlight: Gauge;
  checks: Counter<'outcome'>;
}

export function remoteCheckMetrics(registry: Registry): RemoteCheckMetrics {
  return {
    inFlight: new Gauge({
      name: 'docverify_capture_checks_in_flight',
      help: 'capture checks this gateway has sent to the capture-check workers and waits for',
      registers: [registry],
    }),
    checks: new Counter({
      name: 'docverify_capture_checks_total',
      help: 'capture checks sent to the workers, by outcome (answered, timeout, unreachable, failed)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}

export function remoteCaptureChecker(deps: RemoteCheckDeps): CheckCapture {
  return async (side, bytes, journey, owner) => {
    const admitted = admitCapture(side, bytes);
    if ('report' in admitted) return admitted.report;
    const { header } = admitted;
    const checkId = randomUUID();
    const whose = owner ?? { sessionId: checkId, communityId: '-' };
    // an unknown tenant (the lookup failed) counts the community as a tenant of its own
    const tenantId =
      whose.tenantId ?? (await deps.tenantOf(whose.communityId).catch(() => whose.communityId));
    const counted = { ...whose, tenantId };
    let overSpent: ImageBudgetRefusal | undefined;
    const report = await boundedCheck(header, counted, deps.admission, deps.logger, async () => {
      // charged once the check may go (an upload over its session's or tenant's share spends
      // none), the community's own: a check of no one's (a test's) is not charged
      overSpent = owner && (await deps.imageBudget?.take(owner.communityId, admitted.cost));
      if (overSpent) return { problems: [checkUnavailable(overSpent.message)], header };
      deps.metrics?.inFlight.inc();
      try {
        return await ask();
      } finally {
        deps.metrics?.inFlight.dec();
      }
    });
    // held once its place among the checks is given back: a refusal never holds another's place
    if (overSpent && owner) await deps.imageBudget?.hold(owner.communityId, overSpent);
    return report;

    async function ask(): Promise<CaptureReport> {
      const count = (outcome: string) => deps.metrics?.checks.inc({ outcome });
      const request: CaptureCheckRequest = {
        checkId,
        side,
        journey: { journeyType: journey.journeyType, documentType: journey.documentType },
        owner: counted,
        deadline: Date.now() + deps.waitMs,
        image: deps.box.sealBytes(bytes, checkId).toString('base64'),
      };
      let answer: unknown;
      try {
        answer = await deps.broker.request(deps.queue, request, { timeoutMs: deps.waitMs });
      } catch (err) {
        if (err instanceof RpcTimeoutError) {
          count('timeout');
          return { problems: [checkUnavailable('no image check answered in time')], header };
        }
        if (err instanceof BrokerUnavailableError) {
          count('unreachable');
          return { problems: [checkUnavailable('the image checks are not reachable')], header };
        }
        count('failed');
        throw err;
      }
      const reply = validate(CaptureCheckReply, answer);
      if (!reply.ok) {
        count('failed');
        throw new Error(
          `the capture check's reply is invalid: ${reply.issues[0]?.path} ${reply.issues[0]?.message}`,
        );
      }
      count('answered');
      return { ...reply.value, header };
    }
  };
}
