// What the webhooks gateway and the dispatcher share: the callback body receivers get, the
// delivery log shapes, and the names both processes use for the `webhooks` schema's sealed
// columns and change notifications (the two are one service split in two processes).
import { Type, type Static } from '@sinclair/typebox';

export const WebhookCallbackBody = Type.Object(
  {
    webhookId: Type.String({ description: 'the _id of the webhook this callback is for' }),
    eventId: Type.String({ description: 'the event; several webhooks may get the same one' }),
    eventName: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    tenantId: Type.String(),
    communityId: Type.String(),
    ts: Type.Integer({ description: 'epoch milliseconds when the event happened' }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'the event data as published',
    }),
    origin: Type.Union([Type.Literal('platform'), Type.Literal('intake')], {
      description:
        '"platform": published by a platform service; "intake": sent by a caller of the event ' +
        'intake with a licence that manages the community (any catalog name, unless the operator ' +
        "refuses the platform's own there); also the signed webhook-origin header",
    }),
  },
  {
    description:
      'The JSON body of every callback: the event envelope plus webhookId. Sent as the exact bytes ' +
      'that were signed. Headers: webhook-id (the delivery id, the same on every retry and ' +
      'redelivery, to de-duplicate on), webhook-timestamp (epoch seconds of the attempt), ' +
      'webhook-signature ("v1,<HMAC-SHA256 with the whsec_ secret>" per active secret, then ' +
      '"v1k,<ECDSA secp256k1 r||s with the webhooks service key>", space separated, over ' +
      '"<webhook-id>.<webhook-timestamp>.<body>"; then "v1o,<HMAC-SHA256 with the whsec_ secret ' +
      'over <webhook-id>.<webhook-timestamp>.<webhook-origin>.<body>>" per secret), ' +
      'webhook-origin ("platform" or "intake", as the body\'s origin).',
  },
);
export type WebhookCallbackBody = Static<typeof WebhookCallbackBody>;

export const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DeliveryAttempt = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  at: Type.String({ format: 'date-time' }),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'null: no response' }),
  latencyMs: Type.Integer(),
  outcome: Type.Union([Type.Literal('succeeded'), Type.Literal('retry'), Type.Literal('failed')]),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type DeliveryAttempt = Static<typeof DeliveryAttempt>;

export const Delivery = Type.Object({
  _id: Type.String({ description: 'also the webhook-id header of every attempt' }),
  webhookId: Type.String(),
  eventId: Type.String(),
  eventName: Type.String(),
  status: Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s))),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'event ts + ttl minutes; null when ttl is 0 or after a manual redelivery',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  attempts: Type.Array(DeliveryAttempt),
});
export type Delivery = Static<typeof Delivery>;

export const DeliveryListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
    before: Type.Optional(
      Type.String({ format: 'date-time', description: 'only deliveries created before this' }),
    ),
  },
  { additionalProperties: false },
);

export const DeliveryList = Type.Object({ data: Type.Array(Delivery) });

/** Sealing contexts of the `webhooks.webhooks` columns, so either process can open them. */
export const webhookSealContext = {
  credential: (webhookId: string) => `webhook-credential:${webhookId}`,
  secret: (webhookId: string) => `webhook-secret:${webhookId}`,
};

/** PostgreSQL NOTIFY channels: a webhook changed (payload: id), deliveries became due. */
export const WEBHOOK_CHANGED_CHANNEL = 'webhooks_changed';
export const DELIVERIES_DUE_CHANNEL = 'webhooks_deliveries_due';
