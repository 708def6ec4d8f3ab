// The domain-event envelope of DESIGN section 3, published on the `events` topic exchange.
import { Type, type Static } from '@sinclair/typebox';

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
  },
  { $id: 'events/envelope', additionalProperties: false },
);
export type EventEnvelope = Static<typeof EventEnvelope>;
