// On an event from the broker: find the matching webhooks and record one delivery each, before the
// ack. A database outage is waited out (the message stays unacked) rather than dead-lettered.
import { randomUUID } from 'node:crypto';
import type { EventEnvelope, WebhookCallbackBody } from '@idv/contracts';
import type { Logger } from '@idv/observability';
import { eventMatches } from '../domain/matchEvent.ts';
import type { DeliveryQueue, NewDelivery } from '../store/deliveryQueue.ts';
import type { WebhookCache } from '../store/webhookCache.ts';
import type { DispatchWebhook } from '../store/webhookReader.ts';

export interface RecordEventDeps {
  webhooks: WebhookCache;
  queue: DeliveryQueue;
  logger: Logger;
  recorded: (eventAgeSeconds: number) => void;
  /** deliveries were added: start them */
  wake: () => void;
  stopping: () => boolean;
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
  };
  return {
    id: `msg_${randomUUID().replaceAll('-', '')}`,
    webhookId: webhook.id,
    eventId: event.eventId,
    eventName: event.eventName,
    body: JSON.stringify(body),
    eventAt: new Date(event.ts),
    expiresAt: webhook.ttl > 0 ? new Date(event.ts + webhook.ttl * 60_000) : null,
  };
}

export function recordEvent(deps: RecordEventDeps) {
  return async (event: EventEnvelope): Promise<void> => {
    for (let pause = 250; ; pause = Math.min(pause * 2, 5000)) {
      try {
        const all = await deps.webhooks.ofCommunity(event.tenantId, event.communityId);
        const matching = all.filter((webhook) => eventMatches(event, webhook));
        await deps.queue.add(matching.map((webhook) => deliveryFor(event, webhook)));
        deps.recorded((Date.now() - event.ts) / 1000);
        if (matching.length > 0) deps.wake();
        return;
      } catch (err) {
        // while stopping, give up: the unacked message goes back to the queue when the channel closes
        if (deps.stopping()) throw err;
        deps.logger.warn(
          { err: (err as Error).message, eventId: event.eventId },
          'could not record deliveries; retrying',
        );
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  };
}
