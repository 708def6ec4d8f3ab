// Webhook registration bodies and answers (webhooks spec 2.1-2.3), with the decisions the spec
// leaves open: query semantics, ttl unit, tag filtering, paging and the signing secret.
import { Type, type Static } from '@sinclair/typebox';

export const AUTH_TYPES = ['none', 'basic', 'bearer', 'api_key', 'oauth2'] as const;
export const HTTP_METHODS = ['POST', 'PUT', 'PATCH', 'GET', 'DELETE'] as const;

const StatusCode = Type.Integer({ minimum: 100, maximum: 599 });
const Label = Type.String({ minLength: 1, maxLength: 100 });

export const WebhookCredential = Type.Object(
  {
    username: Type.Optional(Type.String({ description: 'basic' })),
    password: Type.Optional(Type.String({ description: 'basic' })),
    keyName: Type.Optional(
      Type.String({
        pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
        description: 'api_key: header name',
      }),
    ),
    keyValue: Type.Optional(Type.String({ description: 'api_key: header value' })),
    token: Type.Optional(Type.String({ description: 'bearer' })),
    oauth2: Type.Optional(
      Type.Object(
        { clientId: Type.String({ minLength: 1 }), clientSecret: Type.String() },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'plain text on the wire, sealed with MASTER_KEY at rest; answered only to the system licence, never logged',
  },
);
export type WebhookCredential = Static<typeof WebhookCredential>;

export const WebhookApi = Type.Object(
  {
    type: Type.Union(
      HTTP_METHODS.map((m) => Type.Literal(m)),
      { default: 'POST', description: 'HTTP method of the callback' },
    ),
    url: Type.String({
      pattern: '^https?://[^\\s]+$',
      maxLength: 2048,
      description:
        'target; refused at connect time when it resolves to a loopback, private, link-local or metadata address (unless allow-listed)',
    }),
    authType: Type.Union(
      AUTH_TYPES.map((a) => Type.Literal(a)),
      { default: 'none' },
    ),
    oAuthGrantType: Type.Optional(Type.Literal('client_credentials')),
    oAuthTokenUrl: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2048 })),
    oAuthScopes: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 50 })),
    credential: Type.Optional(WebhookCredential),
  },
  { additionalProperties: false },
);
export type WebhookApi = Static<typeof WebhookApi>;

export const QUERY_DESCRIPTION =
  'Each entry is an object of members; an entry matches an event when EVERY member matches. A ' +
  'member key is a dotted path into the event data (e.g. "status", "result.level"); a key ' +
  'starting with "$." names an envelope member instead ("$.eventName", "$.communityId"). A ' +
  'scalar value matches by strict equality; an array value matches when the event value equals ' +
  'one of its items; an event value that is an array matches when it contains the wanted value. ' +
  'criteria ALL (default): every entry must match; ANY: at least one. No entries: every event ' +
  "named in eventNames matches. To receive only the platform's own events, not those a licence " +
  'holder sent through the event intake: {"$.origin": "platform"}.';

const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
export const QueryEntry = Type.Record(
  Type.String({ minLength: 1 }),
  Type.Union([Scalar, Type.Array(Scalar)]),
  {
    minProperties: 1,
  },
);
export type QueryEntry = Static<typeof QueryEntry>;

const fields = {
  eventNames: Type.Array(Type.String({ pattern: '^[A-Z][A-Z0-9_]{1,99}$' }), {
    minItems: 1,
    maxItems: 50,
    uniqueItems: true,
    description: 'names from the event catalog (contracts/events/catalog.ts)',
  }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  disabled: Type.Boolean({ default: false }),
  createdBy: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'defaults to the id of the licence that created the webhook',
  }),
  tags: Type.Array(Label, { maxItems: 50, uniqueItems: true }),
  query: Type.Array(QueryEntry, { maxItems: 50, description: QUERY_DESCRIPTION }),
  criteria: Type.Union([Type.Literal('ALL'), Type.Literal('ANY')], { default: 'ALL' }),
  api: WebhookApi,
  successCodes: Type.Array(StatusCode, { minItems: 1, maxItems: 50, uniqueItems: true }),
  retryCodes: Type.Array(StatusCode, { maxItems: 50, uniqueItems: true }),
  retryCount: Type.Integer({
    minimum: 0,
    maximum: 2,
    default: 0,
    description: 'retries after the first attempt, on a retry code or a transport error',
  }),
  ttl: Type.Integer({
    minimum: 0,
    maximum: 5,
    default: 0,
    description:
      'minutes after the event (its ts) during which a callback may still be attempted; 0 = no cap',
  }),
};

