// A software WebAuthn authenticator for tests: a P-256 key from node:crypto that makes real
// registration (attestation 'none') and assertion responses, in the JSON form a browser sends.
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

/** What a ceremony may do differently from an honest browser and authenticator. */
export interface Ceremony {
  origin: string;
  /** the challenge signed instead of the options' */
  challenge?: string;
  /** the RP ID hashed into the authenticator data instead of the options' */
  rpId?: string;
  /** the sign count reported instead of the next one */
  signCount?: number;
  /** whether the user was verified (UV); the authenticator's setting when absent */
  userVerified?: boolean;
  /** false: no user handle in the assertion (a browser may leave it out for a known user) */
  userHandle?: boolean;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64 = (data: Uint8Array) => Buffer.from(data).toString('base64url');

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

function authenticatorData(rpId: string, flags: number, signCount: number, attested?: Buffer) {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(signCount);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  /** the user handle (base64url) the credential was made for */
  userHandle: string | undefined;
  signCount = 0;

  /**
   * @param settings.userVerified whether it verifies its user (UV); true unless said
   * @param settings.counts whether it counts its signatures (synced passkeys often report 0)
   */
  constructor(private readonly settings: { userVerified?: boolean; counts?: boolean } = {}) {}

  get id(): string {
    return b64(this.credentialId);
  }

  /** the credential's public key as a COSE EC2 key (ES256) */
  private coseKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  private flags(ceremony: Ceremony): number {
    const verified = ceremony.userVerified ?? this.settings.userVerified ?? true;
    return FLAG_UP | (verified ? FLAG_UV : 0);
  }

  register(
    options: PublicKeyCredentialCreationOptionsJSON,
    ceremony: Ceremony,
  ): RegistrationResponseJSON {
    this.userHandle = options.user.id;
    const data = clientData(
      'webauthn.create',
      ceremony.challenge ?? options.challenge,
      ceremony.origin,
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    const rpId = ceremony.rpId ?? options.rp.id ?? new URL(ceremony.origin).hostname;
    const authData = authenticatorData(
      rpId,
      this.flags(ceremony) | FLAG_AT,
      this.signCount,
      attested,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(data),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  assert(
    options: PublicKeyCredentialRequestOptionsJSON,
    ceremony: Ceremony,
  ): AuthenticationResponseJSON {
    if (this.settings.counts !== false) this.signCount += 1;
    const data = clientData(
      'webauthn.get',
      ceremony.challenge ?? options.challenge,
      ceremony.origin,
    );
    const rpId = ceremony.rpId ?? options.rpId ?? new URL(ceremony.origin).hostname;
    const authData = authenticatorData(
      rpId,
      this.flags(ceremony),
      ceremony.signCount ?? this.signCount,
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), this.keys.privateKey);
    const userHandle = ceremony.userHandle === false ? undefined : this.userHandle;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(data),
        authenticatorData: b64(authData),
        signature: b64(signature),
        ...(userHandle === undefined ? {} : { userHandle }),
      },
      clientExtensionResults: {},
    };
  }
}
