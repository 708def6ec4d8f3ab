// Random bytes for IVs, cut from a pool the CSPRNG fills 4 KiB at a time: randomBytes(16) costs
// about 5.7 µs here (OpenSSL's lock and fork check on every call), a slice of the pool 0.2 µs,
// and a request encrypts three to five times. Each slice is handed out once, and a refill takes a
// new buffer, so a slice a caller still holds never changes under it.
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/** `bytes` (at most 4096) fresh random bytes. */
export function freshRandom(bytes: number): Buffer {
  if (bytes > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} bytes at a time`);
  if (offset + bytes > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    offset = 0;
  }
  const slice = pool.subarray(offset, offset + bytes);
  offset += bytes;
  return slice;
}
