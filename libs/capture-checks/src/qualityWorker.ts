// Worker thread of the capture checks: @idv/images decodes each image (the last one is kept a few
// seconds, so the content checks that follow the measures of the same upload reuse its pixels:
// about a second saved on a 10-megapixel photo) and one task of imageTasks.ts runs on it.
import { serveImageTasks } from '@idv/images/worker';
import { runTask } from './imageTasks.ts';

serveImageTasks(runTask, { keepDecodedMs: 5_000 });
