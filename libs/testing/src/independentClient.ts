// A caller written from DESIGN 2.1/2.2 alone, with node:crypto only (none of our libraries), so
// the services are checked against the pinned scheme rather than against themselves.
import { createCipheriv, createECDH, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';

export interface RawCaller {
  publicKey: string;
  privateKey: Buffer;
}

export function newCaller(): RawCaller {
  const ecdh = createECDH('secp256k1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().subarray(1).toString('base64'),
    privateKey: ecdh.getPrivateKey(),
  };
}

export function shared(caller: RawCaller, servicePublicKey: string): Buffer {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(caller.privateKey);
  return ecdh.computeSecret(
    Buffer.concat([Buffer.from([4]), Buffer.from(servicePublicKey, 'base64')]),
  );
}

export function seal(key: Buffer, text: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
}

export function unseal(key: Buffer, wire: string): string {
  const raw = Buffer.from(wire, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 16));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([
    decipher.update(raw.subarray(16, raw.length - 16)),
    decipher.final(),
  ]).toString('utf8');
}

export interface HeaderOptions {
  licenseKey: string;
  servicePublicKey: string;
  caller?: RawCaller;
  tsOffset?: number;
  uuid?: string;
  /** members added to the requestid JSON (the vendor's helper adds none) */
  requestIdExtra?: Record<string, unknown>;
}

export function credentialHeaders(options: HeaderOptions): Record<string, string> {
  const caller = options.caller ?? newCaller();
  const key = shared(caller, options.servicePublicKey);
  const requestId = {
    appid: 'com.example.acceptance',
    uuid: options.uuid ?? randomUUID(),
    ts: Math.floor(Date.now() / 1000) + (options.tsOffset ?? 0),
    ...options.requestIdExtra,
  };
  return {
    publickey: caller.publicKey,
    licensekey: seal(key, options.licenseKey),
    requestid: seal(key, JSON.stringify(requestId)),
    charset: 'utf-8',
  };
}
