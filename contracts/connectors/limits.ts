// What an operator caps a verifier's provider calls at: its contracted concurrency and rate.
import { Type, type Static } from '@sinclair/typebox';

export const VerifierLimits = Type.Object(
  {
    maxConcurrent: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000,
        description: 'provider calls in flight at once, per connector worker process',
      }),
    ),
    maxPerSecond: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 100_000,
        description: 'provider calls started per second, per connector worker process',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'calls beyond a cap wait in the worker while they can still end before their deadline; the rest are answered busy at once',
  },
);
export type VerifierLimits = Static<typeof VerifierLimits>;
