// The heavy lane's process (heavyLane.ts): every thread it has runs at nice 19, lowered before it
// loads anything and again once the engine is loaded, so the threads started after by any of them
// (libuv's, where libvips decodes, created by whichever thread first needs one: this one or the
// module loader's; its image thread) inherit it. It ends with its worker: when the channel closes,
// even while it still loads (a worker killed meanwhile leaves no lane behind). Then the engine
// serves the checks its worker sends.
import { readdirSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Each thread of this process at nice 19 (Linux: a thread's id names it to setpriority). */
function lowerEveryThread(): void {
  let threads: number[];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    threads = [0]; // no /proc: this thread, and those it starts
  }
  for (const tid of threads) {
    try {
      setPriority(tid, 19);
    } catch {
      // ended meanwhile, or a platform without priorities: the lane still takes the costly
      // images off the worker's image threads
    }
  }
}

lowerEveryThread();
try {
  // under memory pressure the lane goes first, not its worker: its checks are check_unavailable and
  // the next costly image starts it again
  writeFileSync('/proc/self/oom_score_adj', '1000');
} catch {
  // no /proc
}
const end = () => {
  // the engine's threads get a moment to close; a lane never outlives its worker for long
  setTimeout(() => process.exit(0), 5_000).unref();
};
process.once('disconnect', end);
if (!process.connected) end();
const { serveLane } = await import('./heavyLaneServe.ts');
lowerEveryThread();
serveLane();
