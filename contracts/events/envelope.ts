// The domain-event envelope of DESIGN section 3, published on the `events` topic exchange, plus the
// origin that tells the platform's own events from those a caller sent through the event intake.
import { Type, type Static } from '@sinclair/typebox';
import type { EventName } from './catalog.ts';

export const EventEnvelope = Type.Object(
  {
    eventId: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'unique per event; consumers de-duplicate on it',
    }),
    eventName: Type.String({
      pattern: '^[A-Z][A-Z0-9_]{1,99}$',
      description: 'also the routing key',
    }),
    version: Type.Integer({
      minimum: 1,
      description: 'version of the data shape for this event name',
    }),
    tenantId: Type.String({ minLength: 1 }),
    communityId: Type.String({ minLength: 1 }),
    ts: Type.Integer({ minimum: 0, description: 'epoch milliseconds when the event happened' }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'event-specific; never raw PII',
    }),
    origin: Type.Optional(
      Type.Union([Type.Literal('platform'), Type.Literal('intake')], {
        default: 'platform',
        description:
          'who published it: "platform" (a platform service, over AMQP), or "intake" (a caller of the ' +
          'event intake, PUT …/event/{eventName}, with a licence of the community): receivers trust ' +
          'an intake event only as far as they trust those licences. Filled in as "platform" when ' +
          'a publisher leaves it out; the intake always sets "intake"',
      }),
    ),
  },
  { $id: 'events/envelope', additionalProperties: false },
);
export type EventEnvelope = Static<typeof EventEnvelope>;

/** Who an event is about: every event belongs to one community of one tenant. */
export interface EventScope {
  tenantId: string;
  communityId: string;
}

/**
 * The one way to build an envelope: a fresh eventId, version 1 of the data shape, `ts` now unless
 * given, origin left out (read as "platform") unless given.
 */
export function eventEnvelope(
  eventName: EventName,
  scope: EventScope,
  data: Record<string, unknown>,
  options: { ts?: number; origin?: 'platform' | 'intake'; version?: number } = {},
): EventEnvelope {
  return {
    eventId: globalThis.crypto.randomUUID(),
    eventName,
    version: options.version ?? 1,
    tenantId: scope.tenantId,
    communityId: scope.communityId,
    ts: options.ts ?? Date.now(),
    data,
    ...(options.origin ? { origin: options.origin } : {}),
  };
}
