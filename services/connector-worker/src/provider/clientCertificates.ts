// Client certificates for mutual TLS come only from the operator's CONNECTOR_CERT_DIR: a verifier
// names a file of its own community there (`<communityId>.<certPath>`), which is read once, with a
// size cap, and read again only when its size or modification time changes.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { CERT_FILE_NAME } from '@idv/contracts';
import { Refused } from '../outcomes.ts';

/** A PKCS#12 client certificate with its chain is a few KiB; anything far larger is not one. */
export const CLIENT_CERTIFICATE_MAX_BYTES = 64 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILE_NAME = new RegExp(CERT_FILE_NAME);

interface Cached {
  size: number;
  mtimeMs: number;
  bytes: Buffer;
}

export class ClientCertificates {
  private readonly cache = new Map<string, Cached>();

  /** dir: the operator's directory, '' when this worker has none */
  constructor(
    private readonly dir: string,
    private readonly maxBytes = CLIENT_CERTIFICATE_MAX_BYTES,
  ) {}

  /** The bytes of `name` for `communityId`; a refusal (invalid_config) for anything but a small regular file there. */
  async load(communityId: string, name: string): Promise<Buffer> {
    if (!this.dir)
      throw new Refused('invalid_config', 'certPath: this worker has no CONNECTOR_CERT_DIR');
    // the contract already allows plain names only: checked again because this opens a file
    if (!FILE_NAME.test(name) || !UUID.test(communityId))
      throw new Refused('invalid_config', 'certPath must be a plain file name');
    const file = join(this.dir, `${communityId.toLowerCase()}.${name}`);
    // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(
      (err: NodeJS.ErrnoException) => {
        throw new Refused(
          'invalid_config',
          err.code === 'ENOENT'
            ? `certPath: no certificate ${name} for this community`
            : `certPath: certificate ${name} cannot be read (${err.code ?? 'error'})`,
        );
      },
    );
    try {
      const stat = await handle.stat();
      if (!stat.isFile())
        throw new Refused('invalid_config', `certPath: ${name} is not a regular file`);
      if (stat.size > this.maxBytes)
        throw new Refused(
          'invalid_config',
          `certPath: ${name} is larger than ${this.maxBytes} bytes`,
        );
      const cached = this.cache.get(file);
      if (cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs)
        return cached.bytes;
      const bytes = await this.readCapped(handle);
      this.cache.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, bytes });
      return bytes;
    } finally {
      await handle.close();
    }
  }

  /** Reads to the end, but never more than the cap (the file may grow after fstat). */
  private async readCapped(handle: Awaited<ReturnType<typeof open>>): Promise<Buffer> {
    const buffer = Buffer.alloc(this.maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > this.maxBytes)
        throw new Refused('invalid_config', 'certPath: the certificate is too large');
    }
    return Buffer.from(buffer.subarray(0, length));
  }
}
