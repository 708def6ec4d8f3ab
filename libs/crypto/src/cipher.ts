// AES-256-GCM in the wire format of DESIGN 2.1: base64(IV(16) || ciphertext || tag(16)), no AAD.
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { freshRandom } from './randomPool.ts';

const IV_BYTES = 16;
const TAG_BYTES = 16;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

export class DecryptError extends Error {
  override name = 'DecryptError';
}

export function encrypt(
  key: Buffer,
  plaintext: string,
  iv: Buffer = freshRandom(IV_BYTES),
): string {
  if (key.length !== 32) throw new RangeError('key must be 32 bytes');
  if (iv.length !== IV_BYTES) throw new RangeError('iv must be 16 bytes');
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
}

export function decrypt(key: Buffer, wire: string): string {
  if (typeof wire !== 'string' || !BASE64.test(wire))
    throw new DecryptError('ciphertext is not base64');
  const raw = Buffer.from(wire, 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new DecryptError('ciphertext is too short');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  try {
    const body = raw.subarray(IV_BYTES, raw.length - TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new DecryptError('ciphertext does not authenticate under this key');
  }
}
