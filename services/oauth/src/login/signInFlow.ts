// Where a sign-in goes after each factor: to a second factor, to enrolling one, or back to the
// application with what was used (amr, acr); and the rules that choose between them.
import { isIP } from 'node:net';
import type { InteractionResults } from 'oidc-provider';
import { acrOf, asksForMfa } from '../domain/authMethods.ts';
import type { OauthEvents } from '../events.ts';
import type { SignInRequest, SignInRequestDeps } from '../routes/signInRequest.ts';
import type { Account, AccountStore } from '../store/accountStore.ts';
import type { Factor, FactorStore, WebauthnParty } from '../store/factorStore.ts';
import type { KnownDevices } from './knownDevices.ts';
import type { PasswordChecks } from './passwordChecks.ts';
import type { RefusalEvents } from './refusalEvents.ts';
import type { LoginSteps, LoginStage } from './loginSteps.ts';
import type { LoginThrottle } from './throttle.ts';
import type { PasskeyChallenges } from './passkeyChallenges.ts';
import type { ProofLoginDeps } from './acceptProof.ts';

export interface SignInDeps extends SignInRequestDeps, ProofLoginDeps {
  events: OauthEvents;
  accounts: AccountStore;
  throttle: LoginThrottle;
  factors: FactorStore;
  steps: LoginSteps;
  challenges: PasskeyChallenges;
  devices: KnownDevices;
  refusalEvents: RefusalEvents;
  passwordChecks: PasswordChecks;
}

/** How long a "not now" to adding a second factor holds under an optional policy. */
const OFFER_AGAIN_AFTER_MS = 30 * 24 * 3600 * 1000;

/** A person may try this many wrong second factors in one sign-in before starting again. */
export const SECOND_FACTOR_TRIES = 5;

export type LoginMethod = 'password' | 'proof' | 'eam' | 'passkey';

/** The relying party of passkeys: the issuer's host, whose pages run the ceremonies. */
export function webauthnParty(s: SignInRequest): WebauthnParty {
  const url = new URL(s.found.issuer);
  return { rpID: url.hostname, origin: url.origin, rpName: s.frame.community.displayName };
}

/**
 * Whether browsers can run passkeys on this issuer: WebAuthn takes a host name as the relying
 * party, never an IP address (an issuer reached as 127.0.0.1 offers none; localhost does).
 */
export function passkeysWork(s: SignInRequest): boolean {
  return isIP(webauthnParty(s).rpID.replace(/^\[|\]$/g, '')) === 0;
}

/** The account's second factors of the kinds its community counts. */
export async function countedFactors(
  deps: SignInDeps,
  s: SignInRequest,
  accountId: string,
): Promise<Factor[]> {
  const all = await deps.factors.list(s.found.community.id, accountId);
  return all.filter((factor) => s.settings.mfaFactors.includes(factor.kind));
}

/** The second-factor stage a signed-in account must pass now; undefined: none. */
export async function secondFactorStage(
  deps: SignInDeps,
  s: SignInRequest,
  account: Account,
): Promise<LoginStage | undefined> {
  const policy = s.settings.mfaPolicy;
  if (policy === 'off') return undefined;
  if ((await countedFactors(deps, s, account.accountId)).length) return 'second_factor';
  if (policy === 'required' || asksForMfa(s.interaction.params)) return 'enrol';
  const skipped = account.mfaOfferSkippedAt?.getTime() ?? 0;
  return Date.now() - skipped > OFFER_AGAIN_AFTER_MS ? 'enrol' : undefined;
}

/** Whether the person may leave enrolment with "not now". */
export const maySkipEnrolment = (s: SignInRequest) =>
  s.settings.mfaPolicy === 'optional' && !asksForMfa(s.interaction.params);

/** Sends the browser to the interaction's page (a screen of it), after a form (303). */
export function showStep(s: SignInRequest, screen?: string): void {
  s.res.redirect(303, screen ? `${s.here}?screen=${screen}` : s.here);
}

/** The first factor passed: on to the second, or back to the application. */
export async function afterFirstFactor(
  deps: SignInDeps,
  s: SignInRequest,
  account: Account,
  amr: string[],
  method: LoginMethod,
): Promise<void> {
  const stage = await secondFactorStage(deps, s, account);
  if (!stage) return finishSignIn(deps, s, account, amr, method);
  await deps.steps.begin(
    {
      uid: s.interaction.uid,
      communityId: s.found.community.id,
      accountId: account.accountId,
      amr,
      stage,
    },
    new Date(s.interaction.exp * 1000),
  );
  showStep(s);
}

/** Ends the sign-in: the session says who signed in and how; the browser goes back. */
export async function finishSignIn(
  deps: SignInDeps,
  s: SignInRequest,
  account: Pick<Account, 'accountId' | 'username'>,
  amr: string[],
  method: LoginMethod,
): Promise<void> {
  const { community } = s.found;
  await deps.steps.end(s.interaction.uid);
  deps.devices.remember(s.req, s.res, community, account.username, s.req.protocol === 'https');
  deps.events(community, 'E_OAUTH_LOGIN_SUCCEEDED', {
    clientId: s.clientId,
    sub: account.accountId,
    method,
    amr,
  });
  const login: NonNullable<InteractionResults['login']> = {
    accountId: account.accountId,
    amr,
    acr: acrOf(amr),
  };
  await s.found.provider.interactionFinished(
    s.req,
    s.res,
    { login },
    { mergeWithLastSubmission: false },
  );
}
