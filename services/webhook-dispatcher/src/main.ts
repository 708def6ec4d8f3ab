// Process entry of the webhook dispatcher.
import { runService } from '@idv/common-endpoints';
import { startWebhookDispatcher } from './start.ts';

await runService(() => startWebhookDispatcher());
