// Process entry of a connector worker: CONNECTOR_TYPE=<type> serves idv.connector.<type>.
import { ConfigError } from '@idv/config';
import { startConnectorWorker } from './start.ts';

try {
  const worker = await startConnectorWorker(process.env);
  worker.lifecycle.installSignalHandlers();
} catch (err) {
  console.error(
    err instanceof ConfigError
      ? err.message
      : `failed to start: ${(err as Error).stack ?? String(err)}`,
  );
  process.exit(1);
}
