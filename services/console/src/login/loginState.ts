// The short-lived login state a browser carries from /auth/login to /auth/callback (state, nonce,
// PKCE verifier, where to go back to), sealed under a key derived from the master key so the
// browser can neither read nor change it.
import { hkdfSync } from 'node:crypto';
import { createSecretBox, DecryptError } from '@idv/crypto';

export interface LoginState {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
  /** the login was asked with max_age=0: the ID token's auth_time must be fresh */
  fresh: boolean;
  /** ms since epoch */
  at: number;
}

const CONTEXT = 'idv-console-login-state';
export const LOGIN_STATE_TTL_S = 600;

export function loginStateBox(masterKey: Buffer) {
  const box = createSecretBox(Buffer.from(hkdfSync('sha256', masterKey, '', CONTEXT, 32)));
  return {
    seal: (login: LoginState) =>
      Buffer.from(box.seal(JSON.stringify(login), CONTEXT)).toString('base64url'),
    /** the state, or undefined when absent, forged or older than its time */
    open(cookie: string | undefined): LoginState | undefined {
      if (!cookie) return undefined;
      try {
        const login = JSON.parse(
          box.open(Buffer.from(cookie, 'base64url').toString(), CONTEXT),
        ) as LoginState;
        return Date.now() - login.at < LOGIN_STATE_TTL_S * 1000 ? login : undefined;
      } catch (err) {
        if (err instanceof DecryptError || err instanceof SyntaxError) return undefined;
        throw err;
      }
    },
  };
}

export type LoginStateBox = ReturnType<typeof loginStateBox>;

/**
 * Where a login goes back to: the web app only, `/` or a page of it after `#` (`/#/...`, which
 * the browser keeps to itself). /auth/login is a link anyone can send, and with a live session at
 * the issuer a login comes back without a question: any other path of this server (an audited
 * export) would be a request the operator never meant to make.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000 || !/^\/(?:#\/[^\s\\]*)?$/.test(value))
    return '/';
  return value;
}
