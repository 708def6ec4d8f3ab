// How a provider signs a connector callback (scheme v2): HMAC-SHA256 with the verifier's callback
// secret over "<timestamp>\n<METHOD>\n<path?query>\n<raw body>", the path and query exactly as sent
// (the callback URL the provider was given). Signing the path and query binds a callback to its
// verifier, run and kind; the timestamp bounds its life. Newlines separate the parts because a
// request target cannot hold one, so no two callbacks share signed content.
import { createHmac } from 'node:crypto';

/** Seconds a callback's timestamp may be from now: a captured callback is no use later. */
export const CALLBACK_WINDOW_S = 300;

/** What of a callback request its signature covers. */
export interface SignedCallback {
  /** x-callback-timestamp: unix seconds */
  timestamp: string;
  method: string;
  /** the request target: path and query, as sent */
  target: string;
  body: Buffer | string;
}

/** The x-callback-signature value of `callback` (also what tests and the sandbox sign with). */
export function callbackSignature(secret: string, callback: SignedCallback): string {
  const mac = createHmac('sha256', secret)
    .update(`${callback.timestamp}\n${callback.method.toUpperCase()}\n${callback.target}\n`)
    .update(callback.body)
    .digest('hex');
  return `v2=${mac}`;
}
