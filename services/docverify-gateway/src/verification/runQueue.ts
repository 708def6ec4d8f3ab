// The durable work queue of verification runs (quorum, docverify.runs), consumed by every gateway
// replica: a message names a run only (its request is sealed in the database), and is acked once
// the run is stored, so a gateway killed mid-run leaves it to be re-run by another. A run whose
// message the broker never confirmed is sent again by the sweep (undispatched runs).
import { randomUUID } from 'node:crypto';
import { PoisonMessageError, type Broker, type Consumer } from '@idv/broker';
import type { Logger } from '@idv/observability';
import { UUID } from '@idv/platform';
import type { RunStore } from '../store/runs.ts';

export class RunQueue {
  constructor(
    private readonly broker: Broker,
    private readonly runs: RunStore,
    readonly queue: string,
    private readonly logger: Logger,
  ) {}

  /** Sends the run to the queue; a failure is logged and left to the sweep, never thrown. */
  async enqueue(runId: string): Promise<boolean> {
    try {
      await this.broker.publish('', this.queue, { runId }, { messageId: randomUUID() });
      await this.runs.markDispatched(runId);
      return true;
    } catch (err) {
      this.logger.warn({ runId, reason: (err as Error).message }, 'run not dispatched yet');
      return false;
    }
  }

  /** Consumes runs, `prefetch` at once, each handled by `process` before its ack. */
  consume(process: (runId: string) => Promise<void>, prefetch: number): Promise<Consumer> {
    return this.broker.consume(
      this.queue,
      async (body) => {
        const runId = (body as { runId?: unknown } | null)?.runId;
        if (typeof runId !== 'string' || !UUID.test(runId))
          throw new PoisonMessageError('a run message names no run');
        await process(runId);
      },
      { prefetch, queueType: 'quorum' },
    );
  }
}
