// Process entry of a capture-check worker: serves capture.checks (CAPTURE_CHECK_QUEUE).
import { runService } from '@idv/service-runtime';
import { startCaptureChecker } from './start.ts';

await runService(() => startCaptureChecker());
