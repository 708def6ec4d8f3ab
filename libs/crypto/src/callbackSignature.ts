// Callback signatures in the Standard Webhooks layout: "v1,<HMAC>" with the webhook secret and
// "v1k,<r||s>" ECDSA with the webhooks service key, over `${id}.${timestamp}.${body}`; and
// "v1o,<HMAC>" over `${id}.${timestamp}.${origin}.${body}`, which signs the webhook-origin header
// (Standard Webhooks libraries skip versions they do not know).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { signMessage, verifyMessage } from './ecdsa.ts';

export const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_S = 300;

export interface CallbackToSign {
  id: string;
  /** epoch seconds */
  timestamp: number;
  /** the exact bytes sent */
  body: string;
  /** one or more whsec_ secrets (several during a rotation grace period) */
  secrets: string[];
  /**
   * base64 secp256k1 private keys of the webhooks service, one v1k entry each (the dispatcher
   * gives its current key only: a key a reset replaced never signs)
   */
  servicePrivateKeys?: string[];
  /** the event's origin, sent as the webhook-origin header: signed by a v1o entry per secret */
  origin?: string;
}

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

function secretBytes(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

function signedContent(id: string, timestamp: number, body: string): string {
  return `${id}.${timestamp}.${body}`;
}

function originContent(id: string, timestamp: number, origin: string, body: string): string {
  return `${id}.${timestamp}.${origin}.${body}`;
}

function hmac(secret: string, content: string): string {
  return createHmac('sha256', secretBytes(secret)).update(content, 'utf8').digest('base64');
}

/** The value of the `webhook-signature` header. */
export function signCallback(callback: CallbackToSign): string {
  const content = signedContent(callback.id, callback.timestamp, callback.body);
  const entries = callback.secrets.map((secret) => `v1,${hmac(secret, content)}`);
  for (const privateKey of callback.servicePrivateKeys ?? [])
    entries.push(`v1k,${signMessage(privateKey, content)}`);
  const { origin } = callback;
  if (origin !== undefined) {
    const signed = originContent(callback.id, callback.timestamp, origin, callback.body);
    for (const secret of callback.secrets) entries.push(`v1o,${hmac(secret, signed)}`);
  }
  return entries.join(' ');
}

export interface CallbackToVerify {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** the receiver's whsec_ secret; checks the v1 entries */
  secret?: string;
  /** the webhooks service public key from /publickeys; checks the v1k entries */
  servicePublicKey?: string;
  toleranceSeconds?: number;
  now?: number;
}

/**
 * ok: the body is the service's. With the receiver's secret, `origin` is the webhook-origin header
 * when a v1o entry signs it ("platform" or "intake"), undefined when none does.
 */
export type CallbackVerdict = { ok: true; origin?: string } | { ok: false; reason: string };

function header(headers: CallbackToVerify['headers'], name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function sameBase64(a: string, b: string): boolean {
  const left = Buffer.from(a, 'base64');
  const right = Buffer.from(b, 'base64');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function verifyCallback(input: CallbackToVerify): CallbackVerdict {
  const id = header(input.headers, 'webhook-id');
  const timestamp = header(input.headers, 'webhook-timestamp');
  const signature = header(input.headers, 'webhook-signature');
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing webhook headers' };
  const ts = Number(timestamp);
  if (!Number.isInteger(ts)) return { ok: false, reason: 'webhook-timestamp is not an integer' };
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - ts) > (input.toleranceSeconds ?? DEFAULT_TOLERANCE_S)) {
    return { ok: false, reason: 'webhook-timestamp is outside the tolerance' };
  }
  if (!input.secret && !input.servicePublicKey)
    return { ok: false, reason: 'no key to verify with' };
  const content = signedContent(id, ts, input.body);
  const expected = input.secret ? hmac(input.secret, content) : undefined;
  const entries = signature.split(' ').map((entry) => entry.split(',', 2));
  const matches = entries.some(
    ([version, value]) =>
      value !== undefined &&
      ((version === 'v1' && expected !== undefined && sameBase64(value, expected)) ||
        (version === 'v1k' &&
          input.servicePublicKey !== undefined &&
          verifyMessage(input.servicePublicKey, content, value))),
  );
  if (!matches) return { ok: false, reason: 'no signature matches' };
  const origin = header(input.headers, 'webhook-origin');
  if (origin === undefined || !input.secret) return { ok: true };
  const signedOrigin = hmac(input.secret, originContent(id, ts, origin, input.body));
  const originSigned = entries.some(
    ([version, value]) =>
      version === 'v1o' && value !== undefined && sameBase64(value, signedOrigin),
  );
  return originSigned ? { ok: true, origin } : { ok: true };
}
