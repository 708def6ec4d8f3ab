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
    description: 'how often expired verification results and connector call minutes are purged',
  }),
  CONNECTOR_STATS_FLUSH_MS: Type.Integer({
    default: 5000,
    minimum: 100,
    maximum: 60_000,
    description:
      "how often each replica adds the connector calls it counted (per community, verifier, kind, connector type and minute: calls, errors, durations) to docverify.connector_minutes, read by the console's analytics; also at shutdown",
  }),
  CONNECTOR_STATS_RETENTION_DAYS: Type.Integer({
    default: 90,
    minimum: 1,
    maximum: 3660,
    description: 'days the connector call minutes are kept; the retention sweep deletes older ones',
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
  DOCVERIFY_PUBLIC_URL: Type.String({
    default: 'http://127.0.0.1:8081',
    pattern: '^https?://[^/?#]+(/[^?#]*)?$',
    description:
      "public base URL of the gateway as people's browsers reach it: session page links are <this>/capture/<token>",
  }),
  SESSION_IMAGE_MAX_BYTES: Type.Integer({
    default: 8 * 1024 * 1024,
    minimum: 64 * 1024,
    maximum: 32 * 1024 * 1024,
    description: 'largest image the capture page may upload for one side (413 above)',
  }),
  ASYNC_VERIFY_DEADLINE_MS: Type.Integer({
    default: 300_000,
    minimum: 1000,
    maximum: 3_600_000,
    description:
      'how long a verification run (async /verify, a session) may wait for its connectors, retries included, before it fails',
  }),
  CAPTURE_PAGE_DIR: Type.String({
    default: 'services/capture-page/dist',
    minLength: 1,
    description: "the built capture page: index.html and assets/ (Vite's output)",
  }),
  CAPTURE_CHECK_QUEUE: Type.String({
    default: 'capture.checks',
    pattern: '^[A-Za-z0-9._-]+$',
    description:
      'the queue of capture checks the capture-check workers consume (services/capture-checker); they must use the same name',
  }),
  CAPTURE_CHECK_WAIT_MS: Type.Integer({
    default: 30_000,
    minimum: 1000,
    maximum: 300_000,
    description:
      'how long an upload waits for its image check, queueing included; past it (or with no capture-check worker reachable) the upload answers check_unavailable (not kept, no retake spent)',
  }),
  CAPTURE_CHECKS_PER_TENANT: Type.Integer({
    default: 4,
    minimum: 1,
    description:
      "capture checks one tenant's communities together may have in flight from a gateway; over it an upload answers check_unavailable at once, no retake spent",
  }),
  CAPTURE_CHECKS_PER_COMMUNITY: Type.Integer({
    default: 4,
    minimum: 1,
    description:
      'capture checks one community may have in flight from a gateway (one per session at most); over it an upload answers check_unavailable at once, no retake spent',
  }),
  CAPTURE_CHECKS_QUEUED: Type.Integer({
    default: 8,
    minimum: 1,
    description:
      'capture checks a gateway has in flight to the capture-check workers, all communities together; over it an upload answers check_unavailable at once, no retake spent',
  }),
  SESSION_SWEEP_MS: Type.Integer({
    default: 15_000,
    minimum: 100,
    description:
      'how often each replica ends expired and abandoned sessions, purges images and run results past retention and re-sends lost runs',
  }),
  DOCVERIFY_RUNS_QUEUE: Type.String({
    default: 'docverify.runs',
    pattern: '^[A-Za-z0-9._-]+$',
    description:
      'the durable (quorum) work queue of verification runs every gateway replica consumes',
  }),
  DOCVERIFY_FOLLOWUPS_QUEUE: Type.String({
    default: 'docverify.followups',
    pattern: '^[A-Za-z0-9._-]+$',
    description:
      "the durable (quorum) queue of connectors' final answers to pending kinds (polled or called back), consumed by every replica",
  }),
  CONNECTOR_CALLBACK_URL: Type.String({
    default: '',
    pattern: '^(https?://[^/?#]+(/[^?#]*)?)?$',
    description:
      'base URL at which providers reach this gateway for their callbacks (<this>/connector-callback/<verifierId>); empty: none are asked for, pending answers are polled',
  }),
  PENDING_FOLLOW_UP_MS: Type.Integer({
    default: 86_400_000,
    minimum: 1000,
    maximum: 2_592_000_000,
    description:
      'how long a connector follows up a pending answer (a review decided later); then the kind settles inconclusive (follow_up_deadline_passed)',
  }),
  RUNS_PREFETCH: Type.Integer({
    default: 16,
    minimum: 1,
    maximum: 256,
    description:
      'verification runs one gateway works on at once (its slots); the runs consumer prefetches twice as many, so runs being parked never hold the deliveries a free slot needs',
  }),
  RUNS_PER_COMMUNITY: Type.Integer({
    default: 0,
    minimum: 0,
    maximum: 256,
    description:
      "verification runs of one community one gateway works on at once (fair share); a run over it is not held in a slot but parked 1 s in the runs queue's wait queue, so a community's backlog waits behind its own work. 0: a quarter of RUNS_PREFETCH, at least 1",
  }),
  RUNS_PER_TENANT: Type.Integer({
    default: 0,
    minimum: 0,
    maximum: 256,
    description:
      "verification runs of one tenant's communities together one gateway works on at once (fair share, beside RUNS_PER_COMMUNITY), so a tenant with many communities holds no more slots than one with a single community; a run over it is parked like one over its community's share. 0: a quarter of RUNS_PREFETCH, at least 1",
  }),
  RUN_RETRIES: Type.Integer({
    default: 8,
    minimum: 0,
    maximum: 100,
    description:
      'times a run no verifier could serve (unavailable, busy, breaker open, no answer) is tried again; between tries it gives up its slot and waits in a wait queue; then it fails (no_verifier_in_time). Every start of a run counts, fair-share waits do not',
  }),
  RUN_RETRY_FIRST_MS: Type.Integer({
    default: 1000,
    minimum: 1000,
    maximum: 600_000,
    description:
      "a run's wait before its first retry; it doubles with each retry up to RUN_RETRY_MAX_MS (a longer Retry-After of the connectors is waited instead, up to that cap)",
  }),
  RUN_RETRY_MAX_MS: Type.Integer({
    default: 30_000,
    minimum: 1000,
    maximum: 600_000,
    description: 'longest wait between two tries of a run',
  }),
  REVIEW_HOLD_HOURS: Type.Integer({
    default: 720,
    minimum: 1,
    maximum: 8760,
    description:
      "how long a verification held for a human review (its config's review.mode) waits for its decision, its images and request kept sealed meanwhile; then its case expires and the run fails (review_hold_expired), the images dropped",
  }),
  RUN_ATTEMPT_MS: Type.Integer({
    default: 30_000,
    minimum: 100,
    maximum: 3_600_000,
    description:
      "longest one try of a run waits for its connectors (within the run's deadline), so a connector that never answers holds a slot this long at most",
  }),
});
