// The events of a session's life and of an async run's end: ids, states and counts, never PII.
import {
  eventEnvelope,
  type EventEnvelope,
  type EventName,
  type SessionState,
  type VerifyResult,
} from '@idv/contracts';
import type { SessionRecord } from './sessionRecord.ts';
import type { RunRecord } from '../runs/runStore.ts';

/** The event each state a session enters emits ('processing' emits none). */
const SESSION_EVENT: Partial<Record<SessionState, EventName>> = {
  created: 'E_IDV_SESSION_CREATED',
  opened: 'E_IDV_SESSION_OPENED',
  submitted: 'E_IDV_SESSION_SUBMITTED',
  completed: 'E_IDV_SESSION_COMPLETED',
  failed: 'E_IDV_SESSION_FAILED',
  expired: 'E_IDV_SESSION_EXPIRED',
  abandoned: 'E_IDV_SESSION_ABANDONED',
  cancelled: 'E_IDV_SESSION_CANCELLED',
  declined: 'E_IDV_SESSION_DECLINED',
};

/** The event of `session` having entered its state, with `extra` members; none for processing. */
export function sessionEvents(
  session: SessionRecord,
  extra: Record<string, unknown> = {},
  ts = Date.now(),
): EventEnvelope[] {
  const name = SESSION_EVENT[session.status];
  if (!name) return [];
  const data = { sessionId: session.id, dvcID: session.dvcID, state: session.status, ...extra };
  return [eventEnvelope(name, session, data, { ts })];
}

/** The end of an async run: verified/not_verified with its kinds, or failed with the reason. */
export function verificationCompleted(
  run: RunRecord,
  result: VerifyResult | undefined,
  ts = Date.now(),
): EventEnvelope {
  return eventEnvelope(
    'E_IDV_VERIFICATION_COMPLETED',
    run,
    {
      verificationId: run.id,
      dvcID: run.dvcID,
      status: result ? result.status : 'failed',
      verifications: result ? result.certifications.map((c) => c.kind) : [],
      ...(run.failure ? { reason: run.failure } : {}),
    },
    { ts },
  );
}
