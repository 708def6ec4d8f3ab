// The catalog of domain events: name -> data schema (version 1) and the service that emits it. No
// raw PII in any event: people appear only as opaque ids. Consumers accept further members, so
// producers may add fields; callers of the event intake may not (INTAKE_CATALOG).
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';

const open = { additionalProperties: true } as const;

export const DocumentValidated = Type.Object(
  {
    dvcID: Type.String({ description: 'verification config id or tag' }),
    docType: Type.String(),
    status: Type.String({ description: 'overall status of the verification' }),
    docId: Type.Optional(Type.String()),
    verifications: Type.Optional(Type.Array(Type.String())),
  },
  { ...open, $id: 'events/E_IDV_DOCUMENT_VALIDATE' },
);

export const FaceValidated = Type.Object(
  {
    dvcID: Type.String(),
    status: Type.String(),
    verifications: Type.Array(Type.String(), { description: 'face_liveness and/or face_compare' }),
  },
  { ...open, $id: 'events/E_IDV_FACE_VALIDATE' },
);

export const PersonValidated = Type.Object(
  {
    dvcID: Type.String(),
    status: Type.String(),
    verifications: Type.Array(Type.String(), { description: 'ssn_verify and/or person_verify' }),
  },
  { ...open, $id: 'events/E_IDV_PERSON_VALIDATE' },
);

export const VerifierChanged = Type.Object(
  {
    verifierId: Type.String(),
    tag: Type.String(),
    type: Type.String(),
    change: Type.Union([Type.Literal('created'), Type.Literal('updated'), Type.Literal('deleted')]),
  },
  { ...open, $id: 'events/E_IDV_VERIFIER_CHANGED' },
);

const sessionBase = {
  sessionId: Type.String(),
  dvcID: Type.String({ description: 'the verification config as the caller named it' }),
  state: Type.String({ description: 'the state the session entered' }),
};

/** Every step of a session except its completion: ids, states and counts, never PII. */
const sessionStep = (name: string, extra: Record<string, TSchema> = {}) =>
  Type.Object({ ...sessionBase, ...extra }, { ...open, $id: `events/${name}` });

export const SessionCreatedEvent = sessionStep('E_IDV_SESSION_CREATED', {
  journeyType: Type.String(),
  documentType: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.String({ format: 'date-time' }),
});
export const SessionOpenedEvent = sessionStep('E_IDV_SESSION_OPENED');
export const SessionSubmittedEvent = sessionStep('E_IDV_SESSION_SUBMITTED', {
  verificationId: Type.String({ description: 'the run that processes the session' }),
  documentType: Type.String(),
});
export const SessionCompletedEvent = sessionStep('E_IDV_SESSION_COMPLETED', {
  verificationId: Type.String(),
  status: Type.Union([Type.Literal('verified'), Type.Literal('not_verified')], {
    description: "the run's overall status",
  }),
});
export const SessionFailedEvent = sessionStep('E_IDV_SESSION_FAILED', {
  verificationId: Type.Optional(Type.String()),
  reason: Type.String({ description: 'machine-readable, e.g. no_verifier_in_time' }),
});
const endedFrom = {
  from: Type.String({ description: 'the state the session was in' }),
};
export const SessionExpiredEvent = sessionStep('E_IDV_SESSION_EXPIRED', endedFrom);
export const SessionAbandonedEvent = sessionStep('E_IDV_SESSION_ABANDONED', endedFrom);
export const SessionCancelledEvent = sessionStep('E_IDV_SESSION_CANCELLED', endedFrom);
/** the person declined on the capture page: the caller learns it without a person's word in it */
export const SessionDeclinedEvent = sessionStep('E_IDV_SESSION_DECLINED', endedFrom);

/** A verification or session erased (its data keys destroyed): ids and counts, never PII. */
export const DataErased = Type.Object(
  {
    subject: Type.Union([Type.Literal('verification'), Type.Literal('session')]),
    subjectId: Type.String(),
    runs: Type.Array(Type.String(), { description: 'verification runs erased with it' }),
    dataKeys: Type.Integer({ minimum: 0, description: 'how many data keys were destroyed' }),
    erasedAt: Type.String({ format: 'date-time' }),
  },
  { ...open, $id: 'events/E_IDV_DATA_ERASED' },
);

const reviewIds = {
  caseId: Type.String(),
  verificationId: Type.String({ description: 'the verification under review' }),
  sessionId: Type.Union([Type.String(), Type.Null()], { description: 'null: an async /verify' }),
};

