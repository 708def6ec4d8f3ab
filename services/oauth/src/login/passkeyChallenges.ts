// WebAuthn challenges without storage: a random nonce and its MAC over the interaction, the
// ceremony and the account, so a challenge serves only the sign-in (and account) it was made for.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type Ceremony = 'sign-in' | 'second-factor' | 'register';

const NONCE = 16;
const MAC = 16;

export class PasskeyChallenges {
  constructor(private readonly key: Buffer) {}

  private mac(nonce: Buffer, uid: string, ceremony: Ceremony, accountId: string): Buffer {
    return createHmac('sha256', this.key)
      .update(`${uid}|${ceremony}|${accountId}|`)
      .update(nonce)
      .digest()
      .subarray(0, MAC);
  }

  issue(uid: string, ceremony: Ceremony, accountId = ''): string {
    const nonce = randomBytes(NONCE);
    return Buffer.concat([nonce, this.mac(nonce, uid, ceremony, accountId)]).toString('base64url');
  }

  check(challenge: string, uid: string, ceremony: Ceremony, accountId = ''): boolean {
    const raw = Buffer.from(challenge, 'base64url');
    if (raw.length !== NONCE + MAC) return false;
    const expected = this.mac(raw.subarray(0, NONCE), uid, ceremony, accountId);
    return timingSafeEqual(raw.subarray(NONCE), expected);
  }
}

/** The challenge a WebAuthn response answers, read from its clientDataJSON; undefined: none. */
export function answeredChallenge(response: unknown): string | undefined {
  const clientData = (response as { response?: { clientDataJSON?: unknown } } | null)?.response
    ?.clientDataJSON;
  if (typeof clientData !== 'string' || clientData.length > 4096) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof parsed.challenge === 'string' ? parsed.challenge : undefined;
  } catch {
    return undefined;
  }
}
