// One attempt of one delivery, whether claimed from the delivery table or just made from an event:
// dropped when its webhook is gone or disabled or its ttl passed, else signed, sent and judged.
// Recording the outcome is the caller's (each path has its own statement); counting and the log
// line come after it, so only recorded attempts are counted.
import type { Logger } from '@idv/observability';
import { judgeAttempt, parseRetryAfter } from '../domain/retryPolicy.ts';
import type { AttemptRecord } from '../store/deliveryQueue.ts';
import type { DispatchWebhook } from '../store/webhookReader.ts';
import type { DispatcherMetrics } from './metrics.ts';
import { sendCallback, type CallbackDeps } from './sendCallback.ts';
import { TargetBusy } from './targetBusy.ts';

export interface AttemptedDelivery {
  id: string;
  eventId: string;
  body: string;
  /** attempts since creation or the last manual redelivery, before this one */
  roundAttempts: number;
  expiresAt: Date | null;
}

/** busy: no call was made (a slot it needs is taken, or its breaker open); look again after pauseMs. */
export type AttemptOutcome =
  { kind: 'busy'; pauseMs: number } | { kind: 'attempted'; record: AttemptRecord; called: boolean };

export class Attempts {
  constructor(
    private readonly callbacks: CallbackDeps,
    private readonly metrics: DispatcherMetrics,
    private readonly logger: Logger,
    private readonly retryBaseMs: number,
  ) {}

  async run(
    delivery: AttemptedDelivery,
    webhook: DispatchWebhook | undefined,
  ): Promise<AttemptOutcome> {
    const at = new Date();
    const skip = !webhook
      ? 'webhook deleted'
      : webhook.disabled
        ? 'webhook disabled'
        : delivery.expiresAt && delivery.expiresAt < at
          ? 'ttl passed before the attempt'
          : undefined;
    if (skip || !webhook) {
      const record: AttemptRecord = {
        at,
        statusCode: null,
        latencyMs: 0,
        outcome: 'failed',
        error: skip ?? null,
      };
      return { kind: 'attempted', called: false, record };
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
        this.metrics.deferred(err.reason);
        return { kind: 'busy', pauseMs: err.pauseMs };
      }
      error = (err as Error).message || String(err);
    }
    const latencyMs = Math.round(performance.now() - started);
    const verdict = judgeAttempt({ statusCode, retryAfterMs }, webhook, {
      attempt: delivery.roundAttempts + 1,
      now: Date.now(),
      expiresAt: delivery.expiresAt,
      retryBaseMs: this.retryBaseMs,
    });
    if (verdict.outcome === 'failed' && !error && statusCode !== null) error = verdict.reason;
    const record: AttemptRecord = {
      at,
      statusCode,
      latencyMs,
      outcome: verdict.outcome,
      error,
      ...(verdict.outcome === 'retry' ? { nextAttemptAt: verdict.at } : {}),
    };
    return { kind: 'attempted', called: true, record };
  }

  /** Counts and logs an attempt once its outcome is recorded. */
  recorded(delivery: AttemptedDelivery, outcome: AttemptOutcome & { kind: 'attempted' }): void {
    const { record, called } = outcome;
    if (called) this.metrics.attempted(record.outcome, record.latencyMs / 1000);
    if (record.outcome !== 'retry') this.metrics.finished(record.outcome);
    // a child logger per attempt costs a bindings serialisation even when info is off
    if (!this.logger.isLevelEnabled('info')) return;
    const fields = called
      ? { statusCode: record.statusCode, outcome: record.outcome, latencyMs: record.latencyMs }
      : { reason: record.error };
    this.logger.info(
      { deliveryId: delivery.id, eventId: delivery.eventId, ...fields },
      called ? 'callback attempted' : 'delivery dropped',
    );
  }
}
