// Process entry of the operator console: start it, stop it on SIGTERM/SIGINT, refuse bad config
// in one line (as runService does for the platform's services).
import { ConfigError } from '@idv/config';
import { startConsole } from './start.ts';

try {
  const started = await startConsole();
  started.runtime.lifecycle.installSignalHandlers();
} catch (err) {
  console.error(
    err instanceof ConfigError
      ? err.message
      : `failed to start: ${(err as Error).stack ?? String(err)}`,
  );
  process.exit(1);
}
