// Process entry of the oauth service.
import { runService } from '@idv/common-endpoints';
import { startOauth } from './start.ts';

await runService(() => startOauth());
