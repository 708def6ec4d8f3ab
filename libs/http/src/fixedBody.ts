// A body fixed for the life of the process (a file of the API reference's viewer, the OpenAPI
// document) sent brotli- or gzip-compressed to a client that takes it: each encoding is made once,
// on the first request that asks for it, off the event loop, and kept.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Brotli at quality 9, not 11: Swagger UI's 1.7 MB bundle comes to 392 kB in 0.3 s, where 11
 * saves another 33 kB but takes 5 s, which the first reader of the page would wait for.
 */
const ENCODERS = {
  br: (bytes: Buffer) =>
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gzip: (bytes: Buffer) => gzipped(bytes, { level: 9 }),
};
type Encoding = keyof typeof ENCODERS;
const PREFERRED: readonly Encoding[] = ['br', 'gzip'];

/** Below this a compressed copy saves less than the header costs. */
const MIN_COMPRESSED = 1024;

export interface FixedBody {
  /** sends the body, compressed when the client takes it; the caller sets the type and caching */
  send(req: Request, res: Response): Promise<void>;
}

/**
 * `load` is called on the first request (again after it failed); `compress: false` for what is
 * compressed already (PNG).
 */
export function fixedBody(load: () => Promise<Buffer>, compress = true): FixedBody {
  let plain: Promise<Buffer> | undefined;
  const copies = new Map<Encoding, Promise<Buffer>>();
  const kept = (made: Promise<Buffer>, forget: () => void) => {
    made.catch(forget);
    return made;
  };
  const body = () =>
    (plain ??= kept(load(), () => {
      plain = undefined;
    }));
  const copy = async (encoding: Encoding) => {
    let made = copies.get(encoding);
    if (!made) {
      made = kept(
        body().then((bytes) => ENCODERS[encoding](bytes)),
        () => copies.delete(encoding),
      );
      copies.set(encoding, made);
    }
    return made;
  };
  return {
    async send(req, res) {
      const bytes = await body();
      // brotli whenever taken: browsers list gzip first at the same weight
      const encoding =
        compress && bytes.length >= MIN_COMPRESSED
          ? PREFERRED.find((e) => req.acceptsEncodings(e) === e)
          : undefined;
      if (compress) res.vary('Accept-Encoding');
      if (!encoding) {
        res.send(bytes);
        return;
      }
      const compressed = await copy(encoding);
      res.set('Content-Encoding', encoding).send(compressed);
    },
  };
}
