// The screens after the first factor: a second factor (TOTP code, passkey or recovery code), or
// enrolling one (an authenticator app with a QR code, or a passkey) and the recovery codes shown
// once. Also the step-up of a signed-in person a client asks to confirm again.
import type { Request, Response } from 'express';
import { BadRequest } from '@idv/http';
import { withSecondFactor } from '../domain/authMethods.ts';
import type { LoginStage, LoginStep } from '../login/loginSteps.ts';
import { answeredChallenge, type Ceremony } from '../login/passkeyChallenges.ts';
import { secondFactorSubject } from '../login/signInKeys.ts';
import {
  countedFactors,
  finishSignIn,
  maySkipEnrolment,
  passkeysWork,
  SECOND_FACTOR_TRIES,
  secondFactorStage,
  webauthnParty,
  type LoginMethod,
  type SignInDeps,
} from '../login/signInFlow.ts';
import type { LoginAttempt } from '../login/throttle.ts';
import { qrSvg } from '../pages/qrSvg.ts';
import {
  enrolChoiceScreen,
  messageScreen,
  passkeyEnrolScreen,
  recoveryCodesScreen,
  recoveryScreen,
  secondFactorScreen,
  totpEnrolScreen,
} from '../pages/screens.ts';
import { formBody, parseCredential, refusalText } from './interaction.ts';
import { signInRequest, type SignInRequest } from './signInRequest.ts';

/** Prompt reasons a signed-in person meets with a second factor alone, without the password. */
const STEP_UP_REASONS = new Set(['second_factor', 'max_age', 'essential_acr', 'essential_acrs']);

const methodOf = (amr: string[]): LoginMethod =>
  amr.includes('proof') ? 'proof' : amr.includes('pwd') ? 'password' : 'passkey';

/**
 * A person signed in already whom the client (max_age, acr_values) or the community's policy
 * asks for a second factor now: the steps start from the session's first factor.
 */
export async function stepUpAccount(
  deps: SignInDeps,
  s: SignInRequest,
): Promise<LoginStep | undefined> {
  const { session, prompt, uid } = s.interaction;
  if (!session?.accountId || !prompt.reasons.every((reason) => STEP_UP_REASONS.has(reason)))
    return undefined;
  const account = await deps.accounts.find(s.found.community.id, session.accountId);
  if (!account) return undefined;
  const stage = await secondFactorStage(deps, s, account);
  // a session alone proves no factor now: enrolling a new factor (or a fresh sign-in with none
  // to prove) asks for the password again, or a stolen session cookie could enrol its own TOTP
  if (stage !== 'second_factor') return undefined;
  const first = (session.amr ?? []).filter((method) => ['pwd', 'proof', 'hwk'].includes(method));
  const step = {
    uid,
    communityId: s.found.community.id,
    accountId: account.accountId,
    amr: first.length ? first : ['pwd'],
    stage,
  };
  await deps.steps.begin(step, new Date(s.interaction.exp * 1000));
  return { ...step, pendingSecret: null, failures: 0 };
}

async function passkeyForm(
  deps: SignInDeps,
  s: SignInRequest,
  step: LoginStep,
  ceremony: Ceremony,
  action: string,
) {
  const party = webauthnParty(s);
  const { communityId, accountId } = step;
  let options: { challenge: string };
  if (ceremony === 'register') {
    const account = await deps.accounts.find(communityId, accountId);
    if (!account) throw new BadRequest('this account no longer exists');
    options = await deps.factors.registrationOptions(party, {
      communityId,
      accountId,
      username: account.username,
      displayName: account.displayName ?? account.username,
    });
  } else {
    options = await deps.factors.authenticationOptions(party, { communityId, accountId });
  }
  options.challenge = deps.challenges.issue(s.interaction.uid, ceremony, accountId);
  return { action: `${s.here}/${action}`, options };
}

