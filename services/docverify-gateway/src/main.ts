// Process entry of the docverify-gateway service.
import { runService } from '@idv/service-runtime';
import { startDocverifyGateway } from './start.ts';

await runService(() => startDocverifyGateway());
