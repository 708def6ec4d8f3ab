// POST /v1/authorize: with a proof JWT, a code straight away (303 to redirect_uri with code or
// error); without one, the same request as a GET, which leads to the login and consent pages.
// Each check is a module of ../authorize/, run in the order below (as oidc-provider's own
// lib/actions/authorization): a reader sees here what is checked, and when.
import type { Request, Response } from 'express';
import type { OauthEvents } from '../events.ts';
import type { CommunityIssuer } from '../providerCache.ts';
import type { ProofLoginDeps } from '../login/acceptProof.ts';
import type { FactorStore } from '../store/factorStore.ts';
import type { SignInSettingsStore } from '../store/signInSettings.ts';
import { answerAtRedirectUri } from '../authorize/answerAtRedirectUri.ts';
import { checkClient } from '../authorize/checkClient.ts';
import { checkClientGrantType } from '../authorize/checkClientGrantType.ts';
import { checkPkce } from '../authorize/checkPkce.ts';
import { checkRedirectUri } from '../authorize/checkRedirectUri.ts';
import { checkResponseType } from '../authorize/checkResponseType.ts';
import { checkScope } from '../authorize/checkScope.ts';
import { continueWithoutProof } from '../authorize/continueWithoutProof.ts';
import { issueCode } from '../authorize/issueCode.ts';
import { loginWithProof } from '../authorize/loginWithProof.ts';
import { param } from '../authorize/params.ts';
import { RefusedAtRedirect } from '../authorize/refusals.ts';
import { rejectDuplicates } from '../authorize/rejectDuplicates.ts';
import { rejectNulCharacters } from '../authorize/rejectNulCharacters.ts';
import { rejectRequestObject } from '../authorize/rejectRequestObject.ts';
import { requireForm } from '../authorize/requireForm.ts';
import { requireParameters } from '../authorize/requireParameters.ts';

export interface AuthorizeDeps extends ProofLoginDeps {
  events: OauthEvents;
  settings: SignInSettingsStore;
  factors: FactorStore;
}

/**
 * A proof signs in one factor, and the machine path has no page to ask for another: a community
 * that requires a second factor, or an account that has one, signs in on its login page.
 */
async function proofMeetsPolicy(
  deps: AuthorizeDeps,
  community: { id: string; name: string },
  accountId: string,
): Promise<void> {
  const { mfaPolicy, mfaFactors } = await deps.settings.get(community);
  if (mfaPolicy === 'off') return;
  const refusal = new RefusedAtRedirect(
    'access_denied',
    'this community asks for a second factor: sign in on its login page',
    'second_factor_required',
  );
  if (mfaPolicy === 'required') throw refusal;
  const factors = await deps.factors.list(community.id, accountId);
  if (factors.some((factor) => mfaFactors.includes(factor.kind))) throw refusal;
}

export function postAuthorize(deps: AuthorizeDeps) {
  return async (req: Request, res: Response) => {
    const found = res.locals.issuer as CommunityIssuer;
    // refused with a 400 until the redirect_uri is trusted
    const params = requireForm(req);
    rejectDuplicates(params);
    const proof = param(params, 'proof_of_authentication_jwt');
    if (!proof) return continueWithoutProof(req, res, params);
    const client = await checkClient(found.provider, params);
    const redirectUri = checkRedirectUri(client, params);

    // from here on the client hears every answer at its redirect_uri
    const context = { state: param(params, 'state'), iss: found.issuer };
    try {
      rejectNulCharacters(params);
      requireParameters(params);
      rejectRequestObject(params);
      checkResponseType(params);
      checkClientGrantType(client);
      const scope = checkScope(params);
      const pkce = checkPkce(params);
      const accountId = await loginWithProof(deps, found, client.clientId, proof);
      await proofMeetsPolicy(deps, found.community, accountId);
      const nonce = param(params, 'nonce');
      const code = await issueCode(found.provider, {
        client,
        accountId,
        redirectUri,
        scope,
        nonce,
        pkce,
      });
      deps.events(found.community, 'E_OAUTH_LOGIN_SUCCEEDED', {
        clientId: client.clientId,
        sub: accountId,
        method: 'proof',
        amr: ['proof'],
      });
      answerAtRedirectUri(res, redirectUri, { code }, context);
    } catch (err) {
      if (!(err instanceof RefusedAtRedirect)) throw err;
      if (err.loginFailure) {
        const failure = { clientId: client.clientId, reason: err.loginFailure };
        deps.events(found.community, 'E_OAUTH_LOGIN_FAILED', failure);
      }
      const answer = { error: err.error, error_description: err.message };
      answerAtRedirectUri(res, redirectUri, answer, context);
    }
  };
}
