// The journey's rules over the session the API describes, without I/O: how many captures a side
// has left, which sides get a review screen, and which step a live session is at.
import type { CaptureSession, CaptureSide } from './strings/types.ts';

/** Where a live session stands: the screen its next action needs. */
export type JourneyStep =
  | { name: 'processing' }
  | { name: 'consent' }
  | { name: 'documentType' }
  | { name: 'capture'; side: CaptureSide }
  /** a side is out of attempts unaccepted: the session is sure to fail, the journey ends */
  | { name: 'noAttempts'; side: CaptureSide }
  | { name: 'submit' };

/** Captures of `side` the session allows in all. */
function allowed(session: CaptureSession, side: CaptureSide): number {
  const { retryCount, selfieRetryCount } = session.settings;
  return 1 + (side === 'selfie' ? selfieRetryCount : retryCount);
}

/** Captures of `side` the session still allows. */
export function attemptsLeft(session: CaptureSession, side: CaptureSide): number {
  return Math.max(0, allowed(session, side) - (session.attempts[side] ?? 0));
}

/** Captures of `side` used, from the attempts the server says are left after one. */
export function attemptsUsed(session: CaptureSession, side: CaptureSide, left: number): number {
  return Math.max(0, allowed(session, side) - left);
}

/** Whether a photo of `side` gets a review screen before it is sent. */
export function reviewed(session: CaptureSession, side: CaptureSide): boolean {
  if (side === 'back') return session.settings.reviewScreenBack;
  return side !== 'selfie' && session.settings.reviewScreenFront;
}

/** The screen a live session calls for. */
export function screenOf(session: CaptureSession): JourneyStep {
  if (session.state === 'submitted' || session.state === 'processing')
    return { name: 'processing' };
  if (!session.consent.given) return { name: 'consent' };
  if (session.documentType === null) return { name: 'documentType' };
  const open = session.sides.filter((s) => !session.accepted[s]);
  const spent = open.find((s) => attemptsLeft(session, s) === 0);
  if (spent) return { name: 'noAttempts', side: spent };
  return open[0] ? { name: 'capture', side: open[0] } : { name: 'submit' };
}
