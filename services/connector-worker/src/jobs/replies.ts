// The one way a connector job is answered: with its result, or with the outcome it ended on.
import type { ConnectorJob, ConnectorReply, NormalisedResult } from '@idv/contracts';
import { Busy, type JobOutcome } from '../outcomes.ts';

export interface JobTiming {
  /** when the worker took the job (epoch ms) */
  receivedAt: number;
  /** ms from the gateway's send to the provider call (or to the refusal) */
  queuedMs: number;
}

export interface Completed {
  result: NormalisedResult;
  rawSealed?: string | undefined;
}

export function replyOf(
  job: ConnectorJob,
  authority: string,
  ending: Completed | JobOutcome,
  timing: JobTiming,
): ConnectorReply {
  const reply: ConnectorReply = {
    jobId: job.jobId,
    kind: job.kind,
    verifierTag: job.verifier.tag,
    authority,
    outcome: 'completed',
    latencyMs: Date.now() - timing.receivedAt,
    queuedMs: Math.max(0, timing.queuedMs),
  };
  if ('result' in ending) {
    reply.result = ending.result;
    if (ending.rawSealed !== undefined) reply.rawSealed = ending.rawSealed;
    return reply;
  }
  reply.outcome = ending.outcome;
  reply.error = { code: ending.code, message: ending.message };
  if (ending instanceof Busy && ending.retryAfterMs !== undefined)
    reply.retryAfterMs = ending.retryAfterMs;
  return reply;
}
