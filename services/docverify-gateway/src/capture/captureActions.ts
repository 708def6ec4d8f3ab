// What the person does on the capture page: consent, choose the document, capture each side
// (checked, counted against its retries unless the check could not run), submit. Each acts on the live session of the token.
import { randomUUID } from 'node:crypto';
import {
  CONSENT_TEXT_VERSION,
  type CaptureImageVerdict,
  type CaptureSide,
  type SessionDocumentType,
  type SessionState,
} from '@idv/contracts';
import { ConflictError, InputError } from '@idv/errors';
import { uncheckedIn } from '@idv/capture-checks';
import type { Knex } from '@idv/db';
import { attemptsAllowed } from '../sessions/captureSettings.ts';
import { sidesToCapture } from '../sessions/sessionJourney.ts';
import { submitResubmission } from '../review/resubmissionSubmit.ts';
import type { SessionRecord } from '../sessions/sessionRecord.ts';
import type { SessionDeps } from '../sessions/deps.ts';
import { sessionEvents } from '../sessions/events.ts';
import { attemptsLeft, livePageSession } from './pageSession.ts';

function requireState(session: SessionRecord, states: SessionState[], doing: string): void {
  if (states.includes(session.status)) return;
  const why =
    session.status === 'opened' ? 'consent is needed first' : `the session is ${session.status}`;
  throw new ConflictError(`cannot ${doing}: ${why}`);
}

export async function giveConsent(
  deps: SessionDeps,
  token: string,
  textVersion: string,
): Promise<SessionRecord> {
  const session = await livePageSession(deps, token);
  if (textVersion !== CONSENT_TEXT_VERSION)
    throw new InputError(
      `textVersion is not the consent text of this page (${CONSENT_TEXT_VERSION})`,
      [{ path: '/textVersion', message: `must be ${CONSENT_TEXT_VERSION}` }],
    );
  if (session.status === 'capturing') return session;
  requireState(session, ['opened'], 'give consent');
  const now = deps.clock.now();
  const moved = await deps.sessions.move(session.id, 'capturing', {
    patch: {
      consent: JSON.stringify({ at: now.toISOString(), textVersion }),
      last_activity_at: now,
    },
  });
  if (!moved) throw new ConflictError('the session changed meanwhile; reload the page');
  return moved.after;
}

/**
 * The person declines (on the consent screen, or later before submitting): the session ends as
 * `declined`, with E_IDV_SESSION_DECLINED naming the state it left. A submitted session cannot be
 * declined (409), an ended one, a declined one included, answers 410 as every page call does.
 */
export async function declineSession(deps: SessionDeps, token: string): Promise<SessionRecord> {
  const session = await livePageSession(deps, token);
  requireState(session, ['opened', 'capturing'], 'decline');
  const moved = await deps.sessions.move(session.id, 'declined', {
    patch: { last_activity_at: deps.clock.now() },
    events: (before, after) => sessionEvents(after, { from: before.status }),
  });
  if (!moved) throw new ConflictError('the session changed meanwhile; reload the page');
  void deps.outbox.flush(moved.events);
  return moved.after;
}

export async function chooseDocumentType(
  deps: SessionDeps,
  token: string,
  documentType: SessionDocumentType,
): Promise<SessionRecord> {
  const session = await livePageSession(deps, token);
  if (session.documentFixed)
    throw new ConflictError(
      `the document type is fixed for this session (${session.documentType})`,
    );
  if (!session.settings.documentTypes.includes(documentType))
    throw new InputError(`documentType ${documentType} is not offered by this session`, [
      {
        path: '/documentType',
        message: `must be one of ${session.settings.documentTypes.join(', ')}`,
      },
    ]);
  const live: SessionState[] = ['opened', 'capturing'];
  requireState(session, live, 'choose the document type');
  const changed = await deps.sessions.update(session.id, live, {
    document_type: documentType,
    last_activity_at: deps.clock.now(),
  });
  if (!changed) throw new ConflictError('the session changed meanwhile; reload the page');
  return { ...session, documentType };
}

