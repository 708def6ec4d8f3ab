// Settings of the webhook dispatcher beyond the platform ones.
import { Type } from '@sinclair/typebox';
import { defineConfig } from '@idv/config';

export const WebhookDispatcherConfig = defineConfig({
  WEBHOOK_DISPATCHER_PORT: Type.Integer({
    default: 8083,
    minimum: 0,
    maximum: 65535,
    description: 'HTTP port of the dispatcher (/healthz, /metrics)',
  }),
  WEBHOOK_HTTP_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 100,
    maximum: 60_000,
    description: 'timeout of one callback (and of one OAuth token request)',
  }),
  WEBHOOK_LEASE_MS: Type.Integer({
    default: 30_000,
    minimum: 500,
    description:
      'how long a claimed delivery stays with one dispatcher before another may take it over (must exceed the HTTP timeout plus the 1 s a delivery may wait for its slots)',
  }),
  WEBHOOK_RETRY_BASE_MS: Type.Integer({
    default: 5_000,
    minimum: 1,
    description: 'first retry delay; each later one is 6 times longer, with +-20 % jitter',
  }),
  WEBHOOK_MAX_IN_FLIGHT: Type.Integer({
    default: 64,
    minimum: 1,
    maximum: 1000,
    description:
      'callbacks in flight at once from the delivery table, and events taken from the broker at once (each attempted as it comes)',
  }),
  WEBHOOK_TARGET_CONCURRENCY: Type.Integer({
    default: 8,
    minimum: 1,
    maximum: 256,
    description: 'callbacks in flight at once to one webhook (each webhook has its own slots)',
  }),
  WEBHOOK_TENANT_CONCURRENCY: Type.Integer({
    default: 32,
    minimum: 1,
    maximum: 1000,
    description:
      "callbacks in flight at once from one tenant's webhooks, all its communities and receiver origins together: its share of WEBHOOK_MAX_IN_FLIGHT (half), so a tenant whose receivers hang on many origins cannot hold every callback in flight, while a few of its own webhooks hanging (each at most WEBHOOK_TARGET_CONCURRENCY) leave its healthy ones their slots; keep it below WEBHOOK_MAX_IN_FLIGHT and several times WEBHOOK_TARGET_CONCURRENCY",
  }),
  WEBHOOK_COMMUNITY_ORIGIN_CONCURRENCY: Type.Integer({
    default: 16,
    minimum: 1,
    maximum: 1000,
    description:
      "callbacks in flight at once from one community's webhooks to one receiver origin (scheme, host, port): its share of WEBHOOK_ORIGIN_CONCURRENCY",
  }),
  WEBHOOK_ORIGIN_CONCURRENCY: Type.Integer({
    default: 64,
    minimum: 1,
    maximum: 10_000,
    description:
      'callbacks in flight at once to one receiver origin, all communities together, so no host is hammered; keep it several times WEBHOOK_COMMUNITY_ORIGIN_CONCURRENCY so a few communities with slow receivers on a shared host cannot fill it',
  }),
  WEBHOOK_BREAKER_RESET_MS: Type.Integer({
    default: 30_000,
    minimum: 100,
    description: "how long a webhook's breaker stays open before one trial call",
  }),
  WEBHOOK_POLL_MS: Type.Integer({
    default: 1_000,
    minimum: 10,
    description: 'how often due deliveries are looked for when nothing woke the loop',
  }),
  WEBHOOK_CACHE_TTL_MS: Type.Integer({
    default: 60_000,
    minimum: 0,
    description: 'longest a cached webhook list is used; changes also invalidate it at once',
  }),
  WEBHOOK_SSRF_ALLOW: Type.String({
    default: '',
    description:
      'comma-separated addresses or CIDRs a callback or token URL may reach although private (dev sinks, tests), e.g. 127.0.0.1/32',
  }),
});
