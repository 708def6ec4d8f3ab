// Erasure (DESIGN 2.5): a verification or a session of a community erased by destroying its data
// keys; what remains is a tombstone of ids, counts and digests, never personal data.
import { Type, type Static } from '@sinclair/typebox';

const uuid = Type.String({ format: 'uuid' });

export const ErasureRequest = Type.Union(
  [
    Type.Object({ verificationId: uuid }, { additionalProperties: false }),
    Type.Object({ sessionId: uuid }, { additionalProperties: false }),
  ],
  {
    $id: 'http/ErasureRequest',
    description: 'what to erase: a verification (a /verify result or an async run) or a session',
  },
);
export type ErasureRequest = Static<typeof ErasureRequest>;

export const Tombstone = Type.Object(
  {
    subject: Type.Union([Type.Literal('verification'), Type.Literal('session')]),
    subjectId: uuid,
    communityId: uuid,
    erasedAt: Type.String({ format: 'date-time' }),
    erasedBy: Type.String({ description: 'the licence id (or operator) that asked' }),
    dataKeys: Type.Array(uuid, { description: 'the data keys destroyed' }),
    runs: Type.Array(uuid, { description: "the verification runs erased with it (a session's)" }),
    deleted: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: 'rows deleted, by kind',
    }),
    digests: Type.Array(Type.String({ pattern: '^[0-9a-f]{64}$' }), {
      description: 'SHA-256 of each sealed value deleted: proof of what went, readable by no one',
    }),
  },
  { $id: 'http/Tombstone', additionalProperties: false },
);
export type Tombstone = Static<typeof Tombstone>;

export const ErasureResponse = Type.Object(
  { erased: Type.Literal(true), tombstone: Tombstone },
  { $id: 'http/ErasureResponse', additionalProperties: false },
);
export type ErasureResponse = Static<typeof ErasureResponse>;