async function showSecondFactor(
  deps: SignInDeps,
  s: SignInRequest,
  step: LoginStep,
  error?: string,
  status = 200,
) {
  const factors = await countedFactors(deps, s, step.accountId);
  const passkey =
    factors.some((factor) => factor.kind === 'webauthn') && passkeysWork(s)
      ? await passkeyForm(deps, s, step, 'second-factor', 'second-factor/passkey')
      : undefined;
  s.send(
    secondFactorScreen(s.frame, {
      clientName: s.clientName,
      stepUp: Boolean(s.interaction.session?.accountId),
      ...(factors.some((factor) => factor.kind === 'totp') ? { totpAction: `${s.here}/totp` } : {}),
      ...(passkey ? { passkey } : {}),
      recoveryHref: `${s.here}?screen=recovery`,
      ...(error ? { error } : {}),
    }),
    status,
  );
}

async function showTotpEnrol(
  deps: SignInDeps,
  s: SignInRequest,
  step: LoginStep,
  error?: string,
  status = 200,
) {
  const { communityId, accountId } = step;
  let secret: string;
  if (step.pendingSecret) {
    secret = await deps.factors.openPendingSecret(communityId, accountId, step.pendingSecret);
  } else {
    secret = deps.factors.newTotpSecret();
    const pendingSecret = await deps.factors.sealPendingSecret(communityId, accountId, secret);
    await deps.steps.update(step, { pendingSecret });
  }
  const account = await deps.accounts.find(communityId, accountId);
  const uri = deps.factors.totpUri({
    issuer: s.frame.community.displayName,
    accountName: account?.username ?? '',
    secret,
  });
  s.send(
    totpEnrolScreen(s.frame, {
      action: `${s.here}/enrol/totp`,
      qrSvg: qrSvg(uri, s.frame.t('qrLabel')),
      secret,
      backHref: s.here,
      ...(error ? { error } : {}),
    }),
    status,
  );
}

async function showPasskeyEnrol(
  deps: SignInDeps,
  s: SignInRequest,
  step: LoginStep,
  error?: string,
  status = 200,
) {
  const passkey = await passkeyForm(deps, s, step, 'register', 'enrol/passkey');
  s.send(
    passkeyEnrolScreen(s.frame, { passkey, backHref: s.here, ...(error ? { error } : {}) }),
    status,
  );
}

/** The enrolled factor's recovery codes, made now and shown once; on to the application next. */
async function showRecoveryCodes(deps: SignInDeps, s: SignInRequest, step: LoginStep) {
  const codes = await deps.factors.newRecoveryCodes(step.communityId, step.accountId);
  s.send(recoveryCodesScreen(s.frame, { codes, action: `${s.here}/continue` }));
}

export async function showSecondFactorStep(
  deps: SignInDeps,
  s: SignInRequest,
  step: LoginStep,
  screen: string,
) {
  const counts = (kind: 'totp' | 'webauthn') =>
    s.settings.mfaFactors.includes(kind) && (kind === 'totp' || passkeysWork(s));
  if (step.stage === 'recovery_codes') return showRecoveryCodes(deps, s, step);
  if (step.stage === 'second_factor') {
    if (screen !== 'recovery') return showSecondFactor(deps, s, step);
    return s.send(recoveryScreen(s.frame, { action: `${s.here}/recovery`, backHref: s.here }));
  }
  if (screen === 'totp' && counts('totp')) return showTotpEnrol(deps, s, step);
  if (screen === 'passkey' && counts('webauthn')) return showPasskeyEnrol(deps, s, step);
  s.send(
    enrolChoiceScreen(s.frame, {
      required: !maySkipEnrolment(s),
      ...(counts('totp') ? { totpHref: `${s.here}?screen=totp` } : {}),
      ...(counts('webauthn') ? { passkeyHref: `${s.here}?screen=passkey` } : {}),
      ...(maySkipEnrolment(s) ? { skipAction: `${s.here}/enrol/skip` } : {}),
    }),
  );
}

/** The open step of this sign-in at `stage`; a 400 when there is none (or another). */
async function openStep(
  deps: SignInDeps,
  req: Request,
  res: Response,
  stage: LoginStage,
): Promise<{ s: SignInRequest; step: LoginStep }> {
  const s = await signInRequest(deps, req, res);
  const step = await deps.steps.find(s.found.community.id, s.interaction.uid);
  if (s.interaction.prompt.name !== 'login' || !step || step.stage !== stage)
    throw new BadRequest('this step of the sign-in is not open; start again from the application');
  return { s, step };
}

