// Process entry of a connector worker: CONNECTOR_TYPE=<type> serves idv.connector.<type>.
import { runService } from '@idv/service-runtime';
import { startConnectorWorker } from './start.ts';

await runService(() => startConnectorWorker());
