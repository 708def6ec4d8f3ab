// The one way a request body of the form {data: encrypt(JSON)} is opened: with the shared key the
// caller's credential headers were made with, then checked against the route's contract. What
// does not decrypt or is not JSON inside is a 400 naming /data, never a 500. encryptedAnswer.ts
// is the way back.
import { VerifyBody } from '@idv/contracts';
import { DecryptError, decrypt } from '@idv/crypto';
import { BadRequest, parseBody } from '@idv/http';
import type { Static, TSchema } from '@sinclair/typebox';
import type { Credentials } from './credentials.ts';

/** The JSON inside `data`, encrypted under `sharedKey`. */
export function openEncryptedData(sharedKey: Buffer, data: string): unknown {
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

/** The payload of `{data}` in `body`, opened with the caller's shared key and checked against `schema`. */
export function openEncryptedBody<S extends TSchema>(
  credentials: Credentials,
  body: unknown,
  schema: S,
): Static<S> {
  const { data } = parseBody(VerifyBody, body);
  return parseBody(schema, openEncryptedData(credentials.sharedKey, data));
}
