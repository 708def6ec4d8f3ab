// Process entry of the webhook dispatcher.
import { runService } from '@idv/service-runtime';
import { startWebhookDispatcher } from './start.ts';

await runService(() => startWebhookDispatcher());
