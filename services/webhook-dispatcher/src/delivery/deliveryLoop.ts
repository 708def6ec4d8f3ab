// Works the delivery table: claims due rows up to the in-flight limit, attempts each, records the
// attempt and the next step. Retry waits are rows with a future next_attempt_at, not timers.
import type { Logger } from '@idv/observability';
import { judgeAttempt, parseRetryAfter } from '../domain/retryPolicy.ts';
import type { ClaimedDelivery, DeliveryQueue } from '../store/deliveryQueue.ts';
import type { WebhookCache } from '../store/webhookCache.ts';
import type { DispatcherMetrics } from './metrics.ts';
import { sendCallback, type CallbackDeps } from './sendCallback.ts';
import { TargetBusy } from './targetBreakers.ts';

export interface LoopOptions {
  maxInFlight: number;
  pollMs: number;
  retryBaseMs: number;
}

export class DeliveryLoop {
  private inFlight = 0;
  private running = false;
  private wakeUp: (() => void) | undefined;
  /** a wake that came while the loop was busy claiming: the next pause returns at once */
  private woken = false;
  /** the last claim filled all the room: more rows are probably due */
  private backlog = false;
  private finished: Promise<void> | undefined;

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly webhooks: WebhookCache,
    private readonly callbacks: CallbackDeps,
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

  async stop(): Promise<void> {
    this.running = false;
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
    // a child logger per attempt costs a bindings serialisation even when info is off
    const log = (fields: Record<string, unknown>, message: string): void => {
      if (this.logger.isLevelEnabled('info'))
        this.logger.info(
          { deliveryId: delivery.id, eventId: delivery.eventId, ...fields },
          message,
        );
    };
    const webhook = await this.webhooks.byId(delivery.webhookId);
    const at = new Date();
    const skip = !webhook
      ? 'webhook deleted'
      : webhook.disabled
        ? 'webhook disabled'
        : delivery.expiresAt && delivery.expiresAt < at
          ? 'ttl passed before the attempt'
          : undefined;
    if (skip || !webhook) {
      await this.queue.record(delivery, {
        at,
        statusCode: null,
        latencyMs: 0,
        outcome: 'failed',
        error: skip ?? null,
      });
      this.metrics.finished('failed');
      log({ reason: skip }, 'delivery dropped');
      return;
    }
    const started = performance.now();
    let statusCode: number | null = null;
    let retryAfterMs: number | undefined;
    let error: string | null = null;
    try {
      const response = await sendCallback(
        webhook,
        { id: delivery.id, body: delivery.body },
        this.callbacks,
      );
      statusCode = response.status;
      retryAfterMs = parseRetryAfter(response.headers['retry-after'], Date.now());
    } catch (err) {
      if (err instanceof TargetBusy) {
        await this.queue.release(delivery.id, new Date(Date.now() + err.pauseMs));
        return;
      }
      error = (err as Error).message || String(err);
    }
    const latencyMs = Math.round(performance.now() - started);
    const verdict = judgeAttempt({ statusCode, retryAfterMs }, webhook, {
      attempt: delivery.roundAttempts + 1,
      now: Date.now(),
      expiresAt: delivery.expiresAt,
      retryBaseMs: this.options.retryBaseMs,
    });
    if (verdict.outcome === 'failed' && !error && statusCode !== null) error = verdict.reason;
    await this.queue.record(delivery, {
      at,
      statusCode,
      latencyMs,
      outcome: verdict.outcome,
      error,
      ...(verdict.outcome === 'retry' ? { nextAttemptAt: verdict.at } : {}),
    });
    this.metrics.attempted(verdict.outcome, latencyMs / 1000);
    if (verdict.outcome !== 'retry') this.metrics.finished(verdict.outcome);
    log({ statusCode, outcome: verdict.outcome, latencyMs }, 'callback attempted');
  }
}
