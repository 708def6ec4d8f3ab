// Signs in with a proof_of_authentication_jwt, on the authorize POST and on the login page alike:
// a proof the community trusts, for an account it has, spent once.
import type { Community } from '@idv/platform';
import { ProofRejected, verifyProof } from '../domain/proof.ts';
import type { AccountStore } from '../store/accountStore.ts';
import type { TrustStore } from '../store/trustStore.ts';

/** Seconds a proof may live from iat to exp. */
const PROOF_MAX_LIFETIME = 300;
const CLOCK_TOLERANCE = 30;

export interface ProofLoginDeps {
  trust: TrustStore;
  accounts: AccountStore;
}

export interface ProofAttempt {
  community: Community;
  /** the community's issuer: the proof's audience */
  issuer: string;
  /** the client asking, which a proof's azp may name */
  clientId: string;
  token: string;
}

export type ProofRefusal = 'invalid_proof' | 'unknown_account' | 'replayed_proof';

export class ProofNotAccepted extends Error {
  override name = 'ProofNotAccepted';

  constructor(
    readonly reason: ProofRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** The account id the proof signs in; ProofNotAccepted says why it signs in nobody. */
export async function acceptProof(deps: ProofLoginDeps, attempt: ProofAttempt): Promise<string> {
  const { community } = attempt;
  let proof;
  try {
    proof = verifyProof(attempt.token, {
      keys: await deps.trust.proofKeys(community.id),
      audience: attempt.issuer,
      maxLifetime: PROOF_MAX_LIFETIME,
      clockTolerance: CLOCK_TOLERANCE,
      clientId: attempt.clientId,
    });
  } catch (err) {
    if (err instanceof ProofRejected) throw new ProofNotAccepted('invalid_proof', err.message);
    throw err;
  }
  // no just-in-time accounts: a proof signs in an account the community has, or nobody
  if (!(await deps.accounts.find(community.id, proof.sub))) {
    throw new ProofNotAccepted('unknown_account', 'proof sub names no account of this community');
  }
  // the jti is remembered until the proof could no longer pass the lifetime check anyway
  const expiresAt = new Date((proof.exp + CLOCK_TOLERANCE) * 1000);
  if (!(await deps.trust.useProof(community.id, proof.jti, expiresAt))) {
    throw new ProofNotAccepted('replayed_proof', 'proof was used before');
  }
  return proof.sub;
}
