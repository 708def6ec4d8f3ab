// Encryption at rest under MASTER_KEY (AES-256-GCM, 12-byte IV, optional context as AAD).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { DecryptError } from './cipher.ts';
import { freshRandom } from './randomPool.ts';

const PREFIX = 'mk1:';
/** Version byte of sealed bytes, so a future format can be told apart. */
const BYTES_VERSION = 1;

export interface SecretBox {
  seal(plaintext: string, context?: string): string;
  open(sealed: string, context?: string): string;
  /** Bytes (an image) sealed as bytes: version(1) || IV(12) || ciphertext || tag(16), no base64. */
  sealBytes(plaintext: Buffer, context?: string): Buffer;
  openBytes(sealed: Buffer, context?: string): Buffer;
}

function sealRaw(key: Buffer, plaintext: Buffer, context: string): Buffer {
  const iv = freshRandom(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

function openRaw(key: Buffer, raw: Buffer, context: string): Buffer {
  if (raw.length < 28) throw new DecryptError('sealed value is too short');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  try {
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
  } catch {
    throw new DecryptError('sealed value does not open under this MASTER_KEY');
  }
}

/** masterKey: 32 bytes; anything else is rejected so a typo cannot weaken the key. */
export function createSecretBox(masterKey: Buffer): SecretBox {
  if (masterKey.length !== 32) throw new RangeError('MASTER_KEY must decode to 32 bytes');
  const key = Buffer.from(masterKey);
  return {
    seal(plaintext, context = '') {
      return PREFIX + sealRaw(key, Buffer.from(plaintext, 'utf8'), context).toString('base64');
    },
    open(sealed, context = '') {
      if (!sealed.startsWith(PREFIX)) throw new DecryptError('not a sealed value');
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
      return openRaw(key, raw, context).toString('utf8');
    },
    sealBytes(plaintext, context = '') {
      return Buffer.concat([Buffer.of(BYTES_VERSION), sealRaw(key, plaintext, context)]);
    },
    openBytes(sealed, context = '') {
      if (sealed[0] !== BYTES_VERSION) throw new DecryptError('not sealed bytes');
      return openRaw(key, sealed.subarray(1), context);
    },
  };
}

/** Licence keys are random 256-bit strings, so an unsalted SHA-256 is a safe lookup hash. */
export function hashLicenceKey(licenceKey: string): string {
  return createHash('sha256').update(licenceKey, 'utf8').digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
