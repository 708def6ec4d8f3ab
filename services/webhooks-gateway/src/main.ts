// Process entry of the webhooks-gateway service.
import { runService } from '@idv/service-runtime';
import { startWebhooksGateway } from './start.ts';

await runService(() => startWebhooksGateway());
