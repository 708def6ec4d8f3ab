// One connector job: check it, open the sealed config and document, wait for the verifier's slot
// while the deadline allows, call the provider through the verifier's breaker, and answer. A job
// that cannot end before its deadline is answered busy at once instead of being started.
import { PoisonMessageError, type MessageHandler } from '@idv/broker';
import {
  ConnectorJob,
  RESULT_BY_KIND,
  validate,
  type ConnectorType,
  type NormalisedResult,
} from '@idv/contracts';
import type { SecretBox } from '@idv/crypto';
import type { SsrfGuard } from '@idv/netguard';
import type { Logger } from '@idv/observability';
import type { Adapter, AdapterOutput } from '../connectors/connector.ts';
import {
  BlockedTarget,
  Busy,
  outcomeOf,
  ProviderRejected,
  ProviderUnavailable,
  type JobOutcome,
} from '../outcomes.ts';
import { accountOf } from '../provider/accounts.ts';
import type { VerifierGates } from '../provider/admission.ts';
import type { TenantShares } from '@idv/platform/fairShare';
import type { VerifierBreakers } from '../provider/breakers.ts';
import type { ClientCertificates } from '../provider/clientCertificates.ts';
import type { GuardedHttp } from '@idv/netguard';
import type { ProviderMetrics } from '../provider/metrics.ts';
import type { TrailingCalls } from '../provider/trailing.ts';
import { inconclusive } from '../connectors/shared/normalise.ts';
import type { FollowUps } from './followUps.ts';
import { checkRouting, openJob } from './openJob.ts';
import { replyOf, type Completed, type JobTiming } from './replies.ts';

export interface JobDeps<T extends ConnectorType = ConnectorType> {
  type: T;
  adapter: Adapter<T>;
  box: SecretBox;
  http: GuardedHttp;
  guard: SsrfGuard;
  certificates: ClientCertificates;
  breakers: VerifierBreakers;
  gates: VerifierGates;
  metrics: ProviderMetrics;
  logger: Logger;
  /** provider calls adapters make after their result, holding the verifier's slot */
  trailing: TrailingCalls;
  /** types with followUps: pending answers are followed up */
  followUps?: FollowUps<T> | undefined;
  /** the jobs one tenant, and one community, may hold of this worker's at once */
  shares?: TenantShares;
}

/** Leaves the reply time to cross the broker before the gateway stops waiting. */
const REPLY_MARGIN_MS = 200;

function refuseBlocked(guard: SsrfGuard, url: string): void {
  try {
    guard.checkUrl(url);
  } catch (err) {
    throw new BlockedTarget((err as Error).message);
  }
}

/** Runs the job up to its result; throws the JobOutcome it ended on otherwise. */
async function work<T extends ConnectorType>(
  deps: JobDeps<T>,
  job: ConnectorJob,
  timing: JobTiming,
): Promise<Completed> {
  const deadline = job.deadline - REPLY_MARGIN_MS;
  if (Date.now() >= deadline) throw new Busy('deadline_passed', 'the job came after its deadline');
  checkRouting(deps.type, job);
  const { config, document } = openJob(deps.box, deps.type, job);
  refuseBlocked(deps.guard, job.verifier.connectorUrl);
  if (deps.breakers.state(job.verifier.id) === 'open')
    throw new ProviderUnavailable('breaker_open', 'the breaker of this verifier is open');

  const gate = deps.gates.of(job.verifier.id, job.verifier.limits);
  const shortestMs = gate.latency.shortest();
  const release = await gate.admission.acquire({
    deadline,
    typicalMs: gate.latency.typical(),
    shortestMs,
  });
  let after: AdapterOutput['after'];
  try {
    timing.queuedMs = Date.now() - job.sentAt;
    deps.metrics.queueWait.observe({ type: deps.type }, Math.max(0, timing.queuedMs) / 1000);
    const left = deadline - Date.now();
    if (left < shortestMs)
      throw new Busy('deadline_too_close', `${left} ms left, calls take at least ${shortestMs} ms`);
    const callStarted = Date.now();
    const output = await deps.breakers
      .call(job.verifier.id, {
        deadline,
        run: (signal) =>
          deps.adapter({
            kind: job.kind,
            connectorUrl: job.verifier.connectorUrl,
            config,
            document,
            account: accountOf(job, config),
            http: deps.http,
            clientCertificate: (name) => deps.certificates.load(job.context.communityId, name),
            signal,
            ...(deps.followUps && job.followUp
              ? {
                  followUp: {
                    deadline: job.followUp.deadline,
                    callbackUrl: job.followUp.callbackUrl,
                  },
                }
              : {}),
          }),
      })
      .catch((err: unknown) => {
        observeCall(deps, job, callStarted, outcomeOf(err));
        throw err;
      });
    observeCall(deps, job, callStarted, undefined);
    after = output.after;
    const shaped = validate(RESULT_BY_KIND[job.kind], output.result);
    if (!shaped.ok) {
      deps.logger.error({ jobId: job.jobId, issues: shaped.issues }, 'adapter result off contract');
      throw new ProviderUnavailable('provider_malformed', 'the adapter built no valid result');
    }
    const rawSealed = job.options.returnRawData
      ? deps.box.seal(JSON.stringify(output.raw ?? null), job.jobId)
      : undefined;
    const result =
      shaped.value.status === 'pending'
        ? await followingUp(deps, job, config, shaped.value)
        : shaped.value;
    return { result, rawSealed };
  } finally {
    if (after)
      deps.trailing.hold(after, { jobId: job.jobId, verifierTag: job.verifier.tag }, release);
    else release();
  }
}

