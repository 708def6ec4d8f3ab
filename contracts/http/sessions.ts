// Verification sessions (the vendor helper's document_share_session calls, DESIGN 2.4): what a
// caller sends and gets back, and the states a session moves through with what moves it.
import { Type, type Static } from '@sinclair/typebox';
import { Resubmission } from './review.ts';

import {
  FINAL_SESSION_STATES,
  isFinalSessionState,
  SESSION_STATES,
  type FinalSessionState,
  type SessionState,
} from './sessionStates.ts';

export {
  FINAL_SESSION_STATES,
  isFinalSessionState,
  SESSION_STATES,
  type FinalSessionState,
  type SessionState,
};

/** What the vendor helper reads: INPROGRESS while a session is not final, else its final state. */
export type SessionWireStatus = 'INPROGRESS' | Uppercase<FinalSessionState>;
const SESSION_WIRE_STATUSES: readonly SessionWireStatus[] = [
  'INPROGRESS',
  ...FINAL_SESSION_STATES.map((s) => s.toUpperCase() as Uppercase<FinalSessionState>),
];

export function wireStatusOf(state: SessionState): SessionWireStatus {
  return isFinalSessionState(state) ? (state.toUpperCase() as SessionWireStatus) : 'INPROGRESS';
}

/** The timers, named by the well-known constant (spec 2.1) that sets each. */
export type SessionTimer = 'expireSessionInMin' | 'abandonSessionInMin';

export interface SessionTransition {
  from: readonly SessionState[];
  to: SessionState;
  /** what causes it, in words for the table of docs/sessions.md */
  on: string;
  timer?: SessionTimer;
}

/** Every allowed move. Anything else is refused, so a session never moves twice or backwards. */
export const SESSION_TRANSITIONS: readonly SessionTransition[] = [
  { from: ['created'], to: 'opened', on: 'the person opens the capture page' },
  { from: ['opened'], to: 'capturing', on: 'the person gives consent' },
  { from: ['capturing'], to: 'submitted', on: 'the person submits the captured images' },
  { from: ['submitted'], to: 'processing', on: 'the verification run starts' },
  {
    from: ['processing'],
    to: 'completed',
    on: 'the run ends with a result (verified or not), pending follow-ups included',
  },
  {
    from: ['submitted', 'processing'],
    to: 'failed',
    on: 'the run cannot produce a result (no verifier could answer, retries used up)',
  },
  {
    from: ['created', 'opened', 'capturing', 'submitted', 'processing'],
    to: 'expired',
    on: 'no completion expireSessionInMin after creation',
    timer: 'expireSessionInMin',
  },
  {
    from: ['opened', 'capturing'],
    to: 'abandoned',
    on: 'no activity on the page abandonSessionInMin after the last one',
    timer: 'abandonSessionInMin',
  },
  {
    from: ['created', 'opened', 'capturing'],
    to: 'cancelled',
    on: 'the caller (or an operator) cancels it',
  },
  {
    from: ['opened', 'capturing'],
    to: 'declined',
    on: 'the person declines on the capture page (before submitting)',
  },
];

export const SESSION_DOCUMENT_TYPES = ['DL', 'IDCARD', 'PASSPORT'] as const;
export type SessionDocumentType = (typeof SESSION_DOCUMENT_TYPES)[number];

/**
 * The spellings of a document type a caller may give, in any case: the spec's own words for
 * document.type (section 2.2: dl, ppt, idcard), which the vendor's helper passes on as its caller
 * gives them, and the names the capture page uses.
 */
const DOCUMENT_TYPE_SPELLINGS: Record<string, SessionDocumentType> = {
  dl: 'DL',
  ppt: 'PASSPORT',
  passport: 'PASSPORT',
  idcard: 'IDCARD',
};

/** The accepted spellings, for messages that name them. */
export const DOCUMENT_TYPE_WORDS = 'dl, ppt, idcard (in any case), DL, PASSPORT, IDCARD';

/** The document type a caller's spelling names, or undefined when it names none. */
export function sessionDocumentTypeOf(given: string): SessionDocumentType | undefined {
  return Object.hasOwn(DOCUMENT_TYPE_SPELLINGS, given.toLowerCase())
    ? DOCUMENT_TYPE_SPELLINGS[given.toLowerCase()]
    : undefined;
}

const JourneyType = Type.Union([
  Type.Literal('KYC_WITH_FACE_COMPARISON'),
  Type.Literal('DOCUMENT_VERIFICATION_ONLY'),
]);

