// How a connector job can end without a result: one typed outcome each, and the one function that
// sorts anything thrown into them. Adapters, the breaker and the reply all speak this vocabulary.
import type { ConnectorReply } from '@idv/contracts';
import { BLOCKED_TARGET_CODE, BlockedTarget as GuardRefusal } from '@idv/netguard';

type Outcome = Exclude<ConnectorReply['outcome'], 'completed'>;

export type RefusalCode =
  | 'invalid_job'
  | 'wrong_queue'
  | 'unsupported_kind'
  | 'sealed_unreadable'
  | 'invalid_config'
  | 'invalid_input'
  | 'image_host_not_allowed';

export type UnavailableCode =
  | 'provider_timeout'
  | 'provider_5xx'
  | 'provider_throttled'
  | 'provider_unreachable'
  | 'provider_malformed'
  | 'provider_error'
  | 'breaker_open';

export type BusyCode =
  | 'deadline_passed'
  | 'deadline_too_close'
  | 'deadline_cut'
  | 'verifier_saturated'
  | 'tenant_busy'
  | 'stopping';

export abstract class JobOutcome extends Error {
  abstract readonly outcome: Outcome;
  abstract readonly code: string;
  /** true only for the provider's own errors and timeouts: these, and nothing else, open its breaker */
  get countsAgainstProvider(): boolean {
    return false;
  }
}

/** We refuse the job or its input before calling anyone: the next verifier would refuse it too. */
export class Refused extends JobOutcome {
  override readonly name = 'Refused';
  readonly outcome = 'invalid_request';
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
  }
}

/** The provider refused the input (a 4xx other than 408, 425, 429): the provider is healthy. */
export class ProviderRejected extends JobOutcome {
  override readonly name = 'ProviderRejected';
  readonly outcome = 'invalid_request';
  readonly code = 'provider_rejected';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The provider's address is one the SSRF guard refuses (seen before the call or at connect). */
export class BlockedTarget extends JobOutcome {
  override readonly name = 'BlockedTarget';
  readonly outcome = 'invalid_request';
  readonly code = 'blocked_target';
}

/** The provider failed: down, too slow for its own timeout, 5xx, throttling, nonsense. */
export class ProviderUnavailable extends JobOutcome {
  override readonly name = 'ProviderUnavailable';
  readonly outcome = 'provider_unavailable';
  constructor(
    readonly code: UnavailableCode,
    message: string,
  ) {
    super(message);
  }
  override get countsAgainstProvider(): boolean {
    return this.code !== 'breaker_open';
  }
}

/** The platform could not start or finish the call within the job's deadline or the verifier's
 *  limits: it says nothing about the provider, so it never touches the breaker. */
export class Busy extends JobOutcome {
  override readonly name = 'Busy';
  readonly outcome = 'busy';
  constructor(
    readonly code: BusyCode,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** What anything thrown means: ours as they are, the guard's refusal as a blocked target (also
 *  when a client library wrapped it), anything else a provider failure that is logged. */
export function outcomeOf(err: unknown): JobOutcome {
  if (err instanceof JobOutcome) return err;
  const blocked = guardRefusalIn(err);
  if (blocked !== undefined) return new BlockedTarget(blocked);
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderUnavailable('provider_error', message || 'provider call failed');
}

/** The guard's message when `err` is its refusal or wraps one (our HTTP client and the cloud
 *  SDK keep it as cause). */
function guardRefusalIn(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 5; depth += 1) {
    if (e instanceof GuardRefusal || (e as { code?: unknown }).code === BLOCKED_TARGET_CODE)
      return (e as Error).message;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
