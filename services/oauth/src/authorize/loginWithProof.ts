// The proof signs the request in (see login/acceptProof.ts); a refusal is access_denied.
import type { CommunityIssuer } from '../providerCache.ts';
import {
  acceptProof,
  ProofNotAccepted,
  type ProofLoginDeps,
  type ProofRefusal,
} from '../login/acceptProof.ts';
import { RefusedAtRedirect } from './refusals.ts';

/**
 * The reason E_OAUTH_LOGIN_FAILED carries. This endpoint has always published a replayed proof
 * as invalid_proof (the login page says replayed_proof); kept so event consumers see no change.
 */
const EVENT_REASON: Record<ProofRefusal, string> = {
  invalid_proof: 'invalid_proof',
  unknown_account: 'unknown_account',
  replayed_proof: 'invalid_proof',
};

/** The account id the proof signs in. */
export async function loginWithProof(
  deps: ProofLoginDeps,
  { community, issuer }: CommunityIssuer,
  clientId: string,
  token: string,
): Promise<string> {
  try {
    return await acceptProof(deps, { community, issuer, clientId, token });
  } catch (err) {
    if (!(err instanceof ProofNotAccepted)) throw err;
    throw new RefusedAtRedirect('access_denied', err.message, EVENT_REASON[err.reason]);
  }
}
