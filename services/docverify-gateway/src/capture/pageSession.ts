// The session a capture page token names: unknown is 404, ended is 410 with the state (the page
// shows its screen for it), and every call of the page counts as activity. The first call opens it.
import { CONSENT_TEXT_VERSION, type CaptureSession, type SessionState } from '@idv/contracts';
import { GoneError, NotFoundError } from '@idv/errors';
import { pageTokenHash, TOKEN_PATTERN } from './pageToken.ts';
import { attemptsAllowed } from '../sessions/captureSettings.ts';
import { sidesToCapture } from '../sessions/sessionJourney.ts';
import { isFinal } from '../sessions/sessionStates.ts';
import type { SessionRecord } from '../sessions/sessionRecord.ts';
import type { SessionDeps } from '../sessions/deps.ts';
import { pageBranding } from '../verificationConfigs/branding.ts';
import { sessionEvents } from '../sessions/events.ts';
import { withTimers } from '../sessions/timers.ts';

const ENDED: Partial<Record<SessionState, string>> = {
  completed: 'this verification is complete',
  failed: 'this verification could not be completed',
  expired: 'this verification link has expired',
  abandoned: 'this verification was left unfinished for too long and has ended',
  cancelled: 'this verification was cancelled',
  declined: 'this verification was declined',
};

/** The session of `token` as it stands now (timers applied), ended or not; 404 when unknown. */
export async function sessionOfToken(deps: SessionDeps, token: string): Promise<SessionRecord> {
  const found = TOKEN_PATTERN.test(token)
    ? await deps.sessions.byTokenHash(pageTokenHash(token))
    : undefined;
  if (!found) throw new NotFoundError('this verification link is not known');
  return withTimers(deps, found);
}

/** 410 for a session that has ended. */
export function refuseEnded(session: SessionRecord): void {
  if (isFinal(session.status))
    throw new GoneError(ENDED[session.status] ?? 'this verification has ended', {
      state: session.status,
    });
}

/** The live session of `token`, opened on first use, its abandonment timer pushed. */
export async function livePageSession(deps: SessionDeps, token: string): Promise<SessionRecord> {
  const session = await sessionOfToken(deps, token);
  refuseEnded(session);
  if (session.status !== 'created') {
    await deps.sessions.touch(session.id);
    return session;
  }
  const now = deps.clock.now();
  const moved = await deps.sessions.move(session.id, 'opened', {
    patch: { opened_at: now, last_activity_at: now },
    events: (_, after) => sessionEvents(after),
  });
  if (moved) void deps.outbox.flush(moved.events);
  return moved?.after ?? sessionOfToken(deps, token);
}

/** GET /capture-api/session: what the page needs to lead the person. */
export async function pageView(
  deps: SessionDeps,
  session: SessionRecord,
  token: string,
  maxImageBytes: number,
): Promise<CaptureSession> {
  const accepted = (await deps.images.acceptedSides([session.id])).get(session.id) ?? [];
  // the config as it is now: a business may change its branding while links are out
  const [config] = await deps.configs.findCached([session.communityId], session.configId);
  const sides = sidesToCapture(session);
  const { settings } = session;
  return {
    state: session.status,
    journeyType: session.journeyType,
    documentType: session.documentType,
    documentTypes: settings.documentTypes,
    branding: pageBranding(config?.settings.branding, token),
    documentFixed: session.documentFixed,
    sides,
    settings: {
      selfieCaptureMode: settings.selfieCaptureMode,
      reviewScreenFront: settings.reviewScreenFront,
      reviewScreenBack: settings.reviewScreenBack,
      retryCount: settings.retryCount,
      selfieRetryCount: settings.selfieRetryCount,
      maxImageBytes,
    },
    attempts: session.attempts,
    accepted: Object.fromEntries(sides.map((side) => [side, accepted.includes(side)])),
    consent: { given: session.consent !== null, textVersion: CONSENT_TEXT_VERSION },
    locale: session.locale,
    redirectUrl: session.redirectUrl,
    handoffUrl: `${deps.publicUrl.replace(/\/+$/, '')}/capture/${token}`,
    expiresAt: session.expiresAt.toISOString(),
  };
}

/** Captures of `side` left (first try and retakes). */
export function attemptsLeft(
  session: SessionRecord,
  side: 'front' | 'back' | 'passport' | 'selfie',
): number {
  return Math.max(0, attemptsAllowed(side, session.settings) - (session.attempts[side] ?? 0));
}
