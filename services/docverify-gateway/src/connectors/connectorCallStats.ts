// How one connector call is counted: its outcome class (from the worker's reply, or the failure the
// gateway saw), its minute and its duration's bucket in a fixed histogram; and the sums of a minute.
// Only ids, names and counts: nothing of the request or the person.
import type { ConnectorReply } from '@idv/contracts';

/**
 * ok: the provider answered (verified or not); error: the provider failed other than by its timeout
 * (5xx, unreachable, malformed, breaker open) or the call failed on our side; timeout: the
 * provider's timeout, or no answer by the deadline; refused: the input was refused; busy: the worker
 * could not start the call in time (its limits, the deadline), which says nothing of the provider.
 */
export type CallOutcome = 'ok' | 'error' | 'timeout' | 'refused' | 'busy';

/** Upper bounds (ms) of the histogram's buckets; a last bucket takes the longer calls. */
export const LATENCY_BOUNDS_MS = [100, 250, 500, 1000, 2500, 5000] as const;

export interface ConnectorCall {
  communityId: string;
  verifierTag: string;
  kind: string;
  connectorType: string;
  outcome: CallOutcome;
  /** from sending the job to its answer or failure */
  ms: number;
  /** epoch ms the answer or failure came */
  at: number;
}

/** The row a call adds to: its community, verifier, kind and connector type, and its minute. */
export interface MinuteKey {
  communityId: string;
  minute: Date;
  verifierTag: string;
  kind: string;
  connectorType: string;
}

export interface MinuteCounts {
  calls: number;
  errors: number;
  timeouts: number;
  refusals: number;
  busy: number;
  totalMs: number;
  maxMs: number;
  /** one count per bound of LATENCY_BOUNDS_MS, then the calls over the last */
  buckets: number[];
}

export function outcomeOfReply(reply: Pick<ConnectorReply, 'outcome' | 'error'>): CallOutcome {
  switch (reply.outcome) {
    case 'completed':
      return 'ok';
    case 'invalid_request':
      return 'refused';
    case 'busy':
      return 'busy';
    case 'provider_unavailable':
      return reply.error?.code === 'provider_timeout' ? 'timeout' : 'error';
  }
}

export const bucketOf = (ms: number): number => {
  const at = LATENCY_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return at < 0 ? LATENCY_BOUNDS_MS.length : at;
};

export function minuteKeyOf(call: ConnectorCall): MinuteKey {
  return {
    communityId: call.communityId,
    minute: new Date(call.at - (call.at % 60_000)),
    verifierTag: call.verifierTag,
    kind: call.kind,
    connectorType: call.connectorType,
  };
}

export const emptyCounts = (): MinuteCounts => ({
  calls: 0,
  errors: 0,
  timeouts: 0,
  refusals: 0,
  busy: 0,
  totalMs: 0,
  maxMs: 0,
  buckets: new Array<number>(LATENCY_BOUNDS_MS.length + 1).fill(0),
});

/** Adds one call to `counts` in place. */
export function addCall(counts: MinuteCounts, call: ConnectorCall): void {
  const ms = Math.max(0, Math.round(call.ms));
  counts.calls += 1;
  if (call.outcome === 'error') counts.errors += 1;
  else if (call.outcome === 'timeout') counts.timeouts += 1;
  else if (call.outcome === 'refused') counts.refusals += 1;
  else if (call.outcome === 'busy') counts.busy += 1;
  counts.totalMs += ms;
  counts.maxMs = Math.max(counts.maxMs, ms);
  counts.buckets[bucketOf(ms)]! += 1;
}

/** Adds `more` to `counts` in place (a failed flush's counts given back). */
export function addCounts(counts: MinuteCounts, more: MinuteCounts): void {
  counts.calls += more.calls;
  counts.errors += more.errors;
  counts.timeouts += more.timeouts;
  counts.refusals += more.refusals;
  counts.busy += more.busy;
  counts.totalMs += more.totalMs;
  counts.maxMs = Math.max(counts.maxMs, more.maxMs);
  more.buckets.forEach((n, i) => (counts.buckets[i]! += n));
}
