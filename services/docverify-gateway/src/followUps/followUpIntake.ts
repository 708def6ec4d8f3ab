// The gateway's end of a follow-up: every replica consumes the connectors' final answers to pending
// kinds (DOCVERIFY_FOLLOWUPS_QUEUE, FollowUpAnswer) and settles each through settlePendingKind.
// Settling is idempotent: an answer for a kind no longer pending (the other path came first, or a
// redelivery) changes nothing and emits nothing. An answer can come before its run is parked (the
// run still waits for its other kinds, a sync /verify has not stored it yet): it waits in
// `<queue>.wait` and is tried again every FOLLOW_UP_ANSWER_RETRY_MS, for PARK_WAIT_MS at most.
import { PoisonMessageError, RequeueMessageError, type Broker, type Consumer } from '@idv/broker';
import {
  FOLLOW_UP_ANSWER_RETRY_MS,
  followUpAnswersWaitQueue,
  FollowUpAnswer,
  validate,
} from '@idv/contracts';
import type { Logger } from '@idv/observability';
import { settlePendingKind, type SettleDeps } from './pending.ts';

export interface FollowUpIntakeDeps extends SettleDeps {
  broker: Broker;
  logger: Logger;
}

/** Follow-ups settled at once per replica: each is a few queries and one transaction. */
const FOLLOW_UP_PREFETCH = 16;
/** How long an answer waits for its run to be parked: past the longest run deadline. */
export const PARK_WAIT_MS = 3_900_000;

export async function consumeFollowUps(deps: FollowUpIntakeDeps, queue: string): Promise<Consumer> {
  const log = deps.logger.child({ component: 'follow-ups' });
  const waitQueue = followUpAnswersWaitQueue(queue);
  const consumer = await deps.broker.consume(
    queue,
    async (body) => {
      const checked = validate(FollowUpAnswer, body);
      if (!checked.ok)
        throw new PoisonMessageError(
          `not a follow-up answer: ${checked.issues[0]?.path} ${checked.issues[0]?.message}`,
        );
      const answer = checked.value;
      const about = { verificationId: answer.verificationId, kind: answer.kind, via: answer.via };
      const run = await deps.runs.get(answer.verificationId);
      if (!run || run.status === 'processing') {
        if (Date.now() - answer.answeredAt > PARK_WAIT_MS)
          return void log.warn(about, 'follow-up for a run never parked: dropped');
        // its run is not parked pending yet: again after the retry delay
        return deps.broker.publish('', waitQueue, answer).catch((err: unknown) => {
          throw new RequeueMessageError(`follow-up not put to wait: ${(err as Error).message}`);
        });
      }
      // the verifier the kind waits for must be the one answering
      if (run.pending?.[answer.kind]?.verifier !== answer.verifierTag)
        return void log.info(about, 'follow-up for a kind not pending: ignored');
      const settled = await settlePendingKind(
        deps,
        answer.verificationId,
        answer.kind,
        answer.reply,
      );
      log.info({ ...about, settled }, 'follow-up settled');
    },
    { prefetch: FOLLOW_UP_PREFETCH, queueType: 'quorum' },
  );
  await deps.broker.declareDelayQueue(waitQueue, queue, FOLLOW_UP_ANSWER_RETRY_MS);
  return consumer;
}
