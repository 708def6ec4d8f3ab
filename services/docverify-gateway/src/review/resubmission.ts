// A reviewer's resubmission: a new capture session linked to the case (same config, same owner
// licence, the original's document type and journey), asking only for the sides the reason names.
// Its page link is kept sealed for the caller's reads, its event carries ids only. Sessions of the
// case that were never submitted end (cancelled) whenever the case moves on without them.
import type { CaptureSide, EventEnvelope, Resubmission, VerifyRequest } from '@idv/contracts';
import type { Knex } from '@idv/db';
import { ConflictError, InputError } from '@idv/errors';
import type { ReviewReason } from './reviewReasons.ts';
import { journeyOfRequest, sidesAsked, type Journey } from './resubmissionCaptures.ts';
import { openSession } from '../sessions/createSession.ts';
import { sessionEvents } from '../sessions/events.ts';
import type { ReviewCaseRecord } from './reviewCaseStore.ts';
import type { SessionRecord } from '../sessions/sessionRecord.ts';
import type { VerificationConfigRecord } from '../verificationConfigs/verificationConfigStore.ts';
import type { ReviewDeps } from './deps.ts';
import { resubmissionRequested } from './events.ts';

export interface ResubmissionPlan {
  journey: Journey;
  sides: CaptureSide[];
  original: Pick<SessionRecord, 'locale' | 'redirectUrl' | 'metadata' | 'ownerLicenceId'>;
}

/** What the new session asks for; refused when the verification has nothing the reason names. */
export async function planResubmission(
  deps: ReviewDeps,
  kase: ReviewCaseRecord,
  reason: ReviewReason,
): Promise<ResubmissionPlan> {
  const session = kase.sessionId ? await deps.sessions.byId(kase.sessionId, 'all') : undefined;
  const run = session ? undefined : await deps.runs.get(kase.runId);
  const request = run && ((await deps.runs.request(run.id)) as VerifyRequest | undefined);
  const journey: Journey | undefined = session?.documentType
    ? { documentType: session.documentType, journeyType: session.journeyType }
    : request && journeyOfRequest(request);
  if (!journey)
    throw new ConflictError('this verification has no document the person could capture again');
  const sides = sidesAsked(reason.captures ?? [], journey);
  if (sides.length === 0)
    throw new InputError(
      `reasonCode ${reason.code} asks for captures this verification does not have`,
      [{ path: '/reasonCode', message: `asks for ${(reason.captures ?? []).join(', ')}` }],
    );
  const original = session ?? {
    locale: null,
    redirectUrl: null,
    metadata: null,
    ownerLicenceId: run?.ownerLicenceId ?? null,
  };
  return { journey, sides, original };
}

/** In the decision's transaction: the new session, its link kept sealed, and the events it owes. */
export async function requestResubmission(
  deps: ReviewDeps,
  trx: Knex.Transaction,
  kase: ReviewCaseRecord,
  config: VerificationConfigRecord,
  plan: ResubmissionPlan,
  reason: ReviewReason,
): Promise<{ resubmission: Resubmission; events: EventEnvelope[] }> {
  const { session, url, events } = await openSession(
    deps,
    {
      config,
      dvcID: kase.dvcID,
      journey: plan.journey.journeyType,
      fixed: plan.journey.documentType,
      locale: plan.original.locale,
      redirectUrl: plan.original.redirectUrl,
      metadata: plan.original.metadata,
      personal: {},
      ownerLicenceId: plan.original.ownerLicenceId,
      resubmission: { caseId: kase.id, sides: plan.sides },
    },
    trx,
  );
  const resubmission = { sessionId: session.id, url, expiresAt: session.expiresAt.toISOString() };
  await deps.reviewSealed.keepResubmission(trx, kase, resubmission);
  const requested = resubmissionRequested(kase, session.id, reason.code, reason.captures ?? []);
  return { resubmission, events: [...events, requested] };
}

/** The case's resubmission sessions nobody submitted, cancelled (in `trx`); their events. */
export async function cancelResubmissions(
  deps: ReviewDeps,
  trx: Knex.Transaction,
  kase: ReviewCaseRecord,
): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  for (const id of await deps.reviews.resubmissionSessions(
    kase,
    ['created', 'opened', 'capturing'],
    trx,
  )) {
    const moved = await deps.sessions.move(
      id,
      'cancelled',
      { events: (before, after) => sessionEvents(after, { from: before.status }) },
      trx,
    );
    events.push(...(moved?.events ?? []));
  }
  return events;
}
