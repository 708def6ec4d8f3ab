// The message of a verification run on the gateways' runs queue (docverify.runs): it names the run
// (its request is sealed in the database) and its community, which fair share counts. A run that
// must wait (over its community's share, or backing off before a retry) is parked in a wait queue
// of the runs queue, each of one fixed TTL, and dead-letters back into the runs queue.
import { Type, type Static } from '@sinclair/typebox';

export const VerificationRunMessage = Type.Object(
  {
    runId: Type.String({
      pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    }),
    communityId: Type.Optional(
      Type.String({
        maxLength: 100,
        description: "the run's community; absent (a sweep's re-send), read from the run",
      }),
    ),
    notBefore: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'epoch ms: a retry backing off is parked again until then',
      }),
    ),
  },
  { $id: 'messages/verificationRun', additionalProperties: false },
);
export type VerificationRunMessage = Static<typeof VerificationRunMessage>;

/**
 * The wait queues of a runs queue, one per fixed TTL (x-message-ttl, so no message waits behind a
 * longer one): a backoff takes the longest tier that fits, again until its `notBefore`; a run over
 * its community's share waits the shortest.
 */
export const RUN_WAIT_TIERS_MS = [1000, 5000, 30_000] as const;
export const runWaitQueue = (runs: string, tierMs: number): string =>
  `${runs}.wait.${tierMs / 1000}s`;