async function finishStep(deps: SignInDeps, s: SignInRequest, step: LoginStep, amr: string[]) {
  const account = await deps.accounts.find(step.communityId, step.accountId);
  if (!account) throw new BadRequest('this account no longer exists');
  await finishSignIn(deps, s, account, amr, methodOf(amr));
}

/**
 * Wrong second factors of an account, from all addresses within the limits' window, that lock
 * its second factor everywhere until the window passes or an operator unlocks it: the guesser
 * holds the password already (NIST SP 800-63B allows at most 100).
 */
const SECOND_FACTOR_ACCOUNT_LOCK = 20;

async function wrongSecondFactor(
  deps: SignInDeps,
  s: SignInRequest,
  step: LoginStep,
  attempt: LoginAttempt | undefined,
  reason: string,
  message: string,
  again: (error: string) => Promise<void>,
) {
  const { community } = s.found;
  const lock = attempt ? await deps.throttle.failed(attempt) : { locked: false };
  deps.events(community, 'E_OAUTH_LOGIN_FAILED', {
    clientId: s.clientId,
    reason,
    sub: step.accountId,
  });
  if (lock.locked && lock.lockedUntil) {
    deps.events(community, 'E_OAUTH_ACCOUNT_LOCKED', {
      clientId: s.clientId,
      sub: step.accountId,
      lockedUntil: lock.lockedUntil.toISOString(),
      scope: 'address',
    });
  }
  if ((await deps.steps.failed(step)) >= SECOND_FACTOR_TRIES || lock.locked) {
    await deps.steps.end(step.uid);
    const { t } = s.frame;
    return s.send(messageScreen(s.frame, t('secondFactorTitle'), t('tooManyCodes')), 401);
  }
  await again(message);
}

/** A code checked under the second-factor throttle; `check` says whether it was right. */
function codeSubmission(
  field: 'code' | 'recovery_code',
  check: (deps: SignInDeps, step: LoginStep, code: string) => Promise<boolean>,
  factor: 'otp',
  reason: string,
  wrong: 'wrongCode' | 'wrongRecoveryCode',
) {
  return (deps: SignInDeps) => async (req: Request, res: Response) => {
    const { s, step } = await openStep(deps, req, res, 'second_factor');
    const code = formBody(req, [field])[field] ?? '';
    const again = (error: string, status = 401) =>
      field === 'code'
        ? showSecondFactor(deps, s, step, error, status)
        : Promise.resolve(
            s.send(
              recoveryScreen(s.frame, { action: `${s.here}/recovery`, backHref: s.here, error }),
              status,
            ),
          );
    const verdict = await deps.throttle.begin(
      step.communityId,
      secondFactorSubject(step.accountId),
      req.ip ?? '',
      s.settings.limits,
      { accountLockAfter: SECOND_FACTOR_ACCOUNT_LOCK },
    );
    if (!verdict.allowed) {
      deps.refusalEvents(s.found.community, s.clientId, 'second_factor_throttled', step.accountId);
      res.set('Retry-After', String(verdict.retryAfterSeconds));
      return again(refusalText(s, verdict), 429);
    }
    if (!(await check(deps, step, code))) {
      return wrongSecondFactor(deps, s, step, verdict.attempt, reason, s.frame.t(wrong), again);
    }
    await deps.throttle.succeeded(verdict.attempt, { keepAccountCount: true });
    await finishStep(deps, s, step, withSecondFactor(step.amr, factor));
  };
}

export const submitTotp = codeSubmission(
  'code',
  async (deps, step, code) =>
    Boolean(await deps.factors.verifyTotp(step.communityId, step.accountId, code)),
  'otp',
  'invalid_second_factor',
  'wrongCode',
);

export const submitRecoveryCode = codeSubmission(
  'recovery_code',
  (deps, step, code) => deps.factors.useRecoveryCode(step.communityId, step.accountId, code),
  'otp',
  'invalid_recovery_code',
  'wrongRecoveryCode',
);

