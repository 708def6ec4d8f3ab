// The engine of the heavy lane (heavyLane.ts): one image thread and the MRZ OCR, serving the
// checks its worker sends over the IPC channel; it closes them and ends when the channel closes.
import { threadChecks, type ThreadCheckInput } from '@idv/capture-checks/engine';
import { createLogger } from '@idv/observability';
import { checkEngine, loadCheckerConfig } from './config.ts';
import type { LaneReply } from './heavyLane.ts';

const settings = loadCheckerConfig(process.env);
const logger = createLogger({ service: 'capture-checker-heavy-lane', level: settings.LOG_LEVEL });
const engine = checkEngine(settings, 1, logger);

process.on('message', ({ id, input }: { id: number; input: ThreadCheckInput }) => {
  // a Buffer arrives as the bytes of a Uint8Array
  const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  void threadChecks(engine.pool, engine.contentChecks, { ...input, bytes })
    .then(
      (report): LaneReply => ({ id, report }),
      (err: unknown): LaneReply => ({
        id,
        error: err instanceof Error ? err.message : String(err),
      }),
    )
    .then((reply) => process.send?.(reply));
});
process.once('disconnect', () => {
  void engine.close().finally(() => process.exit(0));
});
