// Worker thread of the capture checks: @idv/images decodes each image at the working size its task
// needs (imageTasks.ts workingSize: 2000 px on the long side, 4096 for the PDF417), and keeps the
// last one a few seconds, so the content checks that follow the measures of the same upload reuse
// its pixels; one task of imageTasks.ts runs on it.
import { faceEngine } from '@idv/faces';
import { serveImageTasks } from '@idv/images/worker';
import { runTask, workingSize } from './imageTasks.ts';

// the face detector loads as the thread starts, not in the first selfie's check; a failure shows
// again in the face task, which the check answers as check_unavailable
faceEngine('detector').catch(() => undefined);
serveImageTasks(runTask, { keepDecodedMs: 5_000, workingSize });
