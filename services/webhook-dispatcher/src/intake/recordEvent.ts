// On an event from the broker: find the matching webhooks and attempt each callback at once, then
// record every delivery with its outcome before the ack. A delivery whose target is busy, and every
// delivery of a redelivered event, is recorded pending for the delivery loop instead. A database
// outage is waited out (the message stays unacked) rather than dead-lettered; a dispatcher stopping
// meanwhile puts the event back in its queue for the next one.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { RequeueMessageError } from '@idv/broker';
import type { EventEnvelope, WebhookCallbackBody } from '@idv/contracts';
import type { Logger } from '@idv/observability';
import type { AttemptOutcome, Attempts } from '../delivery/attempt.ts';
import { eventMatches } from '../domain/matchEvent.ts';
import { WebhookGone, type DeliveryQueue, type NewDelivery } from '../store/deliveryQueue.ts';
import type { WebhookCache } from '../store/webhookCache.ts';
import type { DispatchWebhook } from '../store/webhookReader.ts';

export interface RecordEventDeps {
  webhooks: WebhookCache;
  queue: DeliveryQueue;
  attempts: Attempts;
  logger: Logger;
  recorded: (eventAgeSeconds: number) => void;
  /** deliveries were added due now: start them */
  wake: () => void;
  /** a delivery was added due later (its target was busy, or a retry): start it then */
  wakeAt: (at: Date) => void;
  /** aborted when the dispatcher stops: a pause between database retries ends at once */
  stopping: AbortSignal;
}

/**
 * The delivery id (webhook-id of every attempt) follows from the event and the webhook, so a
 * callback sent before a crash and sent again for the redelivered event carries the same id and
 * the receiver can tell it is one delivery.
 */
export function deliveryId(eventId: string, webhookId: string): string {
  const digest = createHash('sha256').update(`${eventId}\n${webhookId}`).digest('hex');
  return `msg_${digest.slice(0, 32)}`;
}

export function deliveryFor(event: EventEnvelope, webhook: DispatchWebhook): NewDelivery {
  const body: WebhookCallbackBody = {
    webhookId: webhook.id,
    eventId: event.eventId,
    eventName: event.eventName,
    version: event.version,
    tenantId: event.tenantId,
    communityId: event.communityId,
    ts: event.ts,
    data: event.data,
    origin: event.origin ?? 'platform',
  };
  return {
    id: deliveryId(event.eventId, webhook.id),
    webhookId: webhook.id,
    eventId: event.eventId,
    eventName: event.eventName,
    body: JSON.stringify(body),
    eventAt: new Date(event.ts),
    expiresAt: webhook.ttl > 0 ? new Date(event.ts + webhook.ttl * 60_000) : null,
  };
}

export function recordEvent(deps: RecordEventDeps) {
  /** The event goes back to its queue unacked: the next dispatcher takes it as redelivered. */
  const putBack = (err: unknown, event: EventEnvelope): RequeueMessageError => {
    deps.logger.warn(
      { err: (err as Error).message, eventId: event.eventId },
      'stopping before the deliveries were recorded; the event goes back to its queue',
    );
    return new RequeueMessageError('the dispatcher stopped before recording the event', {
      cause: err,
    });
  };

  /** Runs `step` until it succeeds; while stopping it gives up and puts the event back. */
  const retrying = async <T>(step: () => Promise<T>, event: EventEnvelope): Promise<T> => {
    for (let pause = 250; ; pause = Math.min(pause * 2, 5000)) {
      try {
        return await step();
      } catch (err) {
        if (deps.stopping.aborted) throw putBack(err, event);
        deps.logger.warn(
          { err: (err as Error).message, eventId: event.eventId },
          'could not record deliveries; retrying',
        );
        await sleep(pause, undefined, { signal: deps.stopping }).catch(() => undefined);
        if (deps.stopping.aborted) throw putBack(err, event);
      }
    }
  };

  /** Writes one delivery (retrying); false when its webhook is gone, so there is none to write. */
  const record = (write: () => Promise<void>, delivery: NewDelivery, event: EventEnvelope) =>
    retrying(
      () =>
        write().then(
          () => true,
          (err: unknown) => {
            if (!(err instanceof WebhookGone)) throw err;
            deps.logger.info(
              { deliveryId: delivery.id, eventId: event.eventId },
              'webhook deleted before its delivery was recorded',
            );
            return false;
          },
        ),
      event,
    );

  /** One delivery attempted now; recorded with its outcome, or pending when its target was busy. */
  const attemptNow = async (
    delivery: NewDelivery,
    webhook: DispatchWebhook,
    event: EventEnvelope,
  ): Promise<void> => {
    const attempted = { ...delivery, roundAttempts: 0 };
    const outcome: AttemptOutcome = await deps.attempts.run(attempted, webhook);
    if (outcome.kind === 'busy') {
      const at = new Date(Date.now() + outcome.pauseMs);
      if (await record(() => deps.queue.add([{ ...delivery, nextAttemptAt: at }]), delivery, event))
        deps.wakeAt(at);
      return;
    }
    const write = () => deps.queue.addAttempted(delivery, outcome.record);
    if (!(await record(write, delivery, event))) return;
    deps.attempts.recorded(attempted, outcome);
    if (outcome.record.nextAttemptAt) deps.wakeAt(outcome.record.nextAttemptAt);
  };

  return async (event: EventEnvelope, context?: { redelivered: boolean }) => {
    const matching = await retrying(async () => {
      const all = await deps.webhooks.ofCommunity(event.tenantId, event.communityId);
      return all.filter((webhook) => eventMatches(event, webhook));
    }, event);
    const deliveries = matching.map((webhook) => deliveryFor(event, webhook));
    if (context?.redelivered) {
      // this event may have been handled before a crash: its rows (if any) decide what is left
      const added = await Promise.all(
        deliveries.map((delivery) => record(() => deps.queue.add([delivery]), delivery, event)),
      );
      if (added.includes(true)) deps.wake();
    } else {
      // every attempt settles before the event is acked or put back, so none outlives the handler
      const settled = await Promise.allSettled(
        deliveries.map((delivery, i) => attemptNow(delivery, matching[i]!, event)),
      );
      const failures = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      if (failures.length > 0)
        throw failures.find((err) => err instanceof RequeueMessageError) ?? failures[0];
    }
    deps.recorded((Date.now() - event.ts) / 1000);
  };
}