export const WebhookCreate = Type.Object(
  {
    eventNames: fields.eventNames,
    name: fields.name,
    disabled: Type.Optional(fields.disabled),
    createdBy: Type.Optional(fields.createdBy),
    tags: Type.Optional(fields.tags),
    query: Type.Optional(fields.query),
    criteria: Type.Optional(fields.criteria),
    api: fields.api,
    successCodes: fields.successCodes,
    retryCodes: Type.Optional(fields.retryCodes),
    retryCount: Type.Optional(fields.retryCount),
    ttl: Type.Optional(fields.ttl),
  },
  { additionalProperties: false },
);
export type WebhookCreate = Static<typeof WebhookCreate>;

export const WebhookPatch = Type.Object(
  {
    name: Type.Optional(fields.name),
    disabled: Type.Optional(Type.Boolean()),
    eventNames: Type.Optional(fields.eventNames),
    tags: Type.Optional(fields.tags),
    query: Type.Optional(fields.query),
    criteria: Type.Optional(Type.Union([Type.Literal('ALL'), Type.Literal('ANY')])),
    api: Type.Optional(fields.api),
    successCodes: Type.Optional(fields.successCodes),
    retryCodes: Type.Optional(fields.retryCodes),
    retryCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
    ttl: Type.Optional(Type.Integer({ minimum: 0, maximum: 5 })),
    rotateSecret: Type.Optional(
      Type.Boolean({
        description:
          'true: a new whsec_ secret is made and answered once; the old one keeps signing (a second v1 entry) for the grace period',
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'members given replace the stored ones; an api given replaces the whole api',
  },
);
export type WebhookPatch = Static<typeof WebhookPatch>;

export const Webhook = Type.Object(
  {
    _id: Type.String(),
    tenantId: Type.String(),
    communityId: Type.String(),
    eventNames: fields.eventNames,
    name: fields.name,
    disabled: Type.Boolean(),
    createdBy: Type.String(),
    tags: fields.tags,
    query: fields.query,
    criteria: fields.criteria,
    api: WebhookApi,
    successCodes: fields.successCodes,
    retryCodes: fields.retryCodes,
    retryCount: fields.retryCount,
    ttl: fields.ttl,
    secret: Type.Optional(
      Type.String({
        description:
          'whsec_ signing secret: answered on create, on a rotating PATCH and to the system licence',
      }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { description: 'api.credential is present only for the system licence' },
);
export type Webhook = Static<typeof Webhook>;

export const WebhookFetchBody = Type.Object(
  {
    pIndex: Type.Integer({ minimum: 0, default: 0, description: 'page index (cursor), from 0' }),
    pSize: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
    tags: Type.Optional(
      Type.Array(Label, {
        maxItems: 50,
        description: 'only webhooks carrying at least one of these tags',
      }),
    ),
  },
  { additionalProperties: false },
);
export type WebhookFetchBody = Static<typeof WebhookFetchBody>;

export const WebhookFetchResult = Type.Object({
  page: Type.Object({
    index: Type.Integer({ description: 'the page answered, from 0' }),
    total: Type.Integer({ description: 'number of webhooks matching the filter, all pages' }),
    size: Type.Integer({ description: 'the page size asked for' }),
  }),
  data: Type.Array(Webhook, { description: 'ordered by creation time, then id' }),
  publicKey: Type.String({ description: 'the webhooks service public key (verifies v1k)' }),
});
export type WebhookFetchResult = Static<typeof WebhookFetchResult>;

/** The event intake's answer (202): the event was published. */
export const EventAccepted = Type.Object({
  eventId: Type.String({ description: 'the envelope eventId receivers de-duplicate on' }),
  eventName: Type.String(),
  ignored: Type.Array(Type.String(), {
    description:
      'members of the data the catalog does not declare for the event: left out of the event',
  }),
});
export type EventAccepted = Static<typeof EventAccepted>;

/** The event intake's body: the event data, or that JSON encrypted under the shared key. */
export const EventIntakeBody = Type.Union(
  [
    Type.Object(
      { data: Type.String({ description: 'encrypt(event data JSON) under the ECDH shared key' }) },
      { additionalProperties: false },
    ),
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'the event data itself; the members the catalog declares for the event name (contracts/events/catalog.ts) are kept and checked, others are left out',
    }),
  ],
  { description: '{data: encrypted} or the plain event data' },
);