/**
 * A "not final yet" answer: followed up (the gateway parks the kind as pending), or, when it cannot
 * be (no follow-up for this job, or the follow-up could not be stored), inconclusive.
 */
async function followingUp<T extends ConnectorType>(
  deps: JobDeps<T>,
  job: ConnectorJob,
  config: unknown,
  result: NormalisedResult,
): Promise<NormalisedResult> {
  const undecided = inconclusive(result.reasons.length ? result.reasons : ['review_pending']);
  if (!deps.followUps || !job.followUp || !result.followUp) return undecided;
  try {
    await deps.followUps.start(job, config, result.followUp);
    return result;
  } catch (err) {
    deps.logger.error({ jobId: job.jobId, err: (err as Error).message }, 'follow-up not started');
    return { ...undecided, reasons: ['follow_up_not_started'] };
  }
}

/** The provider's latency, and the verifier's recent latencies, from calls the provider answered. */
function observeCall(
  deps: Pick<JobDeps, 'type' | 'gates' | 'metrics'>,
  job: ConnectorJob,
  started: number,
  ending: JobOutcome | undefined,
): void {
  if (ending instanceof Busy || ending?.code === 'breaker_open') return; // no answer to learn from
  const ms = Date.now() - started;
  if (ending === undefined || ending instanceof ProviderRejected)
    deps.gates.of(job.verifier.id, job.verifier.limits).latency.record(ms);
  deps.metrics.providerLatency.observe(
    { type: deps.type, kind: job.kind, result: ending?.code ?? 'completed' },
    ms / 1000,
  );
}

export function createJobHandler<T extends ConnectorType>(deps: JobDeps<T>): MessageHandler {
  return async (body, context) => {
    const checked = validate(ConnectorJob, body);
    if (!checked.ok) {
      const issues = checked.issues.map((i) => `${i.path} ${i.message}`).join('; ');
      throw new PoisonMessageError(`not a connector job: ${issues}`);
    }
    const job = checked.value;
    const timing: JobTiming = { receivedAt: Date.now(), queuedMs: Date.now() - job.sentAt };
    // a tenant (all its communities) and a community hold at most their share of the jobs this
    // worker takes at once: over it the job is busy at once, so one tenant's jobs waiting on a
    // slow or hanging provider never hold every delivery of the queue other tenants share
    const owner = { tenantId: job.context.tenantId, communityId: job.context.communityId };
    const shared = deps.shares?.take(owner) ?? true;
    deps.metrics.inFlight.inc({ type: deps.type });
    let ending: Completed | JobOutcome;
    try {
      if (!shared)
        throw new Busy('tenant_busy', "this tenant's jobs hold their share of the worker", 1000);
      ending = await work(deps, job, timing);
    } catch (err) {
      ending = outcomeOf(err);
    } finally {
      deps.metrics.inFlight.dec({ type: deps.type });
      if (shared) deps.shares?.release(owner);
    }
    const reply = replyOf(job, deps.type, ending, timing);
    deps.metrics.jobs.inc({ type: deps.type, kind: job.kind, outcome: reply.outcome });
    if (ending instanceof Busy) deps.metrics.busy.inc({ type: deps.type, code: ending.code });
    if (ending instanceof ProviderUnavailable && ending.code === 'provider_error')
      deps.logger.error(
        { jobId: job.jobId, err: ending.message },
        'unexpected failure in the adapter',
      );
    deps.logger.info(
      {
        jobId: job.jobId,
        kind: job.kind,
        verifier: job.verifier.tag,
        outcome: reply.outcome,
        code: reply.error?.code,
        redelivered: context.redelivered,
        latencyMs: reply.latencyMs,
        queuedMs: reply.queuedMs,
      },
      'connector job answered',
    );
    return reply;
  };
}
