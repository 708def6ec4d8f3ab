// Request-reply between the docverify gateway and a connector worker on idv.connector.<type>.
// The verifier config and the document (secrets and PII) travel sealed under MASTER_KEY with the
// jobId as context, so nothing sensitive rests in plain text on the broker's disk.
import { Type, type Static } from '@sinclair/typebox';
import { VerificationKindSchema } from '../connectors/kinds.ts';
import { ConnectorTypeSchema } from '../connectors/types/index.ts';
import { NormalisedResult } from '../connectors/results.ts';
import { VerifierLimits } from '../connectors/limits.ts';

/** What `ConnectorJob.sealed` opens to. */
export const ConnectorJobSecrets = Type.Object(
  {
    config: Type.Record(Type.String(), Type.Unknown(), {
      description: "the verifier's config, secrets included",
    }),
    document: Type.Record(Type.String(), Type.Unknown(), {
      description: 'the document of the verification request',
    }),
  },
  { $id: 'messages/connectorJobSecrets', additionalProperties: false },
);
export type ConnectorJobSecrets = Static<typeof ConnectorJobSecrets>;

export const ConnectorJob = Type.Object(
  {
    jobId: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'unique per attempt; replies carry it back',
    }),
    kind: VerificationKindSchema,
    verifier: Type.Object(
      {
        id: Type.String(),
        tag: Type.String(),
        type: ConnectorTypeSchema,
        connectorUrl: Type.String({ description: 'base URL of the outside provider' }),
        limits: Type.Optional(VerifierLimits),
      },
      { additionalProperties: false },
    ),
    sealed: Type.String({
      description: 'ConnectorJobSecrets as JSON, sealed with MASTER_KEY, context = jobId',
    }),
    options: Type.Object(
      {
        returnRawData: Type.Boolean({ default: false }),
        debug: Type.Boolean({ default: false }),
      },
      { additionalProperties: false },
    ),
    deadline: Type.Integer({
      minimum: 0,
      description:
        'epoch ms after which the gateway no longer waits: the broker drops the job then, and a worker starts no provider call that cannot end before it',
    }),
    sentAt: Type.Integer({
      minimum: 0,
      description: 'epoch ms the gateway sent the job; the worker measures queue wait from it',
    }),
    context: Type.Object(
      { tenantId: Type.String(), communityId: Type.String(), dvcID: Type.String() },
      { additionalProperties: false },
    ),
    imageUrlHosts: Type.Optional(
      Type.Array(Type.String({ maxLength: 300 }), {
        maxItems: 1000,
        description:
          "the community's image URL hosts (exact, or *.domain): a document whose image URL names another host is refused before any call; absent: any host the SSRF guard allows",
      }),
    ),
    followUp: Type.Optional(
      Type.Object(
        {
          verificationId: Type.String({ description: 'the run a later final answer settles' }),
          answerTo: Type.String({
            description: 'queue of the final answers (docverify.followups, FollowUpAnswer)',
          }),
          deadline: Type.Integer({ minimum: 0, description: 'epoch ms the follow-up ends by' }),
          callbackUrl: Type.Optional(
            Type.String({ description: 'where the provider may call back (signed)' }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'messages/connectorJob', additionalProperties: false },
);
export type ConnectorJob = Static<typeof ConnectorJob>;

export const ConnectorOutcome = Type.Union([
  Type.Literal('completed'),
  Type.Literal('provider_unavailable'),
  Type.Literal('invalid_request'),
  Type.Literal('busy'),
]);

export const ConnectorReply = Type.Object(
  {
    jobId: Type.String(),
    kind: VerificationKindSchema,
    verifierTag: Type.String(),
    outcome: Type.Union([ConnectorOutcome], {
      description:
        'completed: the provider answered (verified or not); provider_unavailable: the provider failed (timeout, 5xx, unreachable, malformed) or its breaker is open, so the gateway tries the next verifier; invalid_request: we or the provider refused the input; busy: the platform could not start the call in time (deadline, verifier limits), which says nothing about the provider',
    }),
    authority: Type.String({ description: 'who answered, e.g. the provider kind' }),
    result: Type.Optional(NormalisedResult),
    rawSealed: Type.Optional(
      Type.String({
        description: "the provider's raw answer, sealed like the job, only when returnRawData",
      }),
    ),
    error: Type.Optional(
      Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false }),
    ),
    latencyMs: Type.Number({ minimum: 0, description: 'ms the worker spent on the job' }),
    queuedMs: Type.Number({
      minimum: 0,
      description:
        'ms between the gateway sending the job and its provider call starting (or the refusal)',
    }),
    retryAfterMs: Type.Optional(
      Type.Integer({ minimum: 0, description: 'busy: when a new try could expect a slot' }),
    ),
  },
  { $id: 'messages/connectorReply', additionalProperties: false },
);
export type ConnectorReply = Static<typeof ConnectorReply>;
