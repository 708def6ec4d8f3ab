// Process entry of the webhooks-gateway service.
import { runService } from '@idv/common-endpoints';
import { startWebhooksGateway } from './start.ts';

await runService(() => startWebhooksGateway());