/** A passkey as the second factor. */
export function submitSecondFactorPasskey(deps: SignInDeps) {
  return async (req: Request, res: Response) => {
    const { s, step } = await openStep(deps, req, res, 'second_factor');
    const credential = parseCredential(formBody(req, ['credential']).credential);
    const challenge = answeredChallenge(credential);
    const verified =
      challenge &&
      deps.challenges.check(challenge, s.interaction.uid, 'second-factor', step.accountId)
        ? await deps.factors.verifyWebauthn(
            webauthnParty(s),
            step.communityId,
            step.accountId,
            credential,
            challenge,
          )
        : undefined;
    if (!verified) {
      const again = (error: string) => showSecondFactor(deps, s, step, error, 401);
      const message = s.frame.t('passkeyRefused');
      return wrongSecondFactor(deps, s, step, undefined, 'invalid_passkey', message, again);
    }
    await finishStep(deps, s, step, withSecondFactor(step.amr, 'hwk'));
  };
}

/** A factor was enrolled: the recovery codes next (shown by the page of the next stage). */
async function enrolled(
  deps: SignInDeps,
  s: SignInRequest,
  step: LoginStep,
  amr: string[],
  kind: 'totp' | 'webauthn',
) {
  await deps.steps.update(step, { stage: 'recovery_codes', amr, pendingSecret: null });
  // a new way into the account: the tenant hears of it (and can tell the person)
  deps.events(s.found.community, 'E_OAUTH_FACTOR_ADDED', {
    clientId: s.clientId,
    sub: step.accountId,
    kind,
  });
  await showRecoveryCodes(deps, s, step);
}

export function submitTotpEnrolment(deps: SignInDeps) {
  return async (req: Request, res: Response) => {
    const { s, step } = await openStep(deps, req, res, 'enrol');
    const code = formBody(req, ['code']).code ?? '';
    if (!step.pendingSecret || !s.settings.mfaFactors.includes('totp'))
      return res.redirect(303, `${s.here}?screen=totp`);
    const { communityId, accountId } = step;
    const secret = await deps.factors.openPendingSecret(communityId, accountId, step.pendingSecret);
    const label = s.frame.t('enrolTotp');
    if (!(await deps.factors.confirmTotp(communityId, accountId, secret, code, label)))
      return showTotpEnrol(deps, s, step, s.frame.t('wrongCode'), 401);
    await enrolled(deps, s, step, withSecondFactor(step.amr, 'otp'), 'totp');
  };
}

export function submitPasskeyEnrolment(deps: SignInDeps) {
  return async (req: Request, res: Response) => {
    const { s, step } = await openStep(deps, req, res, 'enrol');
    if (!s.settings.mfaFactors.includes('webauthn'))
      throw new BadRequest('passkeys are not used here');
    const credential = parseCredential(formBody(req, ['credential']).credential);
    const challenge = answeredChallenge(credential);
    const { communityId, accountId } = step;
    const factor =
      challenge && deps.challenges.check(challenge, s.interaction.uid, 'register', accountId)
        ? await deps.factors.confirmWebauthn(
            webauthnParty(s),
            { communityId, accountId },
            credential,
            challenge,
            s.frame.t('enrolPasskey'),
          )
        : undefined;
    if (!factor) return showPasskeyEnrol(deps, s, step, s.frame.t('passkeyNotCreated'), 400);
    await enrolled(deps, s, step, withSecondFactor(step.amr, 'hwk'), 'webauthn');
  };
}

export function skipEnrolment(deps: SignInDeps) {
  return async (req: Request, res: Response) => {
    const { s, step } = await openStep(deps, req, res, 'enrol');
    formBody(req, []);
    if (!maySkipEnrolment(s)) throw new BadRequest('a second factor is required here');
    await deps.accounts.skipMfaOffer(step.communityId, step.accountId);
    await finishStep(deps, s, step, step.amr);
  };
}

export function continueAfterRecoveryCodes(deps: SignInDeps) {
  return async (req: Request, res: Response) => {
    const { s, step } = await openStep(deps, req, res, 'recovery_codes');
    formBody(req, []);
    await finishStep(deps, s, step, step.amr);
  };
}
