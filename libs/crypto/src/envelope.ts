// Envelope encryption (issue 26): a value is sealed under a data key (AES-256-GCM), the data key is
// wrapped under a key-encryption key (KEK) that has an id, and every sealed value names the data
// key that opens it. Destroying a data key makes everything sealed under it unreadable wherever a
// copy went (crypto-shredding); rotating a KEK re-wraps the small data keys, never the data.
//   text:  dk1.<data key id, 16 bytes base64url>.<base64 of IV(12) || ciphertext || tag(16)>
//   bytes: 0x02 || data key id(16) || IV(12) || ciphertext || tag(16)
// The data key id and the caller's context are the AAD, so a value cannot be moved to another key
// or another record.
import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import { DecryptError } from './cipher.ts';
import { freshRandom } from './randomPool.ts';

export const DATA_KEY_BYTES = 32;
const TEXT_PREFIX = 'dk1.';
const BYTES_VERSION = 2;
const ID_BYTES = 16;
const TEXT_ID_CHARS = 22; // 16 bytes in base64url

const idBytes = (id: string): Buffer => {
  const hex = id.replaceAll('-', '');
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new RangeError('a data key id is a UUID');
  return Buffer.from(hex, 'hex');
};
const idOf = (bytes: Buffer): string => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

function gcmSeal(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const iv = freshRandom(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

function gcmOpen(key: Buffer, raw: Buffer, aad: Buffer, what: string): Buffer {
  if (raw.length < 28) throw new DecryptError(`${what} is too short`);
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(aad);
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  try {
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
  } catch {
    throw new DecryptError(`${what} does not open under its key`);
  }
}

/** A data key in the clear, as long as a caller holds it: seals and opens values under it. */
export class DataKey {
  private readonly idRaw: Buffer;
  private readonly key: Buffer;

  constructor(
    readonly id: string,
    key: Buffer,
  ) {
    if (key.length !== DATA_KEY_BYTES) throw new RangeError('a data key is 32 bytes');
    this.idRaw = idBytes(id);
    this.key = Buffer.from(key);
  }

  /** A new random data key with a new id. */
  static generate(): DataKey {
    return new DataKey(randomUUID(), randomBytes(DATA_KEY_BYTES));
  }

  /** The key's bytes, to be wrapped under a KEK; never stored or sent in the clear. */
  material(): Buffer {
    return Buffer.from(this.key);
  }

  private aad(context: string): Buffer {
    return Buffer.concat([this.idRaw, Buffer.from(context, 'utf8')]);
  }

  seal(plaintext: string, context = ''): string {
    const raw = gcmSeal(this.key, Buffer.from(plaintext, 'utf8'), this.aad(context));
    return `${TEXT_PREFIX}${this.idRaw.toString('base64url')}.${raw.toString('base64')}`;
  }

  open(sealed: string, context = ''): string {
    if (dataKeyIdOf(sealed) !== this.id)
      throw new DecryptError('the value is not sealed under this data key');
    const raw = Buffer.from(sealed.slice(TEXT_PREFIX.length + TEXT_ID_CHARS + 1), 'base64');
    return gcmOpen(this.key, raw, this.aad(context), 'the sealed value').toString('utf8');
  }

  sealBytes(plaintext: Buffer, context = ''): Buffer {
    const raw = gcmSeal(this.key, plaintext, this.aad(context));
    return Buffer.concat([Buffer.of(BYTES_VERSION), this.idRaw, raw]);
  }

  openBytes(sealed: Buffer, context = ''): Buffer {
    if (dataKeyIdOf(sealed) !== this.id)
      throw new DecryptError('the bytes are not sealed under this data key');
    return gcmOpen(this.key, sealed.subarray(1 + ID_BYTES), this.aad(context), 'the sealed bytes');
  }
}

/** The id of the data key a value is sealed under; undefined for anything else (an mk1 value). */
export function dataKeyIdOf(sealed: string | Buffer): string | undefined {
  if (typeof sealed === 'string') {
    if (!sealed.startsWith(TEXT_PREFIX) || sealed[TEXT_PREFIX.length + TEXT_ID_CHARS] !== '.')
      return undefined;
    const raw = Buffer.from(
      sealed.slice(TEXT_PREFIX.length, TEXT_PREFIX.length + TEXT_ID_CHARS),
      'base64url',
    );
    return raw.length === ID_BYTES ? idOf(raw) : undefined;
  }
  if (sealed.length < 1 + ID_BYTES + 28 || sealed[0] !== BYTES_VERSION) return undefined;
  return idOf(sealed.subarray(1, 1 + ID_BYTES));
}

/** What a wrapped data key is bound to: its KEK and its own id. */
const wrapAad = (kekId: string, dataKeyId: string) =>
  Buffer.from(`kek:${kekId}|dk:${dataKeyId}`, 'utf8');

/** A data key wrapped under a KEK held in this process (the local provider): 60 bytes. */
export function wrapDataKey(kek: Buffer, kekId: string, dataKeyId: string, key: Buffer): Buffer {
  return gcmSeal(kek, key, wrapAad(kekId, dataKeyId));
}

export function unwrapDataKey(
  kek: Buffer,
  kekId: string,
  dataKeyId: string,
  wrapped: Buffer,
): Buffer {
  return gcmOpen(kek, wrapped, wrapAad(kekId, dataKeyId), 'the wrapped data key');
}
