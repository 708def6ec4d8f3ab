// Settings of a capture-check worker: its queue, its image threads and how many checks it holds,
// per community and in all, and the time limits of the checks that run in the threads.
import { availableParallelism } from 'node:os';
import { Type, type Static } from '@sinclair/typebox';
import { defineConfig, loadConfig, platformConfigFields } from '@idv/config';

const ms = (fallback: number, minimum: number, description: string) =>
  Type.Integer({ default: fallback, minimum, maximum: 300_000, description });

export const CaptureCheckerConfig = defineConfig({
  AMQP_URL: platformConfigFields.AMQP_URL,
  MASTER_KEY: platformConfigFields.MASTER_KEY,
  MASTER_KEY_FILE: platformConfigFields.MASTER_KEY_FILE,
  MASTER_KEYS_DIR: platformConfigFields.MASTER_KEYS_DIR,
  NODE_ENV: platformConfigFields.NODE_ENV,
  LOG_LEVEL: platformConfigFields.LOG_LEVEL,
  CAPTURE_CHECK_QUEUE: Type.String({
    default: 'capture.checks',
    pattern: '^[A-Za-z0-9._-]+$',
    description: 'the queue of capture checks this worker consumes; the gateways must use the same',
  }),
  CAPTURE_CHECK_THREADS: Type.Integer({
    default: 0,
    minimum: 0,
    maximum: 64,
    description:
      'image threads that decode and check captured images (one check runs in one at a time); 0 = one per core',
  }),
  CAPTURE_CHECKER_PER_TENANT: Type.Integer({
    default: 0,
    minimum: 0,
    maximum: 1000,
    description:
      "checks of one tenant's communities together this worker holds at once; over it the check answers check_unavailable at once, no retake spent; 0 = half of its threads, at least one",
  }),
  CAPTURE_CHECKER_PER_COMMUNITY: Type.Integer({
    default: 0,
    minimum: 0,
    maximum: 1000,
    description:
      'checks of one community this worker holds at once (running or waiting for a thread); over it the check answers check_unavailable at once, no retake spent; 0 = half of its threads, at least one',
  }),
  CAPTURE_CONTENT_CHECK_MS: ms(
    5_000,
    1,
    'time limit of a barcode or face check of a captured image; past it the upload answers check_unavailable (not kept, no retake spent)',
  ),
  CAPTURE_MRZ_CHECK_MS: ms(
    10_000,
    100,
    "time limit of a passport page's MRZ OCR, waiting included (one OCR thread per worker); past it the upload answers check_unavailable (not kept, no retake spent)",
  ),
  CAPTURE_HEAVY_CHECK_MB: Type.Integer({
    default: 64,
    minimum: 0,
    maximum: 100_000,
    description:
      'images whose decoding costs at least this many MB (width x height x 4 bytes, 8 for 16-bit samples: over 16 megapixels, or 16-bit) are checked in a second process of this worker at the lowest CPU priority (nice 19), one thread, so they never slow an ordinary photo; 0: no such process, every image in the image threads',
  }),
  WORKER_METRICS_PORT: Type.Integer({
    default: 0,
    minimum: 0,
    maximum: 65535,
    description: 'port of /healthz and /metrics; 0 = no HTTP server',
  }),
  SHUTDOWN_TIMEOUT_MS: platformConfigFields.SHUTDOWN_TIMEOUT_MS,
  BUILD_VERSION: platformConfigFields.BUILD_VERSION,
});
export type CaptureCheckerSettings = Static<typeof CaptureCheckerConfig>;

/**
 * How much one worker takes on: its threads, each with one check waiting behind the running one
 * (the next image is ready when a thread frees), and the shares of one tenant and one community,
 * counted in threads: half of them, at least one. A share of half the checks held would be every
 * thread: a tenant's heavy images would run on all of them and another tenant's check would wait
 * for one to end (measured: A's upload p99 2.4 s beside B's 16-bit PNGs, 1.3 s with a share of
 * one thread of two).
 */
export function capacityOf(settings: CaptureCheckerSettings): {
  threads: number;
  held: number;
  perTenant: number;
  perCommunity: number;
} {
  const threads = settings.CAPTURE_CHECK_THREADS || availableParallelism();
  const held = 2 * threads;
  const share = (configured: number) =>
    Math.min(held, configured || Math.max(1, Math.floor(threads / 2)));
  return {
    threads,
    held,
    perTenant: share(settings.CAPTURE_CHECKER_PER_TENANT),
    perCommunity: share(settings.CAPTURE_CHECKER_PER_COMMUNITY),
  };
}

export function loadCheckerConfig(env: Record<string, string | undefined>): CaptureCheckerSettings {
  return loadConfig(CaptureCheckerConfig, env);
}
