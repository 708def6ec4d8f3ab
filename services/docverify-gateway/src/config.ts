// Settings of the docverify gateway beyond the platform ones.
import { Type } from '@sinclair/typebox';
import { defineConfig } from '@idv/config';

export const DocverifyGatewayConfig = defineConfig({
  DOCVERIFY_PORT: Type.Integer({
    default: 8081,
    minimum: 0,
    maximum: 65535,
    description: 'HTTP port of the docverify gateway',
  }),
  VERIFY_DEADLINE_MS: Type.Integer({
    default: 30_000,
    minimum: 100,
    maximum: 300_000,
    description:
      'longest a POST /verify waits for its connectors; every job carries the deadline, a verifier that fails early hands the time left to the next, and a queue backed up past it answers 503 at once',
  }),
  RETENTION_SWEEP_MS: Type.Integer({
    default: 30_000,
    minimum: 100,
    description: 'how often expired verification results are purged',
  }),
  DOCVERIFY_LOOKUP_CACHE_MS: Type.Integer({
    default: 5000,
    minimum: 0,
    maximum: 60_000,
    description:
      'how long /verify reuses a config and verifiers it read; changes made on another replica show within this time',
  }),
  CONNECTOR_QUEUE_PREFIX: Type.String({
    default: 'idv.connector',
    pattern: '^[A-Za-z0-9._-]+$',
    description: 'work queues are <prefix>.<connector type>; workers must use the same prefix',
  }),
});
