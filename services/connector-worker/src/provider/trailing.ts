// Provider calls an adapter still makes after its result (connector.ts, AdapterOutput.after): the
// job is answered at once, while the verifier's slot stays taken until the call ends, so the
// verifier's cap still bounds what reaches its provider; a failure is logged, since the result it
// follows is already the caller's. The worker waits for them when it stops.
import type { Logger } from '@idv/observability';
import type { AfterAnswer } from '../connectors/connector.ts';

/** How long a stopping worker waits for them: their own HTTP timeouts bound them too. */
const DRAIN_MS = 10_000;

export class TrailingCalls {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /** Keeps the slot (`release`) until `after` ends. */
  hold(after: AfterAnswer, job: { jobId: string; verifierTag: string }, release: () => void): void {
    const done = after.then((ended) => {
      release();
      if (ended.failed)
        this.logger.warn(
          { jobId: job.jobId, verifier: job.verifierTag, reason: ended.failed },
          'provider call after the answer failed',
        );
    });
    this.running.add(done);
    void done.then(() => this.running.delete(done));
  }

  get size(): number {
    return this.running.size;
  }

  async drain(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_MS)));
    await Promise.race([Promise.all(this.running), waited]);
    clearTimeout(timer);
  }
}
