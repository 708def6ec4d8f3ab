// Settings every service shares: backing services, credentials window, master key, directory.
import { Type } from '@sinclair/typebox';
import { defineConfig } from './loadConfig.ts';

export const platformConfigFields = {
  DATABASE_URL: Type.String({
    default: 'postgres://postgres@127.0.0.1:5432/idv',
    description: 'PostgreSQL connection string; one database, one schema per service',
  }),
  AMQP_URL: Type.String({
    default: 'amqp://guest:guest@127.0.0.1:5672',
    description: 'RabbitMQ connection string',
  }),
  WEBHOOK_EVENTS_QUEUE: Type.String({
    default: 'webhooks.dispatcher',
    pattern: '^[A-Za-z0-9._-]+$',
    description:
      "the webhook dispatcher's durable queue, bound to every event on the events exchange",
  }),
  DECLARE_WEBHOOK_EVENTS_QUEUE: Type.Boolean({
    default: true,
    description:
      'every service declares WEBHOOK_EVENTS_QUEUE before publishing, so events published before the dispatcher first ran wait there; false: only the dispatcher does (test suites)',
  }),
  ALLOWED_TIME_SPAN: Type.Integer({
    default: 60,
    minimum: 1,
    maximum: 3600,
    description: 'seconds a requestid ts may lie before or after now; also the replay window',
  }),
  SERVICE_KEY_GRACE_SECONDS: Type.Integer({
    default: 172_800,
    minimum: 0,
    maximum: 2_592_000,
    description:
      'after a service key reset, how long the replaced key stays accepted beside the new one (callers cache service public keys, up to 24 h); 0: the reset ends every previous key at once',
  }),
  RATE_LIMIT_LICENCE_RPS: Type.Number({
    default: 100,
    minimum: 0,
    maximum: 1_000_000,
    description:
      'requests a second one licence may make to the credential-header APIs of all services together (token bucket refill), unless an operator set its own (admin ratelimit set); 0: no limit',
  }),
  RATE_LIMIT_LICENCE_BURST: Type.Integer({
    default: 200,
    minimum: 1,
    maximum: 1_000_000,
    description: 'requests one licence may make at once (token bucket size)',
  }),
  RATE_LIMIT_COMMUNITY_RPS: Type.Number({
    default: 300,
    minimum: 0,
    maximum: 1_000_000,
    description:
      'requests a second all licences of one community may make together, as RATE_LIMIT_LICENCE_RPS; 0: no limit',
  }),
  RATE_LIMIT_COMMUNITY_BURST: Type.Integer({
    default: 600,
    minimum: 1,
    maximum: 1_000_000,
    description: 'requests the licences of one community may make at once',
  }),
  RATE_LIMIT_TENANT_RPS: Type.Number({
    default: 600,
    minimum: 0,
    maximum: 1_000_000,
    description:
      "requests a second all licences of one tenant's communities may make together, as RATE_LIMIT_LICENCE_RPS, so a tenant holding many licences does not multiply its limit; 0: no limit",
  }),
  RATE_LIMIT_TENANT_BURST: Type.Integer({
    default: 1200,
    minimum: 1,
    maximum: 1_000_000,
    description: "requests the licences of one tenant's communities may make at once",
  }),
  RATE_LIMIT_IMAGES_MBPS: Type.Number({
    default: 16,
    minimum: 0,
    maximum: 1_000_000,
    description:
      "megabytes of decoded pixels (width x height x 4 bytes, 8 for 16-bit samples) a community's requests may send to be decoded a second, /verify images and capture uploads together, unless an operator set its own (admin ratelimit set --images COMMUNITY_ID): one community's images cannot take every image thread; over it /verify answers 429 and an upload check_unavailable (no retake spent); 0: no budget",
  }),
  RATE_LIMIT_IMAGES_BURST: Type.Integer({
    default: 512,
    minimum: 1,
    maximum: 1_000_000,
    description:
      "megabytes of decoded pixels a community's requests may send at once (ten 12-megapixel photos)",
  }),
  RATE_LIMIT_REFUSAL_HOLD_MS: Type.Integer({
    default: 1000,
    minimum: 0,
    maximum: 10_000,
    description:
      'how long a refusal by a rate limit or an image budget is held before it is answered (never past its Retry-After; at most 16 held per limit and 256 in all, the rest answered at once): a client that sends again at once without waiting gets one answer a second per connection; 0: answered at once',
  }),
  RATE_LIMIT_SYNC_MS: Type.Integer({
    default: 100,
    minimum: 10,
    maximum: 10_000,
    description:
      'how often a replica adds the requests it admitted to the buckets shared in PostgreSQL and reads the others; replicas together may admit up to one bucket each beyond a limit within it',
  }),
  MASTER_KEY: Type.Optional(
    Type.String({
      pattern: '^(?:[A-Za-z0-9+/]{43}=|[0-9a-fA-F]{64})$',
      description:
        '32-byte key (base64 or hex) that encrypts secrets at rest; required in production',
    }),
  ),
  MASTER_KEY_FILE: Type.String({
    default: '.local/master.key',
    description: 'where a generated development master key is kept when MASTER_KEY is unset',
  }),
  OPERATORS_COMMUNITY: Type.String({
    default: 'operators',
    description:
      "the community of the platform's operators (the console signs them in there); its second-factor policy is `required` unless an operator sets another",
  }),
  OPERATORS_USERINFO_URL: Type.String({
    default: 'http://127.0.0.1:8080/community/operators/v1/userinfo',
    description:
      "the operators' issuer's userinfo endpoint as the gateways reach it: an operator's bearer token is checked there (answers cached 30 s)",
  }),
  MASTER_KEYS_DIR: Type.String({
    default: '.local/master-keys',
    description:
      'key-encryption keys added by `master-key rotate` with the local key provider, one file each (`<keyId>.key`); every service reads new ones without a restart (a mounted Secret in Kubernetes)',
  }),
  KEY_PROVIDER: Type.String({
    default: 'local',
    enum: ['local', 'pkcs11'],
    description:
      'where the key-encryption keys live: local (MASTER_KEY and MASTER_KEYS_DIR, in the process) or pkcs11 (generated inside a PKCS#11 token, an HSM, never read out)',
  }),
  PKCS11_MODULE: Type.String({
    default: '/usr/lib/softhsm/libsofthsm2.so',
    description: "KEY_PROVIDER=pkcs11: the HSM vendor's PKCS#11 library (SoftHSM2's by default)",
  }),
  PKCS11_TOKEN_LABEL: Type.String({
    default: 'idv-keys',
    description: 'KEY_PROVIDER=pkcs11: the label of the token (partition) that holds the keys',
  }),
  PKCS11_PIN: Type.Optional(
    Type.String({ description: "KEY_PROVIDER=pkcs11: the token's user PIN (required then)" }),
  ),
  PKCS11_INITIAL_KEY_LABEL: Type.String({
    default: 'pkcs11-initial',
    description:
      'KEY_PROVIDER=pkcs11: the key a fresh keystore starts with, made inside the token at first use when absent',
  }),
  NODE_ENV: Type.String({
    default: 'development',
    description: 'production refuses to start without MASTER_KEY',
  }),
  LOG_LEVEL: Type.String({
    default: 'info',
    enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    description: 'pino log level; JSON lines go to stdout in 4 KiB chunks or every 250 ms',
  }),
  HTTP_BODY_LIMIT: Type.String({ default: '1mb', description: 'largest JSON body accepted' }),
  TRUST_PROXY: Type.Boolean({
    default: false,
    description: 'trust X-Forwarded-* from a TLS proxy',
  }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 0,
    description: 'longest wait for in-flight work on SIGTERM',
  }),
  BUILD_VERSION: Type.Optional(
    Type.String({
      description: 'version stamp <git-tag>.<commit-id>.<dob>; computed at start when unset',
    }),
  ),
  SD_DOCUVERIFY_URL: Type.String({
    default: 'http://127.0.0.1:8081',
    description: '/sd entry docuverify',
  }),
  SD_OAUTH2_URL: Type.String({ default: 'http://127.0.0.1:8080', description: '/sd entry oauth2' }),
  SD_WEBHOOKS_URL: Type.String({
    default: 'http://127.0.0.1:8082',
    description: '/sd entry webhooks',
  }),
  SD_EVENTS_URL: Type.String({
    default: 'http://127.0.0.1:8082',
    description: '/sd entry events: base of the event intake (webhooks gateway)',
  }),
  SD_LICENSES_URL: Type.String({
    default: 'http://127.0.0.1:8080',
    description:
      "/sd entry licenses (the vendor's helper requires it): a base with the licence endpoints, which every service serves",
  }),
};

export const PlatformConfig = defineConfig(platformConfigFields);
