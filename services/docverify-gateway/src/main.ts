// Process entry of the docverify-gateway service.
import { runService } from '@idv/common-endpoints';
import { startDocverifyGateway } from './start.ts';

await runService(() => startDocverifyGateway());
