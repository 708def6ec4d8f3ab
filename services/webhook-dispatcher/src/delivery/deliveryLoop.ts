// Works the delivery table: claims due rows (retries, deliveries whose target was busy, redelivered
// events, manual redeliveries, a dead dispatcher's leases) up to the in-flight limit, attempts each,
// records the attempt and the next step; a new event's first attempts are made at intake. Retry
// waits are rows with a future next_attempt_at; one timer wakes the loop at the earliest it knows.
import type { Logger } from '@idv/observability';
import type { ClaimedDelivery, DeliveryQueue } from '../store/deliveryQueue.ts';
import type { WebhookCache } from '../store/webhookCache.ts';
import type { Attempts } from './attempt.ts';
import type { DispatcherMetrics } from './metrics.ts';

export interface LoopOptions {
  maxInFlight: number;
  pollMs: number;
}

/** How long after a row's due time its alarm rings. */
const ALARM_MARGIN_MS = 5;

export class DeliveryLoop {
  private inFlight = 0;
  private running = false;
  private wakeUp: (() => void) | undefined;
  /** a wake that came while the loop was busy claiming: the next pause returns at once */
  private woken = false;
  /** the last claim filled all the room: more rows are probably due */
  private backlog = false;
  private finished: Promise<void> | undefined;
  /** the earliest due time announced with wakeAt, and its timer */
  private alarm: { at: number; timer: NodeJS.Timeout } | undefined;

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly webhooks: WebhookCache,
    private readonly attempts: Attempts,
    private readonly metrics: DispatcherMetrics,
    private readonly logger: Logger,
    private readonly options: LoopOptions,
  ) {}

  start(): void {
    this.running = true;
    this.finished = this.run();
  }

  /** New work may be due (an event was recorded, a redelivery asked for, a slot freed). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * A row of ours comes due at `at` (a retry, a delivery whose target was busy): look then rather
   * than at the next poll. One timer, for the earliest such time.
   */
  wakeAt(at: Date): void {
    const due = at.getTime();
    if (!this.running || (this.alarm && this.alarm.at <= due)) return;
    clearTimeout(this.alarm?.timer);
    // a few ms past the due time: Node's timers may fire a millisecond early by Date.now(), and
    // a claim that ran before the row's next_attempt_at (by the database's clock) found nothing
    // and left the row to the next poll (seen: a retry missed under load, WEBHOOK_POLL_MS away)
    const timer = setTimeout(
      () => {
        this.alarm = undefined;
        this.wake();
      },
      Math.max(0, due - Date.now()) + ALARM_MARGIN_MS,
    );
    this.alarm = { at: due, timer };
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.alarm?.timer);
    this.alarm = undefined;
    this.wake();
    await this.finished;
  }

  private pause(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  private async run(): Promise<void> {
    while (this.running) {
      const room = this.options.maxInFlight - this.inFlight;
      // while due rows are waiting, claim once a quarter of the room is free: one statement for
      // many rows rather than one per freed slot
      const enough = this.backlog ? Math.max(1, Math.floor(this.options.maxInFlight / 4)) : 1;
      let claimed: ClaimedDelivery[] = [];
      if (room >= enough) {
        // rows recorded from here on are seen by this claim or wake the next pause
        this.woken = false;
        try {
          claimed = await this.queue.claim(room);
          this.backlog = claimed.length === room;
        } catch (err) {
          this.logger.warn({ err: (err as Error).message }, 'could not claim deliveries');
        }
      }
      for (const delivery of claimed) this.spawn(delivery);
      if (room < enough || claimed.length < room) await this.pause(this.options.pollMs);
    }
    while (this.inFlight > 0) await this.pause(50);
  }

  private spawn(delivery: ClaimedDelivery): void {
    this.inFlight += 1;
    this.metrics.lagged((Date.now() - delivery.nextAttemptAt.getTime()) / 1000);
    this.attempt(delivery)
      .catch((err: unknown) =>
        // the lease runs out and the row is taken again: nothing is lost
        this.logger.error(
          { err: (err as Error).message, deliveryId: delivery.id },
          'attempt not recorded',
        ),
      )
      .finally(() => {
        this.inFlight -= 1;
        this.wake();
      });
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const outcome = await this.attempts.run(delivery, await this.webhooks.byId(delivery.webhookId));
    if (outcome.kind === 'busy') {
      const at = new Date(Date.now() + outcome.pauseMs);
      await this.queue.release(delivery.id, at);
      this.wakeAt(at);
      return;
    }
    await this.queue.record(delivery, outcome.record);
    this.attempts.recorded(delivery, outcome);
    if (outcome.record.nextAttemptAt) this.wakeAt(outcome.record.nextAttemptAt);
  }
}
