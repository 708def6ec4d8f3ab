// Verifiers (spec 2.3): create, update and the record the API returns.
import { Type, type Static } from '@sinclair/typebox';
import { ConnectorTypeSchema } from '../connectors/types/index.ts';
import { VerifierLimits } from '../connectors/limits.ts';

/** Letters, digits, _ and -; never shaped like a UUID, which would be read as an id. */
export const TAG_PATTERN =
  '^(?![0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$)[A-Za-z0-9_-]{1,64}$';

export const VerifierCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    tag: Type.String({
      pattern: TAG_PATTERN,
      description: 'letters, digits, _ and -; cannot change',
    }),
    type: ConnectorTypeSchema,
    connectorUrl: Type.String({
      format: 'uri',
      maxLength: 2000,
      description: 'RFC 3986 URI of the provider',
    }),
    config: Type.Record(Type.String(), Type.Unknown(), {
      description: 'shape per type (contracts/connectors/types/<type>.ts); may be {}',
    }),
    limits: Type.Optional(VerifierLimits),
  },
  { $id: 'http/verifierCreate', additionalProperties: false },
);
export type VerifierCreate = Static<typeof VerifierCreate>;

export const VerifierPatch = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    connectorUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2000 })),
    config: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'replaces the whole config' }),
    ),
    limits: Type.Optional(VerifierLimits),
  },
  { $id: 'http/verifierPatch', additionalProperties: false },
);
export type VerifierPatch = Static<typeof VerifierPatch>;

export const Verifier = Type.Object(
  {
    id: Type.String(),
    communityId: Type.String(),
    name: Type.String(),
    tag: Type.String(),
    type: ConnectorTypeSchema,
    connectorUrl: Type.String(),
    config: Type.Record(Type.String(), Type.Unknown(), {
      description: 'secret members read "********" unless the licence is a system licence',
    }),
    limits: Type.Optional(VerifierLimits),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'http/verifier' },
);
export type Verifier = Static<typeof Verifier>;
