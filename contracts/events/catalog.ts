// The catalog of domain events: name -> data schema (version 1). No raw PII in any event: people
// appear only as opaque ids. Consumers accept further members, so producers may add fields.
import { Type, type Static, type TObject } from '@sinclair/typebox';

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

export const LoginSucceeded = Type.Object(
  {
    clientId: Type.String(),
    sub: Type.String({ description: 'opaque account id' }),
    method: Type.Union([Type.Literal('password'), Type.Literal('proof'), Type.Literal('eam')]),
  },
  { ...open, $id: 'events/E_OAUTH_LOGIN_SUCCEEDED' },
);

export const LoginFailed = Type.Object(
  {
    clientId: Type.Optional(Type.String()),
    reason: Type.String({
      description: 'machine-readable reason, e.g. invalid_credentials, invalid_proof',
    }),
  },
  { ...open, $id: 'events/E_OAUTH_LOGIN_FAILED' },
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
  E_OAUTH_LOGIN_SUCCEEDED: LoginSucceeded,
  E_OAUTH_LOGIN_FAILED: LoginFailed,
  E_OAUTH_TOKEN_ISSUED: TokenIssued,
} as const satisfies Record<string, TObject>;

export type EventName = keyof typeof EVENT_CATALOG;
export type EventData<N extends EventName> = Static<(typeof EVENT_CATALOG)[N]>;

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENT_CATALOG, name);
}
