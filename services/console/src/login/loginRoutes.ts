// Login and logout at the operators' issuer (authorization code with PKCE, state and nonce):
// /auth/login sends the browser there with the login state sealed in a Lax cookie; /auth/callback
// trades the code for tokens kept in console.sessions and gives the browser only a Strict cookie;
// /auth/logout ends the session, revokes its tokens and ends the session at the issuer too.
import type { Knex } from '@idv/db';
import { BadRequest, Forbidden, HttpError, Unavailable, type Route } from '@idv/http';
import type { Logger } from '@idv/observability';
import { appendAudit } from '@idv/platform';
import type { Request, RequestHandler, Response } from 'express';
import * as client from 'openid-client';
import { RECENT_LOGIN_MS } from '../access/routeAccess.ts';
import type { SessionStore } from '../sessions/sessionStore.ts';
import { clearCookie, cookieOf, LOGIN_COOKIE, SESSION_COOKIE, setCookie } from './cookies.ts';
import type { IssuerConfiguration } from './issuer.ts';
import { LOGIN_STATE_TTL_S, safeReturnPath, type LoginStateBox } from './loginState.ts';
import { claimsOf, tokensOf } from './tokenSet.ts';

export const LOGIN_SCOPE = 'openid operator profile';

export interface LoginDeps {
  publicUrl: string;
  issuer: IssuerConfiguration;
  loginState: LoginStateBox;
  sessions: SessionStore;
  sessionLifetimeS: number;
  sameOrigin: RequestHandler;
  db: Knex;
  logger: Logger;
}

/** A page that moves on to `path` by itself: the Strict cookie is sent once the page navigates (a redirect from the issuer would count as cross-site). */
const continuePage = (path: string) => {
  const href = path.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Signed in</title></head><body><p>Signed in. <a href="${href}">Continue to the console</a>.</p></body></html>`;
};

async function codeGrant(deps: LoginDeps, req: Request) {
  const login = deps.loginState.open(cookieOf(req, LOGIN_COOKIE));
  if (!login) throw new BadRequest('this login is unknown or too old: start again at /auth/login');
  try {
    const tokens = await client.authorizationCodeGrant(
      await deps.issuer(),
      new URL(req.originalUrl, deps.publicUrl),
      {
        pkceCodeVerifier: login.verifier,
        expectedState: login.state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      },
    );
    return { login, tokens };
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (err instanceof client.AuthorizationResponseError || err instanceof client.ResponseBodyError)
      throw new BadRequest(
        `the issuer refused the login: ${err.error}${err.error_description ? ` (${err.error_description})` : ''}`,
      );
    if ((err as { code?: string }).code?.startsWith('OAUTH_'))
      throw new BadRequest(`the login's answer is not valid: ${(err as Error).message}`);
    throw new Unavailable(`the operators' issuer cannot be reached: ${(err as Error).message}`);
  }
}

export function loginRoutes(deps: LoginDeps): Route[] {
  const redirectUri = `${deps.publicUrl}/auth/callback`;
  return [
    {
      method: 'GET',
      path: '/auth/login',
      doc: {
        summary:
          "sends the browser to the operators' issuer (?returnTo=/#/page of the web app, ?fresh=1 asks for a new login)",
      },
      handler: async (req, res) => {
        const config = await deps.issuer();
        const fresh = req.query.fresh === '1';
        const login = {
          state: client.randomState(),
          nonce: client.randomNonce(),
          verifier: client.randomPKCECodeVerifier(),
          returnTo: safeReturnPath(req.query.returnTo),
          fresh,
          at: Date.now(),
        };
        const url = client.buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: LOGIN_SCOPE,
          state: login.state,
          nonce: login.nonce,
          code_challenge: await client.calculatePKCECodeChallenge(login.verifier),
          code_challenge_method: 'S256',
          ...(fresh ? { prompt: 'login', max_age: '0' } : {}),
        });
        setCookie(res, LOGIN_COOKIE, deps.loginState.seal(login), 'Lax', LOGIN_STATE_TTL_S);
        res.set('Cache-Control', 'no-store').redirect(303, url.href);
      },
    },
    {
      method: 'GET',
      path: '/auth/callback',
      doc: { summary: "the issuer's answer: the code is traded for the session's tokens" },
      handler: async (req, res) => {
        clearCookie(res, LOGIN_COOKIE, 'Lax');
        const { login, tokens } = await codeGrant(deps, req);
        const claims = claimsOf(tokens.claims()!);
        if (login.fresh && Date.now() - claims.authTime.getTime() > RECENT_LOGIN_MS)
          throw new Forbidden('the issuer did not log the operator in again');
        const previous = cookieOf(req, SESSION_COOKIE);
        if (previous) await deps.sessions.end(previous);
        const id = await deps.sessions.create(claims, tokensOf(tokens));
        await appendAudit(deps.db, {
          actor: `operator:${claims.username}`,
          action: 'console.login',
          communityId: null,
          subject: { kind: 'operator', id: claims.sub },
          details: { amr: claims.amr, fresh: login.fresh },
        });
        setCookie(res, SESSION_COOKIE, id, 'Strict', deps.sessionLifetimeS);
        res.set('Cache-Control', 'no-store').type('html').send(continuePage(login.returnTo));
      },
    },
    {
      method: 'POST',
      path: '/auth/logout',
      jsonBody: false,
      guards: [deps.sameOrigin],
      doc: {
        summary:
          'ends the console session, revokes its tokens, and sends the browser to end the session at the issuer',
      },
      handler: async (req: Request, res: Response) => {
        const id = cookieOf(req, SESSION_COOKIE);
        const ended = id ? await deps.sessions.end(id) : undefined;
        clearCookie(res, SESSION_COOKIE, 'Strict');
        if (!ended) return void res.redirect(303, '/');
        await appendAudit(deps.db, {
          actor: `operator:${ended.session.username}`,
          action: 'console.logout',
          communityId: null,
          subject: { kind: 'operator', id: ended.session.sub },
        });
        if (!ended.tokens) return void res.redirect(303, '/');
        const config = await deps.issuer();
        const revoke = async (token: string | undefined, hint: string) => {
          if (!token) return;
          await client
            .tokenRevocation(config, token, { token_type_hint: hint })
            .catch((err: unknown) =>
              deps.logger.warn({ reason: (err as Error).message }, 'token revocation failed'),
            );
        };
        await revoke(ended.tokens.refreshToken, 'refresh_token');
        await revoke(ended.tokens.accessToken, 'access_token');
        const logout = client.buildEndSessionUrl(config, { id_token_hint: ended.tokens.idToken });
        res.redirect(303, logout.href);
      },
    },
  ];
}
