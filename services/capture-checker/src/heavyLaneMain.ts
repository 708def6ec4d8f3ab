// The heavy lane's process (heavyLane.ts): its priority is lowered before it loads anything, so
// every thread it starts after (libuv's, where libvips decodes, and its image thread) runs at nice
// 19; then the engine serves the checks its worker sends until the channel closes.
import { setPriority } from 'node:os';

try {
  setPriority(19);
} catch {
  // a platform without priorities: the lane still takes the costly images off the image threads
}
await import('./heavyLaneServe.ts');
