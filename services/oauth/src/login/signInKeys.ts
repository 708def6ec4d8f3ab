// The keys of the sign-in's MACs, each derived from MASTER_KEY for its one purpose: the service
// and the admin CLI (unlock, recovery) must derive the same ones, so both take them from here.
import { createHmac } from 'node:crypto';

export interface SignInKeys {
  throttle: Buffer;
  recoveryCodes: Buffer;
  passkeyChallenges: Buffer;
  knownDevices: Buffer;
}

const derive = (masterKey: Buffer, purpose: string) =>
  createHmac('sha256', masterKey).update(purpose).digest();

export function signInKeys(masterKey: Buffer): SignInKeys {
  return {
    throttle: derive(masterKey, 'oauth-login-throttle'),
    recoveryCodes: derive(masterKey, 'oauth-recovery-codes'),
    passkeyChallenges: derive(masterKey, 'oauth-passkey-challenges'),
    knownDevices: derive(masterKey, 'oauth-known-devices'),
  };
}

/**
 * The login throttle's subject for an account's second factors: NUL first, which no username
 * holds (the login form replaces it), so no name typed there counts against them.
 */
export const secondFactorSubject = (accountId: string) => `\u0000second-factor:${accountId}`;
