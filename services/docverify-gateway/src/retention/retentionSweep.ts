// Purges what has expired every `everyMs`: kept verification results, connector call minutes.
import type { Logger } from '@idv/observability';

export interface Sweep {
  /** what it purges, for the log */
  what: string;
  /** purges; returns how many went */
  sweep: () => Promise<number>;
}

export function startRetentionSweep(
  sweeps: Sweep[],
  everyMs: number,
  logger: Logger,
): () => Promise<void> {
  const timer = setInterval(() => {
    for (const { what, sweep } of sweeps)
      sweep()
        .then((purged) => purged > 0 && logger.info({ purged, what }, 'expired rows purged'))
        .catch((err: unknown) =>
          logger.warn({ what, reason: (err as Error).message }, 'retention sweep failed'),
        );
  }, everyMs);
  timer.unref();
  return async () => clearInterval(timer);
}
