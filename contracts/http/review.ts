// Human review of verifications (DESIGN 2.5): a config's `review` member, the cases a run opens,
// what operators and tenants' tools read of them and send to decide them. No personal data except
// in ReviewCaseData, which only reviewers and licences read (every read audited).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { REVIEW_CASE_STATES } from './reviewCaseStates.ts';

export const REVIEW_MODES = ['off', 'on_inconclusive', 'always'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];

/** A verification config's `review` (beside `settings` or inside it); absent: {mode: 'off'}. */
export const ReviewSettings = Type.Object(
  {
    mode: Type.Union(
      REVIEW_MODES.map((m) => Type.Literal(m)),
      {
        description:
          "off: no review; on_inconclusive: a run whose result is not 'verified' (any certification not verified: not_verified, rejected, inconclusive) waits for a reviewer; always: every run does",
      },
    ),
    fourEyes: Type.Optional(
      Type.Boolean({
        description: 'an approval or decline is confirmed by a second, senior operator',
      }),
    ),
    slaMinutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 43_200,
        description: 'a case is due this long after it opened (overdue after)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReviewSettings = Static<typeof ReviewSettings>;

export { REVIEW_CASE_STATES, type ReviewCaseState } from './reviewCaseStates.ts';

export const REVIEW_DECISIONS = ['approve', 'decline', 'resubmit'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** What a resubmission asks the person to capture again. */
export const RESUBMISSION_CAPTURES = ['document_front', 'document_back', 'selfie'] as const;
export type ResubmissionCapture = (typeof RESUBMISSION_CAPTURES)[number];

const uuid = Type.String({ format: 'uuid' });
const at = Type.String({ format: 'date-time' });
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const State = Type.Union(REVIEW_CASE_STATES.map((s) => Type.Literal(s)));
const Decision = Type.Union(REVIEW_DECISIONS.map((d) => Type.Literal(d)));

/** The new capture session of a resubmission: its url is the page link to send the person. */
export const Resubmission = Type.Object(
  {
    sessionId: uuid,
    url: Type.String({ description: 'the capture page; its token is its only credential' }),
    expiresAt: at,
  },
  { additionalProperties: false },
);
export type Resubmission = Static<typeof Resubmission>;

/** A case's resubmission: its link only for those who may hand it to the person. */
export const CaseResubmission = Type.Object(
  {
    sessionId: uuid,
    url: Type.Optional(
      Type.String({
        description:
          'the capture page; its token is its only credential: absent for viewers and auditors, read by reviewers, senior reviewers, admins and licences (audited as case.notes.read)',
      }),
    ),
    expiresAt: at,
  },
  { additionalProperties: false },
);
export type CaseResubmission = Static<typeof CaseResubmission>;

/**
 * The result of a review's certification (kind human_review): a NormalisedResult with the decision
 * beside; its proof signs the decision too.
 */
export const ReviewResult = Type.Object(
  {
    verified: Type.Boolean(),
    status: Type.Union([Type.Literal('verified'), Type.Literal('not_verified')]),
    reasons: Type.Array(Type.String()),
    decision: Type.Union([Type.Literal('approve'), Type.Literal('decline')]),
    reasonCode: Type.String(),
    caseId: uuid,
    decidedAt: at,
  },
  { description: 'the decision of a human review' },
);
export type ReviewResult = Static<typeof ReviewResult>;

export const ReviewCaseListQuery = Type.Object(
  {
    state: Type.Optional(State),
    assignee: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "an operator's username" }),
    ),
    overdue: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: 'true: live cases past their dueAt only',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'next of a page' })),
  },
  { $id: 'http/reviewCaseListQuery', additionalProperties: false },
);
export type ReviewCaseListQuery = Static<typeof ReviewCaseListQuery>;

export const ReviewCaseSummary = Type.Object(
  {
    caseId: uuid,
    state: State,
    verificationId: Type.String({
      description: 'the verification under review, as its caller knows it',
    }),
    sessionId: nullable(Type.String({ description: 'its session; null for an async /verify' })),
    openedAt: at,
    dueAt: nullable(at),
    assignee: nullable(Type.String({ description: 'the operator who claimed it' })),
  },
  { additionalProperties: false },
);
export type ReviewCaseSummary = Static<typeof ReviewCaseSummary>;

export const ReviewCaseList = Type.Object(
  {
    items: Type.Array(ReviewCaseSummary, { description: 'oldest first (the queue order)' }),
    next: nullable(Type.String({ description: 'cursor of the next page; null on the last' })),
  },
  { $id: 'http/reviewCaseList', additionalProperties: false },
);
export type ReviewCaseList = Static<typeof ReviewCaseList>;

export const ReviewCheck = Type.Object(
  {
    kind: Type.String(),
    verifier: Type.String({ description: 'the verifier tag that answered' }),
    provider: Type.String({ description: 'the connector type that answered' }),
    status: Type.String(),
    verified: Type.Boolean(),
    score: Type.Optional(Type.Number({ description: 'the face-match (or other) score, 0..100' })),
  },
  { additionalProperties: false },
);
export type ReviewCheck = Static<typeof ReviewCheck>;

