// The DESIGN 2.1 scheme against the shared interop vectors, byte for byte, plus its edges.
import { expect } from 'chai';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { ecdsaVectors as vectors } from '@idv/testing/ecdsaVectors';
import {
  DecryptError,
  ECDSA_SIGNERS,
  InvalidKeyError,
  KeyAgreement,
  decrypt,
  deriveSharedKey,
  encrypt,
  generateKeyPair,
  privateKeyBytes,
  publicKeyFromPrivate,
  signMessage,
  verifyMessage,
} from '../src/index.ts';
import { freshRandom } from '../src/randomPool.ts';

describe('crypto: interop vectors', () => {
  for (const v of vectors) {
    describe(v.name, () => {
      it('derives the caller public key from the private key', () => {
        expect(publicKeyFromPrivate(v.callerPrivateKey)).to.equal(v.callerPublicKey);
      });
      it('derives the shared key from the caller side', () => {
        expect(deriveSharedKey(v.callerPrivateKey, v.servicePublicKey).toString('base64')).to.equal(
          v.sharedKey,
        );
      });
      if (v.servicePrivateKey) {
        const servicePrivateKey = v.servicePrivateKey;
        it('derives the same shared key from the service side', () => {
          expect(publicKeyFromPrivate(servicePrivateKey)).to.equal(v.servicePublicKey);
          expect(deriveSharedKey(servicePrivateKey, v.callerPublicKey).toString('base64')).to.equal(
            v.sharedKey,
          );
        });
      }
      it('decrypts the ciphertext to the plaintext', () => {
        expect(decrypt(Buffer.from(v.sharedKey, 'base64'), v.ciphertext)).to.equal(v.plaintext);
      });
      if (v.iv) {
        const iv = v.iv;
        it('encrypts to the exact ciphertext with the fixed IV', () => {
          const key = Buffer.from(v.sharedKey, 'base64');
          expect(encrypt(key, v.plaintext, Buffer.from(iv, 'base64'))).to.equal(v.ciphertext);
        });
      }
    });
  }
});

describe('crypto: keys and ciphers', () => {
  it('round-trips with fresh key pairs from both sides', () => {
    const a = generateKeyPair();
    const b = generateKeyPair();
    const ab = deriveSharedKey(a.privateKey, b.publicKey);
    const ba = deriveSharedKey(b.privateKey, a.publicKey);
    expect(ab.equals(ba)).to.equal(true);
    expect(decrypt(ba, encrypt(ab, 'Testy McTestface ✓'))).to.equal('Testy McTestface ✓');
  });

  it('normalises 31- and 33-byte private keys to 32 bytes', () => {
    const key = Buffer.alloc(32, 7);
    key[0] = 0;
    expect(privateKeyBytes(key.subarray(1).toString('base64')).equals(key)).to.equal(true);
    const signed = Buffer.concat([Buffer.alloc(1), Buffer.alloc(32, 9)]);
    expect(privateKeyBytes(signed.toString('base64')).equals(Buffer.alloc(32, 9))).to.equal(true);
  });

  it('rejects keys of the wrong length, non-base64 and points off the curve', () => {
    expect(() => privateKeyBytes(Buffer.alloc(20).toString('base64'))).to.throw(InvalidKeyError);
    expect(() => privateKeyBytes('not base64!')).to.throw(InvalidKeyError);
    const { privateKey } = generateKeyPair();
    expect(() => deriveSharedKey(privateKey, Buffer.alloc(64, 1).toString('base64'))).to.throw(
      InvalidKeyError,
    );
    expect(() => deriveSharedKey(privateKey, Buffer.alloc(10).toString('base64'))).to.throw(
      InvalidKeyError,
    );
  });

  it('refuses tampered tags, truncated ciphertexts and the wrong key', () => {
    const key = Buffer.alloc(32, 3);
    const wire = Buffer.from(encrypt(key, 'hello'), 'base64');
    const tampered = Buffer.from(wire);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    expect(() => decrypt(key, tampered.toString('base64'))).to.throw(DecryptError);
    expect(() => decrypt(key, wire.subarray(0, 20).toString('base64'))).to.throw(DecryptError);
    expect(() => decrypt(Buffer.alloc(32, 4), wire.toString('base64'))).to.throw(DecryptError);
    expect(() => decrypt(key, '%%%')).to.throw(DecryptError);
  });

  it('accepts an IV of 16 ASCII hex characters as peers send', () => {
    const key = Buffer.alloc(32, 5);
    const wire = encrypt(key, '{"a":1}', Buffer.from('0123456789abcdef', 'ascii'));
    expect(decrypt(key, wire)).to.equal('{"a":1}');
  });
});

describe('crypto: KeyAgreement cache', () => {
  it('returns the derived key and evicts the least recently used entry', () => {
    const service = generateKeyPair();
    const callers = [generateKeyPair(), generateKeyPair(), generateKeyPair()];
    const agreement = new KeyAgreement(service.privateKey, 2);
    const [c0, c1, c2] = callers.map((c) => c.publicKey) as [string, string, string];
    const k0 = agreement.sharedKey(c0);
    expect(k0.equals(deriveSharedKey(service.privateKey, c0))).to.equal(true);
    agreement.sharedKey(c1);
    agreement.sharedKey(c0); // c0 is now the most recent
    agreement.sharedKey(c2); // evicts c1
    expect(agreement.size).to.equal(2);
    expect(agreement.sharedKey(c0)).to.equal(k0); // same Buffer instance: served from the cache
  });
});

