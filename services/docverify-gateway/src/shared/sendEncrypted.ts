// Answers of the form {data: encrypt(JSON)} (POST /verify, the session calls), the way back of the
// bodies @idv/auth openEncryptedBody opens, and the communities a licence may use.
import { encryptedAnswer, type Credentials } from '@idv/auth';
import type { Licence } from '@idv/platform';
import type { Response } from 'express';

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
