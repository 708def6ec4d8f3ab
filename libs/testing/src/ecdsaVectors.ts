// The shared interop vectors of the callers' key agreement (ECDH on secp256k1, AES-256-GCM), read
// once: libs/crypto checks its scheme against them byte for byte, the root suites call the
// services as the vectors' caller.
import { readFileSync } from 'node:fs';

export interface EcdsaVector {
  name: string;
  source?: string;
  callerPrivateKey: string;
  callerPublicKey: string;
  servicePrivateKey?: string;
  servicePublicKey: string;
  sharedKey: string;
  iv?: string;
  plaintext: string;
  ciphertext: string;
}

export const ecdsaVectors = (
  JSON.parse(readFileSync(new URL('./ecdsa-vectors.json', import.meta.url), 'utf8')) as {
    vectors: EcdsaVector[];
  }
).vectors;
