// Pending connector answers followed to the end. A worker whose provider answered "not final yet"
// keeps a FollowUpJob on its own queues (idv.connector.<type>.followup, waiting in between on
// ….followup.wait.<n>s) and polls; a provider callback reaches the gateway, which hands its body to the
// same queue. The final answer goes to the gateway as a FollowUpAnswer (docverify.followups).
import { Type, type Static } from '@sinclair/typebox';
import { VerificationKindSchema } from '../connectors/kinds.ts';
import { NormalisedResult } from '../connectors/results.ts';
import { ConnectorTypeSchema } from '../connectors/types/index.ts';

/** What `FollowUpJob.sealed` opens to (context = followUpId). */
export const FollowUpSecrets = Type.Object(
  {
    config: Type.Record(Type.String(), Type.Unknown(), { description: "the verifier's config" }),
    reference: Type.String({ description: "the provider's reference of the pending answer" }),
  },
  { $id: 'messages/followUpSecrets', additionalProperties: false },
);
export type FollowUpSecrets = Static<typeof FollowUpSecrets>;

export const FollowUpJob = Type.Object(
  {
    followUpId: Type.String({ minLength: 1, maxLength: 100 }),
    verificationId: Type.String(),
    kind: VerificationKindSchema,
    verifier: Type.Object(
      {
        id: Type.String(),
        tag: Type.String(),
        type: ConnectorTypeSchema,
        connectorUrl: Type.String(),
      },
      { additionalProperties: false },
    ),
    sealed: Type.String({ description: 'FollowUpSecrets, sealed with MASTER_KEY' }),
    answerTo: Type.String({ description: 'queue of the FollowUpAnswer' }),
    how: Type.Union([Type.Literal('poll'), Type.Literal('callback')]),
    deadline: Type.Integer({ minimum: 0, description: 'epoch ms: then it settles inconclusive' }),
    pollAt: Type.Integer({ minimum: 0, description: 'epoch ms of the next poll' }),
    attempt: Type.Integer({ minimum: 0, description: 'polls made so far' }),
    callback: Type.Optional(
      Type.Unknown({ description: "the provider's callback body, authenticated by the gateway" }),
    ),
  },
  { $id: 'messages/followUpJob', additionalProperties: false },
);
export type FollowUpJob = Static<typeof FollowUpJob>;

export const FollowUpAnswer = Type.Object(
  {
    verificationId: Type.String(),
    kind: VerificationKindSchema,
    verifierTag: Type.String(),
    via: Type.Union([Type.Literal('poll'), Type.Literal('callback'), Type.Literal('deadline')]),
    answeredAt: Type.Integer({
      minimum: 0,
      description:
        'epoch ms of the answer: one that comes before its run is parked waits (docverify.followups.wait) for a while',
    }),
    reply: Type.Object(
      {
        outcome: Type.Literal('completed'),
        authority: Type.String(),
        result: NormalisedResult,
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'messages/followUpAnswer', additionalProperties: false },
);
export type FollowUpAnswer = Static<typeof FollowUpAnswer>;
