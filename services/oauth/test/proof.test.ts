// The proof JWT check on its own: either S form of a signature, and a kid that picks the key.
import { verify } from 'node:crypto';
import { expect } from 'chai';
import { generateKeyPair } from '@idv/crypto';
import { ProofRejected, verifyProof, type ProofKey } from '../src/domain/proof.ts';
import { malleate, signProof, withSForm } from './support.ts';

const AUDIENCE = 'https://idp.example.test/community/c';

function proofKey(publicKey: string, kids: string[]): ProofKey {
  const point = Buffer.from(publicKey, 'base64');
  return {
    kids,
    jwk: {
      kty: 'EC',
      crv: 'secp256k1',
      x: point.subarray(0, 32).toString('base64url'),
      y: point.subarray(32).toString('base64url'),
    },
  };
}

const rules = (keys: ProofKey[]) => ({
  keys,
  audience: AUDIENCE,
  maxLifetime: 300,
  clockTolerance: 30,
  clientId: 'cl_testy',
});

function refusal(token: string, keys: ProofKey[]): string {
  try {
    verifyProof(token, rules(keys));
  } catch (err) {
    if (err instanceof ProofRejected) return err.message;
    throw err;
  }
  return 'accepted';
}

describe('proof_of_authentication_jwt check', () => {
  const signer = generateKeyPair();
  const bystander = generateKeyPair();
  const keys = [
    proofKey(signer.publicKey, ['signer-kid']),
    proofKey(bystander.publicKey, ['bystander-kid']),
  ];

  it('accepts a proof in either S form, as JOSE signers send it (RFC 7518 asks for neither)', () => {
    for (let i = 0; i < 8; i += 1) {
      const proof = signProof(signer.privateKey, { aud: AUDIENCE });
      for (const form of ['high', 'low'] as const) {
        const shaped = withSForm(proof, form);
        const raw = Buffer.from(shaped.split('.')[2]!, 'base64url');
        const key = {
          key: keys[0]!.jwk,
          format: 'jwk' as const,
          dsaEncoding: 'ieee-p1363' as const,
        };
        const [header, payload] = shaped.split('.');
        expect(verify('sha256', Buffer.from(`${header}.${payload}`), key, raw), form).to.equal(
          true,
        );
        expect(refusal(shaped, keys), form).to.equal('accepted');
      }
      expect(malleate(proof)).not.to.equal(proof);
    }
  });

  it('still refuses a twin that is no signature: s of zero, or past the order', () => {
    const proof = signProof(signer.privateKey, { aud: AUDIENCE });
    const [header, payload, signature] = proof.split('.');
    const raw = Buffer.from(signature!, 'base64url');
    const zero = Buffer.concat([raw.subarray(0, 32), Buffer.alloc(32)]);
    const huge = Buffer.concat([raw.subarray(0, 32), Buffer.alloc(32, 0xff)]);
    for (const bad of [zero, huge]) {
      expect(refusal(`${header}.${payload}.${bad.toString('base64url')}`, keys)).to.match(
        /not trusted/,
      );
    }
  });

  it('checks a proof with a kid only against the key that kid names', () => {
    const named = (kid: unknown) =>
      signProof(signer.privateKey, { aud: AUDIENCE }, { kid } as { kid: string });
    expect(refusal(named('signer-kid'), keys)).to.equal('accepted');
    expect(refusal(named('bystander-kid'), keys)).to.match(/not trusted/);
    expect(refusal(named('no-such-kid'), keys)).to.match(/names no trusted key/);
    expect(refusal(named(7), keys)).to.match(/kid must be a string/);
  });

  it('holds a proof that names a client (azp) to that client', () => {
    const proof = (azp: string) => signProof(signer.privateKey, { aud: AUDIENCE, azp });
    expect(refusal(proof('cl_testy'), keys)).to.equal('accepted');
    expect(refusal(proof('cl_other'), keys)).to.match(/another client/);
  });

  it('names a service key by its keyId, in base64 or base64url', () => {
    const point = Buffer.from(signer.publicKey, 'base64');
    const service = [proofKey(signer.publicKey, [signer.publicKey, point.toString('base64url')])];
    for (const kid of [signer.publicKey, point.toString('base64url')]) {
      expect(refusal(signProof(signer.privateKey, { aud: AUDIENCE }, { kid }), service)).to.equal(
        'accepted',
      );
    }
  });
});
