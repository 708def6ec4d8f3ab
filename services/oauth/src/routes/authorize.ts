// POST /v1/authorize: with a proof JWT, a code straight away (303 to redirect_uri with code or
// error); without one, the same request as a GET, which leads to the login and consent pages.
import type { Request, Response } from 'express';
import { HttpError } from '@idv/http';
import { ProofRejected, verifyProof } from '../domain/proof.ts';
import type { OauthEvents } from '../events.ts';
import type { CommunityIssuer } from '../providerCache.ts';
import type { AccountStore } from '../store/accountStore.ts';
import type { TrustStore } from '../store/trustStore.ts';

const SUPPORTED_SCOPES = new Set(['openid', 'offline_access', 'profile']);
export const PROOF_MAX_LIFETIME = 300;
export const CLOCK_TOLERANCE = 30;

export interface AuthorizeDeps {
  trust: TrustStore;
  accounts: AccountStore;
  events: OauthEvents;
}

/** The parameters this route reads itself; the others go on to oidc-provider untouched. */
const OWN_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'proof_of_authentication_jwt',
  'request',
  'request_uri',
];

/** Required by the spec beside client_id and redirect_uri, which are checked before these. */
const REQUIRED_HERE = ['response_type', 'scope'];

/**
 * Refusals before a redirect_uri is trusted: the body oidc-provider renders for the GET on
 * this endpoint (see renderError), the OAuth error code in `error`.
 */
const refused = (error: string, message: string) => new HttpError(400, error, message);

function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** As oidc-provider: a parameter given twice is refused, not guessed at. */
function refuseDuplicates(body: Record<string, unknown>): void {
  const twice = OWN_PARAMS.find((name) => Array.isArray(body[name]));
  if (twice) throw refused('invalid_request', `'${twice}' parameter must not be provided twice`);
}

function redirect(res: Response, target: string, params: Record<string, string | undefined>) {
  const url = new URL(target);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.append(name, value);
  }
  res.redirect(303, url.toString());
}

export function postAuthorize(deps: AuthorizeDeps) {
  return async (req: Request, res: Response) => {
    // a JSON or multipart body would otherwise read as "no parameters" and lose them silently
    if (!req.is('application/x-www-form-urlencoded')) {
      throw refused(
        'invalid_request',
        'only application/x-www-form-urlencoded content-type bodies are supported on POST /v1/authorize',
      );
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    refuseDuplicates(body);
    const proof = field(body, 'proof_of_authentication_jwt');
    const found = res.locals.issuer as CommunityIssuer;
    if (!proof) {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(body)) {
        for (const one of [value].flat()) if (typeof one === 'string') query.append(name, one);
      }
      return res.redirect(303, `${req.baseUrl}/v1/authorize?${query.toString()}`);
    }
    const { provider, issuer, community } = found;
    const clientId = field(body, 'client_id');
    const redirectUri = field(body, 'redirect_uri');
    if (!clientId) throw refused('invalid_request', "missing required parameter 'client_id'");
    const client = await provider.Client.find(clientId);
    if (!client) throw refused('invalid_client', 'client_id: unknown client');
    if (!redirectUri) throw refused('invalid_request', "missing required parameter 'redirect_uri'");
    if (!client.redirectUriAllowed(redirectUri)) {
      throw refused('invalid_redirect_uri', 'redirect_uri: not registered for this client');
    }
    const state = field(body, 'state');
    const fail = (error: string, description: string, reason = 'invalid_proof') => {
      if (error === 'access_denied') {
        deps.events(community, 'E_OAUTH_LOGIN_FAILED', { clientId: client.clientId, reason });
      }
      redirect(res, redirectUri, { error, error_description: description, state, iss: issuer });
    };
    if (OWN_PARAMS.some((name) => field(body, name)?.includes('\u0000'))) {
      return fail('invalid_request', 'parameters must not contain NUL characters');
    }
    // a missing required parameter is invalid_request, as oidc-provider answers on the GET
    const missing = REQUIRED_HERE.find((name) => !field(body, name));
    if (missing) return fail('invalid_request', `missing required parameter '${missing}'`);
    if (field(body, 'request') || field(body, 'request_uri')) {
      return fail('invalid_request', 'request and request_uri are not taken with a proof');
    }
    if (field(body, 'response_type') !== 'code') {
      return fail('unsupported_response_type', 'response_type must be code');
    }
    if (!client.grantTypeAllowed('authorization_code')) {
      return fail('unauthorized_client', 'the client may not use the authorization code grant');
    }
    const scopes = field(body, 'scope')!
      .split(' ')
      .filter((s) => SUPPORTED_SCOPES.has(s));
    if (!scopes.includes('openid')) return fail('invalid_scope', 'scope must include openid');
    const codeChallenge = field(body, 'code_challenge');
    const codeChallengeMethod = field(body, 'code_challenge_method') ?? 'S256';
    if (codeChallenge && codeChallengeMethod !== 'S256') {
      return fail('invalid_request', 'code_challenge_method must be S256');
    }

    let verified;
    try {
      verified = verifyProof(proof, {
        keys: await deps.trust.proofKeys(community.id),
        audience: issuer,
        maxLifetime: PROOF_MAX_LIFETIME,
        clockTolerance: CLOCK_TOLERANCE,
        clientId: client.clientId,
      });
    } catch (err) {
      if (err instanceof ProofRejected) return fail('access_denied', err.message);
      throw err;
    }
    // no just-in-time accounts: a proof signs in an account the community has, or nobody
    if (!(await deps.accounts.find(community.id, verified.sub))) {
      return fail(
        'access_denied',
        'proof sub names no account of this community',
        'unknown_account',
      );
    }
    const expiresAt = new Date((verified.exp + CLOCK_TOLERANCE) * 1000);
    if (!(await deps.trust.useProof(community.id, verified.jti, expiresAt))) {
      return fail('access_denied', 'proof was used before');
    }

    const nonce = field(body, 'nonce');
    const grant = new provider.Grant({ accountId: verified.sub, clientId: client.clientId });
    grant.addOIDCScope(scopes.join(' '));
    const grantId = await grant.save();
    const code = new provider.AuthorizationCode({
      accountId: verified.sub,
      client,
      grantId,
      redirectUri,
      scope: scopes.join(' '),
      authTime: Math.floor(Date.now() / 1000),
      amr: ['proof'],
      gty: 'authorization_code',
      ...(nonce ? { nonce } : {}),
      ...(codeChallenge ? { codeChallenge, codeChallengeMethod } : {}),
    });
    const value = await code.save();
    deps.events(community, 'E_OAUTH_LOGIN_SUCCEEDED', {
      clientId: client.clientId,
      sub: verified.sub,
      method: 'proof',
    });
    redirect(res, redirectUri, { code: value, state, iss: issuer });
  };
}
