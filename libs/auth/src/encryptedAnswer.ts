// The one way an answer is encrypted for a caller: under the shared key its credential headers
// were made with, so a caller still on a previous service key (in its grace) can open it.
import { encrypt } from '@idv/crypto';
import type { Credentials } from './credentials.ts';

export interface EncryptedAnswerBody {
  data: string;
  /** the service public key `data` is encrypted with: the one the caller used */
  publicKey: string;
  /** present when that is a previous key: the current one, to fetch before the grace ends */
  currentPublicKey?: string;
}

export function encryptedAnswer(credentials: Credentials, value: unknown): EncryptedAnswerBody {
  return {
    data: encrypt(credentials.sharedKey, JSON.stringify(value)),
    publicKey: credentials.servicePublicKey,
    ...(credentials.previousKeyAcceptedUntil
      ? { currentPublicKey: credentials.currentServicePublicKey }
      : {}),
  };
}
