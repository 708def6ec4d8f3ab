// Credential crypto: what the shared-key cache saves, and what one header costs to open.
import { decrypt, deriveSharedKey, encrypt, generateKeyPair, KeyAgreement } from '@idv/crypto';
import { measure, type Comparison } from './harness.ts';

export async function cryptoBenchmarks(): Promise<Comparison[]> {
  const service = generateKeyPair();
  const caller = generateKeyPair();
  const agreement = new KeyAgreement(service.privateKey);
  agreement.sharedKey(caller.publicKey);
  const key = deriveSharedKey(service.privateKey, caller.publicKey);
  const header = encrypt(key, JSON.stringify({ appid: 'bench', uuid: 'x'.repeat(36), ts: 1 }));

  const uncached = await measure('ECDH derive per request', () =>
    deriveSharedKey(service.privateKey, caller.publicKey),
  );
  const cached = await measure('cached shared key', () => agreement.sharedKey(caller.publicKey));
  const openUncached = await measure('derive + decrypt requestid', () =>
    decrypt(deriveSharedKey(service.privateKey, caller.publicKey), header),
  );
  const openCached = await measure('cache + decrypt requestid', () =>
    decrypt(agreement.sharedKey(caller.publicKey), header),
  );
  return [
    {
      suite: 'shared key',
      baseline: uncached,
      candidate: cached,
      note: 'the bounded LRU of derived keys (DESIGN 2.1)',
    },
    {
      suite: 'open requestid',
      baseline: openUncached,
      candidate: openCached,
      note: 'header decryption cost per request',
    },
  ];
}
