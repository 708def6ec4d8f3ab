// One connector job: validate, open the sealed config and document, call the provider through the
// verifier's breaker, and build the reply. A message that is not a job is dead-lettered.
import { PoisonMessageError, type MessageHandler } from '@idv/broker';
import {
  CONFIG_BY_CONNECTOR,
  ConnectorJob,
  ConnectorJobSecrets,
  KINDS_BY_CONNECTOR,
  RESULT_BY_KIND,
  validate,
  type ConnectorReply,
  type ConnectorType,
} from '@idv/contracts';
import type { SecretBox } from '@idv/crypto';
import type { Logger } from '@idv/observability';
import type { AxiosInstance } from 'axios';
import type { SsrfGuard } from '@idv/netguard';
import type { Adapter } from '../adapters/types.ts';
import type { VerifierBreakers } from '../provider/breakers.ts';
import type { ClientCertificates } from '../provider/clientCertificates.ts';
import type { ProviderMetrics } from '../provider/metrics.ts';
import { refusal, unavailable, answered } from './replies.ts';

export interface JobDeps {
  type: ConnectorType;
  adapter: Adapter;
  box: SecretBox;
  http: AxiosInstance;
  guard: SsrfGuard;
  certificates: ClientCertificates;
  breakers: VerifierBreakers;
  metrics: ProviderMetrics;
  logger: Logger;
}

/** Leaves the reply time to cross the broker before the gateway stops waiting. */
const REPLY_MARGIN_MS = 250;

class JobRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A connectorUrl naming an internal address as an IP literal is refused before any call. */
function refuseBlocked(guard: SsrfGuard, url: string): void {
  try {
    guard.checkUrl(url);
  } catch (err) {
    throw new JobRefused('blocked_target', (err as Error).message);
  }
}

function openSecrets(deps: JobDeps, job: ConnectorJob): ConnectorJobSecrets {
  let secrets: unknown;
  try {
    secrets = JSON.parse(deps.box.open(job.sealed, job.jobId));
  } catch {
    throw new JobRefused('sealed_unreadable', 'the job does not open under this MASTER_KEY');
  }
  const checked = validate(ConnectorJobSecrets, secrets);
  if (!checked.ok) throw new JobRefused('invalid_job', 'sealed part is not config + document');
  const config = validate(CONFIG_BY_CONNECTOR[deps.type], checked.value.config);
  if (!config.ok) {
    const issues = config.issues.map((i) => `${i.path || 'config'} ${i.message}`).join('; ');
    throw new JobRefused('invalid_config', `verifier config: ${issues}`);
  }
  return checked.value;
}

async function answer(deps: JobDeps, job: ConnectorJob, started: number): Promise<ConnectorReply> {
  const base = {
    jobId: job.jobId,
    kind: job.kind,
    verifierTag: job.verifier.tag,
    authority: deps.type,
  };
  const elapsed = () => Date.now() - started;
  try {
    if (job.verifier.type !== deps.type) {
      throw new JobRefused(
        'wrong_queue',
        `a ${job.verifier.type} job reached a ${deps.type} worker`,
      );
    }
    if (!KINDS_BY_CONNECTOR[deps.type].includes(job.kind)) {
      throw new JobRefused('unsupported_kind', `${deps.type} cannot do ${job.kind}`);
    }
    const { config, document } = openSecrets(deps, job);
    refuseBlocked(deps.guard, job.verifier.connectorUrl);
    const output = await deps.breakers.of(job.verifier.id).fire({
      controller: new AbortController(),
      budgetMs: Math.max(1, job.options.timeoutMs - REPLY_MARGIN_MS),
      run: (signal) =>
        deps.adapter({
          kind: job.kind,
          connectorUrl: job.verifier.connectorUrl,
          config,
          document,
          http: deps.http,
          lookup: deps.guard.lookup,
          clientCertificate: (name) => deps.certificates.load(job.context.communityId, name),
          signal,
        }),
    });
    const shaped = validate(RESULT_BY_KIND[job.kind], output.result);
    if (!shaped.ok) {
      deps.logger.error({ jobId: job.jobId, issues: shaped.issues }, 'adapter result off contract');
      return unavailable(base, 'malformed_result', 'the adapter built no valid result', elapsed());
    }
    const rawSealed = job.options.returnRawData
      ? deps.box.seal(JSON.stringify(output.raw ?? null), job.jobId)
      : undefined;
    return answered(base, 'completed', elapsed(), { result: shaped.value, rawSealed });
  } catch (err) {
    if (err instanceof JobRefused) return refusal(base, err.code, err.message, elapsed());
    return errorReply(base, err, elapsed());
  }
}

type ReplyBase = Pick<ConnectorReply, 'jobId' | 'kind' | 'verifierTag' | 'authority'>;

/** Sorts what the breaker threw into the two outcomes the gateway acts on. */
function errorReply(base: ReplyBase, err: unknown, latencyMs: number): ConnectorReply {
  const { name, message, code } = err as { name?: string; message?: string; code?: unknown };
  if (name === 'ConfigRefused') return refusal(base, 'invalid_config', message ?? '', latencyMs);
  if (name === 'ProviderRejected')
    return refusal(base, 'provider_rejected', message ?? '', latencyMs);
  // the SSRF guard refused the address (seen at connect time): a refusal, not a provider failure
  if (
    name === 'BlockedTarget' ||
    code === 'EBLOCKEDTARGET' ||
    /SSRF protection/.test(message ?? '')
  ) {
    return refusal(base, 'blocked_target', message ?? 'target address refused', latencyMs);
  }
  const reason =
    code === 'EOPENBREAKER'
      ? 'breaker_open'
      : code === 'ETIMEDOUT'
        ? 'provider_timeout'
        : code === 'ESEMLOCKED'
          ? 'capacity_exceeded'
          : typeof code === 'string' && code.startsWith('provider_')
            ? code
            : 'provider_error';
  return unavailable(base, reason, message ?? 'provider call failed', latencyMs);
}

export function createJobHandler(deps: JobDeps): MessageHandler {
  return async (body, context) => {
    const started = Date.now();
    const checked = validate(ConnectorJob, body);
    if (!checked.ok) {
      const issues = checked.issues.map((i) => `${i.path} ${i.message}`).join('; ');
      throw new PoisonMessageError(`not a connector job: ${issues}`);
    }
    const job = checked.value;
    const reply = await answer(deps, job, started);
    deps.metrics.jobs.inc({ type: deps.type, kind: job.kind, outcome: reply.outcome });
    if (reply.outcome !== 'invalid_request' || reply.error?.code === 'provider_rejected') {
      deps.metrics.providerLatency.observe(
        { type: deps.type, kind: job.kind, result: reply.error?.code ?? reply.outcome },
        reply.latencyMs / 1000,
      );
    }
    deps.logger.info(
      {
        jobId: job.jobId,
        kind: job.kind,
        verifier: job.verifier.tag,
        outcome: reply.outcome,
        code: reply.error?.code,
        redelivered: context.redelivered,
        latencyMs: reply.latencyMs,
      },
      'connector job answered',
    );
    return reply;
  };
}
