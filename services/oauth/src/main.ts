// Process entry of the oauth service.
import { runService } from '@idv/service-runtime';
import { startOauth } from './start.ts';

await runService(() => startOauth());
