// The interactive steps oidc-provider hands over: login (account or proof JWT) and consent.
import type { Request, Response } from 'express';
import { BadRequest } from '@idv/http';
import type { InteractionResults } from 'oidc-provider';
import type { OauthEvents } from '../events.ts';
import {
  acceptProof,
  ProofNotAccepted,
  type ProofLoginDeps,
  type ProofRefusal,
} from '../login/acceptProof.ts';
import type { CommunityIssuer } from '../providerCache.ts';
import { consentPage, loginPage } from './pages.ts';

export interface InteractionDeps extends ProofLoginDeps {
  events: OauthEvents;
}

/** What the login page says when a pasted proof signs in nobody. */
const PROOF_REFUSAL_TEXT: Record<ProofRefusal, (detail: string) => string> = {
  invalid_proof: (detail) => `The proof was not accepted: ${detail}.`,
  unknown_account: () => 'The proof was not accepted: it names no account of this community.',
  replayed_proof: () => 'This proof was used before.',
};

async function details(req: Request, res: Response) {
  const { provider } = res.locals.issuer as CommunityIssuer;
  const interaction = await provider.interactionDetails(req, res).catch(() => undefined);
  if (!interaction || interaction.uid !== req.params.uid) {
    throw new BadRequest(
      'this sign-in has expired or is unknown; start again from the application',
    );
  }
  return interaction;
}

function html(res: Response, page: string, status = 200) {
  res.status(status).type('html').set('Cache-Control', 'no-store').send(page);
}

export function showInteraction() {
  return async (req: Request, res: Response) => {
    const interaction = await details(req, res);
    const clientName = String(interaction.params.client_id ?? '');
    const action = `${req.baseUrl}/v1/interaction/${interaction.uid}`;
    if (interaction.prompt.name === 'login') {
      return html(res, loginPage({ action: `${action}/login`, clientName }));
    }
    const scopes = String(interaction.params.scope ?? '')
      .split(' ')
      .filter(Boolean);
    html(res, consentPage({ action: `${action}/consent`, clientName, scopes }));
  };
}

type Body = Record<string, string | undefined>;

/**
 * The page's form, as the browser sends it: any other content type, or a field given twice
 * (read as an array, it would reach the password check or be taken for a refusal), is a 400.
 */
function formBody(req: Request, fields: string[]): Body {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw new BadRequest('the form must be sent as application/x-www-form-urlencoded');
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  const twice = fields.find((name) => Array.isArray(body[name]));
  if (twice) throw new BadRequest(`${twice}: given more than once`);
  return Object.fromEntries(fields.map((name) => [name, body[name] as string | undefined]));
}

export function submitLogin(deps: InteractionDeps) {
  return async (req: Request, res: Response) => {
    const interaction = await details(req, res);
    const { provider, community, issuer } = res.locals.issuer as CommunityIssuer;
    const body = formBody(req, ['username', 'password', 'proof_of_authentication_jwt']);
    const clientId = String(interaction.params.client_id ?? '');
    const again = (error: string, reason: string) => {
      deps.events(community, 'E_OAUTH_LOGIN_FAILED', { clientId, reason });
      const action = `${req.baseUrl}/v1/interaction/${interaction.uid}/login`;
      html(res, loginPage({ action, clientName: clientId, error }), 401);
    };
    let login: NonNullable<InteractionResults['login']>;
    if (body.proof_of_authentication_jwt) {
      try {
        const token = body.proof_of_authentication_jwt.trim();
        const accountId = await acceptProof(deps, { community, issuer, clientId, token });
        login = { accountId, amr: ['proof'] };
      } catch (err) {
        if (!(err instanceof ProofNotAccepted)) throw err;
        return again(PROOF_REFUSAL_TEXT[err.reason](err.message), err.reason);
      }
    } else {
      const account = await deps.accounts.authenticate(
        community.id,
        body.username ?? '',
        body.password ?? '',
      );
      if (!account) return again('Wrong username or password.', 'invalid_credentials');
      login = { accountId: account.accountId, amr: ['pwd'] };
    }
    deps.events(community, 'E_OAUTH_LOGIN_SUCCEEDED', {
      clientId,
      sub: login.accountId,
      method: body.proof_of_authentication_jwt
        ? 'proof'
        : interaction.params.eam_ref
          ? 'eam'
          : 'password',
    });
    await provider.interactionFinished(req, res, { login }, { mergeWithLastSubmission: false });
  };
}

export function submitConsent() {
  return async (req: Request, res: Response) => {
    const interaction = await details(req, res);
    const { provider } = res.locals.issuer as CommunityIssuer;
    if (formBody(req, ['decision']).decision !== 'allow') {
      const denied = { error: 'access_denied', error_description: 'the user denied the request' };
      return provider.interactionFinished(req, res, denied, { mergeWithLastSubmission: false });
    }
    const accountId = interaction.session?.accountId;
    if (!accountId || interaction.prompt.name !== 'consent')
      throw new BadRequest('nothing to consent to');
    const grant = interaction.grantId
      ? await provider.Grant.find(interaction.grantId)
      : new provider.Grant({ accountId, clientId: String(interaction.params.client_id) });
    if (!grant) throw new BadRequest('the grant of this sign-in has expired');
    const missing = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  };
}
