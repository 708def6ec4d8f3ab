// Callers that keep the service public key they fetched, as the vendor's helper caches it, written
// from DESIGN 2.1/2.2 with node:crypto only; and the key operations of the rotation tests.
import { createPublicKey, verify } from 'node:crypto';
import {
  credentialHeaders,
  newCaller,
  seal,
  shared,
  unseal,
  type RawCaller,
} from './independentClient.ts';

export interface PublishedKeys {
  publicKey: string;
  previousKeys: { publicKey: string; acceptedUntil: string }[];
}

export async function publishedKeys(base: string): Promise<PublishedKeys> {
  return (await (await fetch(`${base}/publickeys`)).json()) as PublishedKeys;
}

/** A caller holding one service public key (fetched once, never refreshed). */
export class CachingCaller {
  readonly party: RawCaller = newCaller();

  constructor(
    readonly base: string,
    readonly servicePublicKey: string,
    private readonly licenseKey: string,
  ) {}

  static async at(base: string, licenseKey: string): Promise<CachingCaller> {
    return new CachingCaller(base, (await publishedKeys(base)).publicKey, licenseKey);
  }

  get sharedKey(): Buffer {
    return shared(this.party, this.servicePublicKey);
  }

  headers(): Record<string, string> {
    return credentialHeaders({
      licenseKey: this.licenseKey,
      servicePublicKey: this.servicePublicKey,
      caller: this.party,
    });
  }

  call(method: string, path: string, body?: unknown): Promise<Response> {
    const headers = { ...this.headers(), 'content-type': 'application/json' };
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = JSON.stringify(body);
    return fetch(`${this.base}${path}`, init);
  }

  /** `{data: encrypt(payload)}` under this caller's shared key. */
  sealed(payload: unknown): { data: string } {
    return { data: seal(this.sharedKey, JSON.stringify(payload)) };
  }

  open<T>(wire: string): T {
    return JSON.parse(unseal(this.sharedKey, wire)) as T;
  }
}

/** DELETE /servicekey/{keyId} with a system licence: the service's key is replaced. */
export async function resetServiceKey(base: string, systemLicence: string): Promise<string> {
  const admin = await CachingCaller.at(base, systemLicence);
  const path = `/servicekey/${encodeURIComponent(admin.servicePublicKey)}`;
  const res = await admin.call('DELETE', path);
  if (res.status !== 200 && res.status !== 204) throw new Error(`reset answered ${res.status}`);
  return (await publishedKeys(base)).publicKey;
}

/** Whether a `webhook-signature` header holds a v1k entry `publicKey` verifies. */
export function v1kVerifies(header: string, content: string, publicKey: string): boolean {
  const point = Buffer.from(publicKey, 'base64');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'secp256k1',
      x: point.subarray(0, 32).toString('base64url'),
      y: point.subarray(32).toString('base64url'),
    },
    format: 'jwk',
  });
  return header
    .split(' ')
    .filter((entry) => entry.startsWith('v1k,'))
    .some((entry) =>
      verify(
        'sha256',
        Buffer.from(content),
        { key, dsaEncoding: 'ieee-p1363' },
        Buffer.from(entry.slice(4), 'base64'),
      ),
    );
}