/** A run's result waits for a human review (or came back to its case after a resubmission). */
export const ReviewOpened = Type.Object(
  {
    ...reviewIds,
    state: Type.Literal('open'),
    reviewedVerificationId: Type.String({ description: 'the run whose checks are reviewed' }),
    reopened: Type.Boolean({ description: 'a resubmission came back to its case' }),
    resultStatus: Type.String({ description: "the run's own status: verified | not_verified" }),
    dueAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { ...open, $id: 'events/E_IDV_REVIEW_OPENED' },
);

/** A reviewer decided (a first four-eyes decision, a second one, a single one, a resubmission). */
export const ReviewDecided = Type.Object(
  {
    ...reviewIds,
    decision: Type.Union([
      Type.Literal('approve'),
      Type.Literal('decline'),
      Type.Literal('resubmit'),
    ]),
    reasonCode: Type.String(),
    stage: Type.Union([Type.Literal('single'), Type.Literal('first'), Type.Literal('second')]),
    fromState: Type.String(),
    state: Type.String({ description: 'the state the case entered' }),
  },
  { ...open, $id: 'events/E_IDV_REVIEW_DECIDED' },
);

/** A reviewer asked the person to capture again: a new session (never its URL here). */
export const ResubmissionRequested = Type.Object(
  {
    ...reviewIds,
    resubmissionSessionId: Type.String(),
    reasonCode: Type.String(),
    captures: Type.Array(Type.String(), { description: 'document_front, document_back, selfie' }),
  },
  { ...open, $id: 'events/E_IDV_RESUBMISSION_REQUESTED' },
);

export const VerificationCompleted = Type.Object(
  {
    verificationId: Type.String(),
    dvcID: Type.String(),
    status: Type.Union(
      [Type.Literal('verified'), Type.Literal('not_verified'), Type.Literal('failed')],
      { description: 'failed: no result could be produced (see reason)' },
    ),
    verifications: Type.Array(Type.String()),
    reason: Type.Optional(Type.String()),
  },
  { ...open, $id: 'events/E_IDV_VERIFICATION_COMPLETED' },
);

export const LoginSucceeded = Type.Object(
  {
    clientId: Type.String(),
    sub: Type.String({ description: 'opaque account id' }),
    method: Type.Union([
      Type.Literal('password'),
      Type.Literal('proof'),
      Type.Literal('eam'),
      Type.Literal('passkey'),
    ]),
    amr: Type.Optional(
      Type.Array(Type.String(), {
        description: 'authentication methods used (RFC 8176): pwd, otp, hwk, mfa, proof',
      }),
    ),
  },
  { ...open, $id: 'events/E_OAUTH_LOGIN_SUCCEEDED' },
);

export const LoginFailed = Type.Object(
  {
    clientId: Type.Optional(Type.String()),
    reason: Type.String({
      description:
        'machine-readable reason: invalid_credentials, throttled, locked, invalid_second_factor, invalid_recovery_code, invalid_passkey, second_factor_throttled, invalid_proof, unknown_account, replayed_proof',
    }),
    sub: Type.Optional(Type.String({ description: 'opaque account id, when one is known' })),
  },
  { ...open, $id: 'events/E_OAUTH_LOGIN_FAILED' },
);

export const FactorAdded = Type.Object(
  {
    clientId: Type.Optional(Type.String()),
    sub: Type.String({ description: 'opaque account id' }),
    kind: Type.Union([Type.Literal('totp'), Type.Literal('webauthn')]),
  },
  { ...open, $id: 'events/E_OAUTH_FACTOR_ADDED' },
);

export const AccountLocked = Type.Object(
  {
    clientId: Type.Optional(Type.String()),
    sub: Type.Optional(
      Type.String({ description: 'opaque account id; absent when the username is no account' }),
    ),
    lockedUntil: Type.String({ format: 'date-time' }),
    scope: Type.Literal('address', {
      description: 'what is locked: the account from the address the failures came from',
    }),
  },
  { ...open, $id: 'events/E_OAUTH_ACCOUNT_LOCKED' },
);

export const TokenIssued = Type.Object(
  {
    clientId: Type.String(),
    grantType: Type.String(),
    sub: Type.Optional(Type.String()),
  },
  { ...open, $id: 'events/E_OAUTH_TOKEN_ISSUED' },
);

/** Every event name the platform publishes, with its data schema. */
export const EVENT_CATALOG = {
  E_IDV_DOCUMENT_VALIDATE: DocumentValidated,
  E_IDV_FACE_VALIDATE: FaceValidated,
  E_IDV_PERSON_VALIDATE: PersonValidated,
  E_IDV_VERIFIER_CHANGED: VerifierChanged,
  E_IDV_SESSION_CREATED: SessionCreatedEvent,
  E_IDV_SESSION_OPENED: SessionOpenedEvent,
  E_IDV_SESSION_SUBMITTED: SessionSubmittedEvent,
  E_IDV_SESSION_COMPLETED: SessionCompletedEvent,
  E_IDV_SESSION_FAILED: SessionFailedEvent,
  E_IDV_SESSION_EXPIRED: SessionExpiredEvent,
  E_IDV_SESSION_ABANDONED: SessionAbandonedEvent,
  E_IDV_SESSION_CANCELLED: SessionCancelledEvent,
  E_IDV_SESSION_DECLINED: SessionDeclinedEvent,
  E_IDV_VERIFICATION_COMPLETED: VerificationCompleted,
  E_IDV_DATA_ERASED: DataErased,
  E_IDV_REVIEW_OPENED: ReviewOpened,
  E_IDV_REVIEW_DECIDED: ReviewDecided,
  E_IDV_RESUBMISSION_REQUESTED: ResubmissionRequested,
  E_OAUTH_LOGIN_SUCCEEDED: LoginSucceeded,
  E_OAUTH_LOGIN_FAILED: LoginFailed,
  E_OAUTH_ACCOUNT_LOCKED: AccountLocked,
  E_OAUTH_FACTOR_ADDED: FactorAdded,
  E_OAUTH_TOKEN_ISSUED: TokenIssued,
} as const satisfies Record<string, TObject>;

export type EventName = keyof typeof EVENT_CATALOG;

/**
 * Which platform service publishes each event, or 'intake' for an event only callers of the event
 * intake send. The intake refuses the platform's own names (anyone holding a service licence could
 * forge them) unless the operator allows them in WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS. Every new
 * catalog entry has to say here who emits it.
 */
export const EVENT_EMITTERS = {
  E_IDV_DOCUMENT_VALIDATE: 'docverify',
  E_IDV_FACE_VALIDATE: 'docverify',
  E_IDV_PERSON_VALIDATE: 'docverify',
  E_IDV_VERIFIER_CHANGED: 'docverify',
  E_IDV_SESSION_CREATED: 'docverify',
  E_IDV_SESSION_OPENED: 'docverify',
  E_IDV_SESSION_SUBMITTED: 'docverify',
  E_IDV_SESSION_COMPLETED: 'docverify',
  E_IDV_SESSION_FAILED: 'docverify',
  E_IDV_SESSION_EXPIRED: 'docverify',
  E_IDV_SESSION_ABANDONED: 'docverify',
  E_IDV_SESSION_CANCELLED: 'docverify',
  E_IDV_SESSION_DECLINED: 'docverify',
  E_IDV_VERIFICATION_COMPLETED: 'docverify',
  E_IDV_DATA_ERASED: 'docverify',
  E_IDV_REVIEW_OPENED: 'docverify',
  E_IDV_REVIEW_DECIDED: 'docverify',
  E_IDV_RESUBMISSION_REQUESTED: 'docverify',
  E_OAUTH_LOGIN_SUCCEEDED: 'oauth',
  E_OAUTH_LOGIN_FAILED: 'oauth',
  E_OAUTH_ACCOUNT_LOCKED: 'oauth',
  E_OAUTH_FACTOR_ADDED: 'oauth',
  E_OAUTH_TOKEN_ISSUED: 'oauth',
} as const satisfies Record<EventName, 'docverify' | 'oauth' | 'intake'>;

/** The service that emits `name` itself, or undefined when only intake callers send it. */
export function platformEmitter(name: EventName): 'docverify' | 'oauth' | undefined {
  const emitter: string = EVENT_EMITTERS[name];
  return emitter === 'intake' ? undefined : (emitter as 'docverify' | 'oauth');
}

/** The names the platform's own services publish. */
export const PLATFORM_EVENT_NAMES: readonly EventName[] = (
  Object.keys(EVENT_EMITTERS) as EventName[]
).filter((name) => platformEmitter(name) !== undefined);

/**
 * The catalog as the event intake holds callers to it: declared members only, so free-form data
 * (personal data among it) cannot ride along in an undeclared member. Consumers stay open.
 */
export const INTAKE_CATALOG = Object.fromEntries(
  Object.entries(EVENT_CATALOG).map(([name, schema]) => [
    name,
    Type.Object(schema.properties, { additionalProperties: false, $id: `events/intake/${name}` }),
  ]),
) as { [N in EventName]: (typeof EVENT_CATALOG)[N] };
export type EventData<N extends EventName> = Static<(typeof EVENT_CATALOG)[N]>;

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENT_CATALOG, name);
}
