// Shutdown handlers in priority groups (lower first), each group run with allSettled, on SIGTERM/SIGINT.
import type { Logger } from '@idv/observability';

interface Handler {
  name: string;
  priority: number;
  stop: () => Promise<unknown>;
}

export class Lifecycle {
  private readonly handlers: Handler[] = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  /** priority: 0 stop accepting (HTTP, consumers), 10 drain and close clients, 20 close pools */
  onStop(name: string, priority: number, stop: () => Promise<unknown>): void {
    this.handlers.push({ name, priority, stop });
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const priorities = [...new Set(this.handlers.map((h) => h.priority))].sort((a, b) => a - b);
      for (const priority of priorities) {
        const group = this.handlers.filter((h) => h.priority === priority);
        const results = await Promise.allSettled(group.map((h) => h.stop()));
        results.forEach((result, i) => {
          if (result.status === 'rejected')
            this.logger.warn({ err: result.reason, step: group[i]?.name }, 'shutdown step failed');
        });
      }
    })();
    return this.stopping;
  }

  installSignalHandlers(exit: (code: number) => void = (code) => process.exit(code)): void {
    const onSignal = (signal: NodeJS.Signals) => {
      this.logger.info({ signal }, 'shutting down');
      void this.stop().then(() => exit(0));
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
}
