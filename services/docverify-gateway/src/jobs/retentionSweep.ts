// Purges kept verification results once they expire, every `everyMs`.
import type { Logger } from '@idv/observability';
import type { VerificationStore } from '../store/verifications.ts';

export function startRetentionSweep(
  store: VerificationStore,
  everyMs: number,
  logger: Logger,
): () => Promise<void> {
  const timer = setInterval(() => {
    store
      .sweep()
      .then(
        (purged) => purged > 0 && logger.info({ purged }, 'expired verification results purged'),
      )
      .catch((err: unknown) =>
        logger.warn({ reason: (err as Error).message }, 'retention sweep failed'),
      );
  }, everyMs);
  timer.unref();
  return async () => clearInterval(timer);
}