describe('crypto: ECDSA signatures', () => {
  it('signs low-S raw r||s and verifies, rejecting other messages and keys', () => {
    const pair = generateKeyPair();
    for (let i = 0; i < 20; i++) {
      const sig = Buffer.from(signMessage(pair.privateKey, `message ${i}`), 'base64');
      expect(sig.length).to.equal(64);
      expect(sig[32]! < 0x80).to.equal(true);
      expect(verifyMessage(pair.publicKey, `message ${i}`, sig.toString('base64'))).to.equal(true);
      expect(verifyMessage(pair.publicKey, `message ${i + 1}`, sig.toString('base64'))).to.equal(
        false,
      );
    }
    const other = generateKeyPair();
    expect(
      verifyMessage(other.publicKey, 'message 0', signMessage(pair.privateKey, 'message 0')),
    ).to.equal(false);
    expect(verifyMessage(pair.publicKey, 'x', 'short')).to.equal(false);
    // the malleated twin (s' = n - s) verifies under node:crypto but not here
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const sig = Buffer.from(signMessage(pair.privateKey, 'message 0'), 'base64');
    const high = (n - BigInt(`0x${sig.subarray(32).toString('hex')}`))
      .toString(16)
      .padStart(64, '0');
    const twin = Buffer.concat([sig.subarray(0, 32), Buffer.from(high, 'hex')]);
    expect(verifyMessage(pair.publicKey, 'message 0', twin.toString('base64'))).to.equal(false);
  });

  it('is deterministic (RFC 6979) and matches the published secp256k1 vector byte for byte', () => {
    // private key 1, message "Satoshi Nakamoto": the widely published RFC 6979 test vector
    const one = Buffer.alloc(32);
    one[31] = 1;
    const signature = signMessage(one.toString('base64'), 'Satoshi Nakamoto');
    expect(Buffer.from(signature, 'base64').toString('hex')).to.equal(
      '934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d8' +
        '2442ce9d2b916064108014783e923ec36b49743e2ffa1c4496f01a512aafd9e5',
    );
    expect(signMessage(one.toString('base64'), 'Satoshi Nakamoto')).to.equal(signature);
  });

  it("verifies with node:crypto's own ECDSA on a JWK of the public key", () => {
    const pair = generateKeyPair();
    const point = Buffer.from(pair.publicKey, 'base64');
    const key = createPublicKey({
      format: 'jwk',
      key: {
        kty: 'EC',
        crv: 'secp256k1',
        x: point.subarray(0, 32).toString('base64url'),
        y: point.subarray(32).toString('base64url'),
      },
    });
    const signature = Buffer.from(signMessage(pair.privateKey, 'a callback body'), 'base64');
    expect(
      verify(
        'sha256',
        Buffer.from('a callback body'),
        { key, dsaEncoding: 'ieee-p1363' },
        signature,
      ),
    ).to.equal(true);
  });

  it('refuses a scalar that is not a secp256k1 private key', () => {
    expect(() => signMessage(Buffer.alloc(32).toString('base64'), 'x')).to.throw(InvalidKeyError);
    expect(() => signMessage(Buffer.alloc(32, 0xff).toString('base64'), 'x')).to.throw(
      InvalidKeyError,
    );
  });
});

describe('crypto: the signer builds', () => {
  it('signs with the native addon here, byte for byte as the WebAssembly build', () => {
    const { chosen, wasm } = ECDSA_SIGNERS;
    // the secp256k1 package ships a prebuilt addon for this platform (linux x64)
    if (process.platform === 'linux' && process.arch === 'x64')
      expect(chosen.name).to.equal('libsecp256k1 (native addon)');
    for (let i = 0; i < 50; i++) {
      const scalar = privateKeyBytes(generateKeyPair().privateKey);
      const digest = createHash('sha256').update(`message ${i}`).digest();
      expect(Buffer.from(chosen.sign(digest, scalar)).toString('hex')).to.equal(
        Buffer.from(wasm.sign(digest, scalar)).toString('hex'),
      );
    }
    const zero = Buffer.alloc(32);
    expect(chosen.isPrivate(zero)).to.equal(false);
    expect(wasm.isPrivate(zero)).to.equal(false);
  });
});

describe('crypto: the random pool', () => {
  it('hands out fresh bytes that stay as they were after refills', () => {
    const first = freshRandom(16);
    const copy = Buffer.from(first);
    const seen = new Set<string>([copy.toString('hex')]);
    for (let i = 0; i < 2000; i++) seen.add(freshRandom(16).toString('hex')); // several refills
    expect(seen.size).to.equal(2001);
    expect(first.equals(copy)).to.equal(true);
    expect(() => freshRandom(4097)).to.throw(RangeError);
  });
});
