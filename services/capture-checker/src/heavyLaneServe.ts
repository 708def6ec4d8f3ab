// The engine of the heavy lane (heavyLane.ts): one image thread and the MRZ OCR, serving the
// checks its worker sends over the IPC channel; it closes them and ends when the channel closes.
import { threadChecks, type ThreadCheckInput } from '@idv/capture-checks/engine';
import { createLogger } from '@idv/observability';
import { loadCheckerConfig } from './config.ts';
import { checkEngine } from './engine.ts';
import type { LaneReply } from './heavyLane.ts';

export function serveLane(): void {
  const settings = loadCheckerConfig(process.env);
  const logger = createLogger({ service: 'capture-checker-heavy-lane', level: settings.LOG_LEVEL });
  const engine = checkEngine(settings, 1, logger);
  process.on('message', ({ id, input }: { id: number; input: ThreadCheckInput }) => {
    void threadChecks(engine.pool, engine.contentChecks, input)
      .then(
        (report): LaneReply => ({ id, report }),
        (err: unknown): LaneReply => ({
          id,
          error: err instanceof Error ? err.message : String(err),
        }),
      )
      // a reply its worker can no longer take (it is ending) is dropped
      .then((reply) => process.send?.(reply, () => undefined));
  });
  const close = () => void engine.close().finally(() => process.exit(0));
  if (!process.connected) close();
  else process.once('disconnect', close);
}