/** sessionRequest of create: the vendor helper's members, plus the journey's choices. */
export const SessionRequest = Type.Object(
  {
    tenantDNS: Type.Optional(Type.String({ maxLength: 253 })),
    communityName: Type.Optional(Type.String({ maxLength: 200 })),
    documentType: Type.Optional(
      Type.String({
        maxLength: 40,
        description:
          'fixes the document: dl, ppt or idcard in any case (the spec 2.2 words), or DL, PASSPORT, IDCARD; absent: the person chooses on the page',
      }),
    ),
    userUID: Type.Optional(
      Type.String({ maxLength: 200, description: "the caller's id of the person; sealed" }),
    ),
    did: Type.Optional(Type.String({ maxLength: 500, description: 'sealed' })),
    journeyType: Type.Optional(JourneyType),
    redirectUrl: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2000,
        description: 'where the final screen sends the person (https, or http on loopback)',
      }),
    ),
    locale: Type.Optional(Type.String({ pattern: '^[a-z]{2}(-[A-Z]{2})?$' })),
    metadata: Type.Optional(
      Type.Record(
        Type.String({ maxLength: 64 }),
        Type.Union([Type.String({ maxLength: 200 }), Type.Number(), Type.Boolean()]),
        {
          maxProperties: 20,
          description: "the caller's own labels, returned as given; never personal data",
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type SessionRequest = Static<typeof SessionRequest>;

/** What create's `data` opens to. */
export const SessionCreate = Type.Object(
  { dvcID: Type.String({ minLength: 1, maxLength: 200 }), sessionRequest: SessionRequest },
  { $id: 'http/sessionCreate', additionalProperties: false },
);
export type SessionCreate = Static<typeof SessionCreate>;

/** What result's and cancel's `data` open to. */
export const SessionRef = Type.Object(
  {
    dvcID: Type.String({ minLength: 1, maxLength: 200 }),
    sessionId: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { $id: 'http/sessionRef', additionalProperties: false },
);
export type SessionRef = Static<typeof SessionRef>;

const WireStatus = Type.Union(SESSION_WIRE_STATUSES.map((s) => Type.Literal(s)));
const State = Type.Union(SESSION_STATES.map((s) => Type.Literal(s)));

/** Create's answer, in plain JSON (the vendor helper does not decrypt it). */
export const SessionCreated = Type.Object(
  {
    sessionId: Type.String(),
    url: Type.String({ description: 'the capture page; its token is its only credential' }),
    status: WireStatus,
    state: State,
    expiresAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'http/sessionCreated' },
);

/** What result and cancel answer, encrypted; `result` is the run's VerifyResult once completed. */
export const SessionView = Type.Object(
  {
    sessionId: Type.String(),
    dvcID: Type.String(),
    status: WireStatus,
    state: State,
    journeyType: JourneyType,
    documentType: Type.Union([Type.String(), Type.Null()]),
    attempts: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: 'capture attempts per side: front, back, passport, selfie',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    openedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    submittedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    endedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    expiresAt: Type.String({ format: 'date-time' }),
    verificationId: Type.Union([Type.String(), Type.Null()]),
    failure: Type.Optional(Type.String({ description: 'why a FAILED session failed' })),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    result: Type.Optional(
      Type.Unknown({ description: 'the VerifyResult, as POST /verify gives it' }),
    ),
    /** INPROGRESS on a reviewer's request: the person captures again at its url */
    resubmission: Type.Optional(Resubmission),
  },
  { $id: 'http/sessionView' },
);
export type SessionView = Static<typeof SessionView>;

/** One session as operators list it: no personal data, no images, no result. */
export const SessionSummary = Type.Composite(
  [
    Type.Omit(SessionView, ['result']),
    Type.Object({
      communityId: Type.String(),
      configId: Type.String(),
      accepted: Type.Record(Type.String(), Type.Boolean(), {
        description: 'per side: whether an image passed the checks (the images are never shown)',
      }),
    }),
  ],
  { $id: 'http/sessionSummary' },
);
export type SessionSummary = Static<typeof SessionSummary>;

/** GET /sessions/community/{communityId}: newest first, a page at a time. */
export const SessionListQuery = Type.Object(
  {
    status: Type.Optional(State),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'nextCursor of a page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
  },
  { $id: 'http/sessionListQuery', additionalProperties: false },
);

export const SessionList = Type.Object(
  {
    sessions: Type.Array(SessionSummary),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'pass as cursor for the next (older) page; null on the last page',
    }),
  },
  { $id: 'http/sessionList' },
);
