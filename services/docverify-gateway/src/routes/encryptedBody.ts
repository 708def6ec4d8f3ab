// Bodies of the form {data: encrypt(JSON)} (POST /verify, the session calls): opened with the
// caller's shared key and validated against the contract, else 400 naming what is wrong; and
// answers in the same form.
import { encryptedAnswer, type Credentials } from '@idv/auth';
import { VerifyBody } from '@idv/contracts';
import { DecryptError, decrypt } from '@idv/crypto';
import { BadRequest, parseBody } from '@idv/http';
import type { Licence } from '@idv/platform';
import type { Static, TSchema } from '@sinclair/typebox';
import type { Response } from 'express';

function openData(sharedKey: Buffer, data: string): unknown {
  let plaintext: string;
  try {
    plaintext = decrypt(sharedKey, data);
  } catch (err) {
    if (err instanceof DecryptError)
      throw new BadRequest('data does not decrypt with the shared key', [
        { path: '/data', message: err.message },
      ]);
    throw err;
  }
  try {
    return JSON.parse(plaintext);
  } catch {
    throw new BadRequest('data does not hold JSON', [
      { path: '/data', message: 'is not JSON once decrypted' },
    ]);
  }
}

/** The payload of `{data}` in `body`, checked against `schema`. */
export function openBody<S extends TSchema>(
  credentials: Credentials,
  body: unknown,
  schema: S,
): Static<S> {
  const { data } = parseBody(VerifyBody, body);
  return parseBody(schema, openData(credentials.sharedKey, data));
}

/** Answers `{data: encrypt(value), publicKey}` under the shared key the caller used (an old
 *  service key during its grace included: see encryptedAnswer). */
export function sendEncrypted(
  res: Response,
  credentials: Credentials,
  value: unknown,
  status = 200,
): void {
  res.status(status).json(encryptedAnswer(credentials, value));
}

/** The communities a licence may use: every one for a system licence. */
export function scopeOf(licence: Licence): string[] | 'all' {
  return licence.level === 'system' ? 'all' : licence.communities.map((c) => c.id);
}
