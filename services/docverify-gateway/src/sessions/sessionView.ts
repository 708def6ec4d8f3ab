// What callers and operators see of a session: states, timestamps, attempts and ids, never the
// person's data or images; a completed session's result goes to its caller only.
import {
  CAPTURE_SIDES,
  wireStatusOf,
  type CaptureSide,
  type SessionSummary,
  type SessionView,
  type VerifyResult,
} from '@idv/contracts';
import type { SessionRecord } from './sessionRecord.ts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function sessionView(session: SessionRecord, result?: VerifyResult): SessionView {
  return {
    sessionId: session.id,
    dvcID: session.dvcID,
    status: wireStatusOf(session.status),
    state: session.status,
    journeyType: session.journeyType,
    documentType: session.documentType,
    attempts: session.attempts as Record<string, number>,
    createdAt: session.createdAt.toISOString(),
    openedAt: iso(session.openedAt),
    submittedAt: iso(session.submittedAt),
    endedAt: iso(session.endedAt),
    expiresAt: session.expiresAt.toISOString(),
    verificationId: session.runId,
    ...(session.failure ? { failure: session.failure } : {}),
    ...(session.metadata ? { metadata: session.metadata } : {}),
    ...(result ? { result } : {}),
  };
}

export function sessionSummary(session: SessionRecord, accepted: CaptureSide[]): SessionSummary {
  const { result: _none, ...view } = sessionView(session);
  return {
    ...view,
    communityId: session.communityId,
    configId: session.configId,
    accepted: Object.fromEntries(
      CAPTURE_SIDES.filter((side) => side in session.attempts || accepted.includes(side)).map(
        (side) => [side, accepted.includes(side)],
      ),
    ),
  };
}