export const ReviewHistoryEntry = Type.Object(
  {
    at,
    actor: Type.String({ description: 'operator:<username>, licence:<id> or system' }),
    action: Type.String(),
    fromState: nullable(State),
    state: State,
    decision: Type.Optional(Decision),
    reasonCode: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const ReviewCaseDecision = Type.Object(
  {
    stage: Type.Union([Type.Literal('single'), Type.Literal('first'), Type.Literal('second')]),
    decision: Decision,
    reasonCode: Type.String(),
    by: Type.String(),
    at,
  },
  { additionalProperties: false },
);

/** GET .../cases/{caseId}: the case without the person's data. */
export const ReviewCase = Type.Object(
  {
    caseId: uuid,
    communityId: uuid,
    state: State,
    outcome: Type.Union([Type.Literal('approved'), Type.Literal('declined'), Type.Null()]),
    fourEyes: Type.Boolean(),
    slaMinutes: Type.Union([Type.Integer(), Type.Null()]),
    openedAt: at,
    dueAt: nullable(at),
    overdue: Type.Boolean(),
    holdUntil: Type.String({
      format: 'date-time',
      description: 'the case expires (its run fails) then',
    }),
    decidedAt: nullable(at),
    assignee: nullable(Type.String()),
    kind: Type.Union([Type.Literal('session'), Type.Literal('async_verify')]),
    dvcID: Type.String(),
    verificationId: Type.String(),
    sessionId: nullable(Type.String()),
    reviewedVerificationId: Type.String({
      description: "the run whose checks are under review: a resubmission's once it came back",
    }),
    resultStatus: Type.Union([Type.Literal('verified'), Type.Literal('not_verified')]),
    checks: Type.Array(ReviewCheck),
    history: Type.Array(ReviewHistoryEntry),
    notes: Type.Array(
      Type.Object(
        {
          noteId: uuid,
          at,
          author: Type.String(),
          text: Type.Optional(
            Type.Union([Type.String(), Type.Null()], {
              description:
                "null once the verification's data is gone (retrieved, erased); absent for viewers and auditors (a note may name the person): reviewers, senior reviewers, admins and licences read it, audited as case.notes.read",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    decisions: Type.Array(ReviewCaseDecision),
    resubmission: Type.Union([CaseResubmission, Type.Null()]),
  },
  { $id: 'http/reviewCase', additionalProperties: false },
);
export type ReviewCase = Static<typeof ReviewCase>;

/** GET .../cases/{caseId}/data: the person's data under review (audited read). */
export const ReviewCaseData = Type.Object(
  {
    caseId: uuid,
    reviewedVerificationId: Type.String(),
    given: Type.Record(Type.String(), Type.String(), {
      description:
        "what the caller sent: the request's data members (async) or the session's (userUID...)",
    }),
    extracted: Type.Array(
      Type.Object(
        {
          kind: Type.String(),
          verifier: Type.String(),
          fields: Type.Record(Type.String(), Type.String()),
        },
        { additionalProperties: false },
      ),
      { description: 'what each document check read from the document' },
    ),
    images: Type.Array(
      Type.Object(
        {
          name: Type.String({ description: 'front | back | passport | selfie' }),
          mediaType: Type.String(),
          bytes: Type.Integer(),
        },
        { additionalProperties: false },
      ),
      { description: 'GET .../images/{name} serves each' },
    ),
  },
  { $id: 'http/reviewCaseData', additionalProperties: false },
);
export type ReviewCaseData = Static<typeof ReviewCaseData>;

export const ReviewDecisionBody = Type.Object(
  {
    decision: Decision,
    reasonCode: Type.String({
      pattern: '^[a-z][a-z0-9_]{0,63}$',
      description: 'GET /review/reasons lists them',
    }),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  },
  { $id: 'http/reviewDecisionBody', additionalProperties: false },
);
export type ReviewDecisionBody = Static<typeof ReviewDecisionBody>;

export const ReviewNoteBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: 2000 }) },
  { $id: 'http/reviewNoteBody', additionalProperties: false },
);
export type ReviewNoteBody = Static<typeof ReviewNoteBody>;

/** What claim, release, notes and decision answer: the case's state after the step. */
export const ReviewStepAnswer = Type.Object(
  {
    caseId: uuid,
    state: State,
    assignee: nullable(Type.String()),
    outcome: Type.Union([Type.Literal('approved'), Type.Literal('declined'), Type.Null()]),
    resubmission: Type.Optional(Resubmission),
    noteId: Type.Optional(Type.String({ format: 'uuid', description: 'a note just added' })),
  },
  { $id: 'http/reviewStepAnswer', additionalProperties: false },
);
export type ReviewStepAnswer = Static<typeof ReviewStepAnswer>;

const Text = Type.Object({ en: Type.String(), es: Type.String() }, { additionalProperties: false });

/** GET /review/reasons: the reason codes a decision may carry. */
export const ReviewReasons = Type.Object(
  {
    reasons: Type.Array(
      Type.Object(
        {
          code: Type.String(),
          decisions: Type.Array(Decision, { description: 'the decisions it may carry' }),
          internal: Type.String({ description: 'for operators: what it means' }),
          person: Text,
          captures: Type.Optional(
            Type.Array(Type.Union(RESUBMISSION_CAPTURES.map((c) => Type.Literal(c))), {
              description: 'resubmit: what the person captures again',
            }),
          ),
          needsNote: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'http/reviewReasons', additionalProperties: false },
);
export type ReviewReasons = Static<typeof ReviewReasons>;
