// The gateway's end of a follow-up: every replica consumes the connectors' final answers to pending
// kinds (DOCVERIFY_FOLLOWUPS_QUEUE, FollowUpAnswer) and settles each through settlePendingKind.
// Settling is idempotent: an answer for a kind no longer pending (the other path came first, or a
// redelivery) changes nothing and emits nothing.
import { PoisonMessageError, type Broker, type Consumer } from '@idv/broker';
import { FollowUpAnswer, validate } from '@idv/contracts';
import type { Logger } from '@idv/observability';
import { settlePendingKind, type SettleDeps } from './pending.ts';

export interface FollowUpIntakeDeps extends SettleDeps {
  broker: Broker;
  logger: Logger;
}

/** Follow-ups settled at once per replica: each is a few queries and one transaction. */
const FOLLOW_UP_PREFETCH = 16;

export function consumeFollowUps(deps: FollowUpIntakeDeps, queue: string): Promise<Consumer> {
  const log = deps.logger.child({ component: 'follow-ups' });
  return deps.broker.consume(
    queue,
    async (body) => {
      const checked = validate(FollowUpAnswer, body);
      if (!checked.ok)
        throw new PoisonMessageError(`not a follow-up answer: ${checked.issues[0]?.path} ${checked.issues[0]?.message}`);
      const answer = checked.value;
      const run = await deps.runs.get(answer.verificationId);
      // the verifier the kind waits for must be the one answering
      if (run?.pending?.[answer.kind]?.verifier !== answer.verifierTag) {
        log.info({ verificationId: answer.verificationId, kind: answer.kind, via: answer.via }, 'follow-up for a kind not pending: ignored');
        return;
      }
      const settled = await settlePendingKind(deps, answer.verificationId, answer.kind, answer.reply);
      log.info({ verificationId: answer.verificationId, kind: answer.kind, via: answer.via, settled }, 'follow-up settled');
    },
    { prefetch: FOLLOW_UP_PREFETCH, queueType: 'quorum' },
  ); // prettier-ignore
}