export async function captureImage(
  deps: SessionDeps,
  token: string,
  side: CaptureSide,
  bytes: Buffer,
): Promise<CaptureImageVerdict> {
  const session = await livePageSession(deps, token);
  requireState(session, ['capturing'], `capture ${side}`);
  if (session.documentType === null && side !== 'selfie')
    throw new ConflictError('choose the document type before capturing it');
  if (!sidesToCapture(session).includes(side))
    throw new ConflictError(`${side} is not part of this journey`);
  const allowed = attemptsAllowed(side, session.settings);
  const noneLeft = () => new ConflictError(`no retakes of ${side} are left (${allowed} allowed)`);
  if (attemptsLeft(session, side) === 0) throw noneLeft();
  const report = await deps.checkCapture(side, bytes, session, {
    sessionId: session.id,
    communityId: session.communityId,
  });
  // a check that did not run judged nothing: the image is not kept and costs no retake
  if (uncheckedIn(report.problems))
    return {
      side,
      accepted: false,
      problems: report.problems,
      attemptsLeft: attemptsLeft(session, side),
    };
  const used = await deps.sessions.countAttempt(session.id, side, allowed);
  if (used === undefined)
    throw new ConflictError(`no retakes of ${side} are left, or the session stopped capturing`);
  let accepted = report.problems.length === 0 && report.header !== undefined;
  if (accepted && report.header) {
    accepted = await deps.images.accept(session.id, {
      side,
      bytes,
      mediaType: `image/${report.header.format}`,
      width: report.header.width,
      height: report.header.height,
      quality: { ...report.measures, ...report.notes },
    });
    if (!accepted) throw new ConflictError('the session stopped capturing meanwhile');
  }
  return { side, accepted, problems: report.problems, attemptsLeft: Math.max(0, allowed - used) };
}

/**
 * Submits the captures: every side of the journey accepted, or out of retakes (then the run fails
 * the session as capture_incomplete). Once one side is out of retakes unaccepted the session is
 * sure to fail, so it may be submitted at once: the page ends the journey there instead of asking
 * the person for the other sides. The session and its run are stored together (a
 * resubmission's with its case taking them: review/resubmissionSubmit.ts); the run then goes to
 * the queue. A second submit answers the state again.
 */
export async function submitCapture(deps: SessionDeps, token: string): Promise<SessionRecord> {
  const session = await livePageSession(deps, token);
  if (session.status === 'submitted' || session.status === 'processing') return session;
  requireState(session, ['capturing'], 'submit');
  if (session.documentType === null) throw new ConflictError('choose the document type first');
  const accepted = (await deps.images.acceptedSides([session.id])).get(session.id) ?? [];
  const unaccepted = sidesToCapture(session).filter((side) => !accepted.includes(side));
  const missing = unaccepted.filter((side) => attemptsLeft(session, side) > 0);
  const doomed = missing.length < unaccepted.length;
  if (missing.length > 0 && !doomed) throw new ConflictError(`capture ${missing.join(', ')} first`);
  const now = deps.clock.now();
  const runId = randomUUID();
  const run = {
    id: runId,
    communityId: session.communityId,
    tenantId: session.tenantId,
    configId: session.configId,
    dvcID: session.dvcID,
    kind: 'session' as const,
    sessionId: session.id,
    ownerLicenceId: session.ownerLicenceId,
    deadline: new Date(now.getTime() + deps.runDeadlineMs),
  };
  const submit = async (outer?: Knex.Transaction) => {
    const moved = await deps.sessions.move(
      session.id,
      'submitted',
      {
        patch: { submitted_at: now, last_activity_at: now, run_id: runId },
        also: (trx) => deps.runs.create(run, undefined, trx),
        events: (_, after) =>
          sessionEvents(after, { verificationId: runId, documentType: after.documentType }),
      },
      outer,
    );
    if (!moved) throw new ConflictError('the session changed meanwhile; reload the page');
    return moved;
  };
  const moved = session.reviewCaseId
    ? await submitResubmission(deps, session.reviewCaseId, submit)
    : await submit();
  void deps.outbox.flush(moved.events);
  await deps.runQueue.enqueue(runId, run.communityId);
  return moved.after;
}
