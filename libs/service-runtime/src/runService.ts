// Process entry of every service and worker: start it, stop it on SIGTERM/SIGINT, refuse bad config in one line.
import { ConfigError } from '@idv/config';
import type { ProcessRuntime } from './runtime.ts';

export async function runService(start: () => Promise<{ runtime: ProcessRuntime }>): Promise<void> {
  try {
    const { runtime } = await start();
    runtime.lifecycle.installSignalHandlers();
  } catch (err) {
    const message =
      err instanceof ConfigError
        ? err.message
        : `failed to start: ${(err as Error).stack ?? String(err)}`;
    console.error(message);
    process.exit(1);
  }
}
