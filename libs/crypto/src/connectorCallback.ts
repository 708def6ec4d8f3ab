// How a provider signs a connector callback (scheme v2): HMAC-SHA256 with the verifier's callback
// secret over "<timestamp>\n<METHOD>\n<path?query>\n<raw body>", the path and query exactly as sent
// (the callback URL the provider was given). Signing the path and query binds a callback to its
// verifier, run and kind; the timestamp bounds its life. Newlines separate the parts because a
// request target cannot hold one, so no two callbacks share signed content. (The webhook callbacks
// the platform sends are signed by callbackSignature.ts.)
import { createHmac } from 'node:crypto';

/** Seconds a callback's timestamp may be from now: a captured callback is no use later. */
export const CONNECTOR_CALLBACK_WINDOW_S = 300;

/** What of a callback request its signature covers. */
export interface SignedConnectorCallback {
  /** x-callback-timestamp: unix seconds */
  timestamp: string;
  method: string;
  /** the request target: path and query, as sent */
  target: string;
  body: Buffer | string;
}

/**
 * The x-callback-signature value of `callback`: what the docverify gateway checks and the tests
 * sign with. The provider sandbox signs with a copy of its own, written from this description, as
 * an outside provider would.
 */
export function connectorCallbackSignature(
  secret: string,
  callback: SignedConnectorCallback,
): string {
  const mac = createHmac('sha256', secret)
    .update(`${callback.timestamp}\n${callback.method.toUpperCase()}\n${callback.target}\n`)
    .update(callback.body)
    .digest('hex');
  return `v2=${mac}`;
}
