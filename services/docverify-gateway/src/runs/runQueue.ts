// The durable work queue of verification runs (quorum, docverify.runs), consumed by every gateway
// replica: a message names a run (its request is sealed in the database) and its community, and is
// acked once the run is stored or parked, so a gateway killed mid-run leaves it to be re-run by
// another. A run that must wait is parked in a wait queue of the runs queue (fixed TTL, dead-letters
// back into it). A run whose message the broker never confirmed is sent again by the sweep.
import { randomUUID } from 'node:crypto';
import { PoisonMessageError, type Broker, type Consumer } from '@idv/broker';
import { RUN_WAIT_TIERS_MS, runWaitQueue, validate, VerificationRunMessage } from '@idv/contracts';
import type { Logger } from '@idv/observability';
import type { RunStore } from './runStore.ts';

export class RunQueue {
  constructor(
    private readonly broker: Broker,
    private readonly runs: RunStore,
    readonly queue: string,
    private readonly logger: Logger,
  ) {}

  /** Sends the run to the queue; a failure is logged and left to the sweep, never thrown. */
  async enqueue(runId: string, communityId?: string): Promise<boolean> {
    try {
      const message: VerificationRunMessage = communityId ? { runId, communityId } : { runId };
      await this.broker.publish('', this.queue, message, { messageId: randomUUID() });
      await this.runs.markDispatched(runId);
      return true;
    } catch (err) {
      this.logger.warn({ runId, reason: (err as Error).message }, 'run not dispatched yet');
      return false;
    }
  }

  /** Parks `message` for `tierMs` (one of RUN_WAIT_TIERS_MS); it comes back to the queue by itself. */
  park(message: VerificationRunMessage, tierMs: number): Promise<void> {
    return this.broker.publish('', runWaitQueue(this.queue, tierMs), message);
  }

  /** Consumes runs, `prefetch` at once, each handled by `handle` before its ack. */
  async consume(
    handle: (message: VerificationRunMessage) => Promise<void>,
    prefetch: number,
  ): Promise<Consumer> {
    // the wait queues first: a run may be parked as soon as consuming starts
    for (const tierMs of RUN_WAIT_TIERS_MS)
      await this.broker.declareDelayQueue(runWaitQueue(this.queue, tierMs), this.queue, tierMs);
    return this.broker.consume(
      this.queue,
      async (body) => {
        const checked = validate(VerificationRunMessage, body);
        if (!checked.ok) throw new PoisonMessageError('a run message names no run');
        await handle(checked.value);
      },
      { prefetch, queueType: 'quorum' },
    );
  }
}
