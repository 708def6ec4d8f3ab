// The sign-in pages oidc-provider hands over to: the login page (password, passkey, or a proof
// JWT for machines), the screens between the first factor and the end (secondFactor.ts), and
// consent. Failed logins are throttled and locked per account and address (login/throttle.ts).
import type { Request, Response } from 'express';
import { BadRequest } from '@idv/http';
import { passkeyAmr } from '../domain/authMethods.ts';
import { acceptProof, ProofNotAccepted, type ProofRefusal } from '../login/acceptProof.ts';
import { answeredChallenge } from '../login/passkeyChallenges.ts';
import {
  afterFirstFactor,
  finishSignIn,
  passkeysWork,
  webauthnParty,
  type SignInDeps,
} from '../login/signInFlow.ts';
import type { LoginVerdict } from '../login/throttle.ts';
import { consentScreen, loginScreen } from '../pages/screens.ts';
import { escapeHtml } from '../pages/strings.ts';
import { showSecondFactorStep, stepUpAccount } from './secondFactor.ts';
import { signInRequest, type SignInRequest } from './signInRequest.ts';

/** What the login page says when a pasted proof signs in nobody. */
const PROOF_REFUSAL_TEXT: Record<ProofRefusal, (detail: string) => string> = {
  invalid_proof: (detail) => `The proof was not accepted: ${detail}.`,
  unknown_account: () => 'The proof was not accepted: it names no account of this community.',
  replayed_proof: () => 'This proof was used before.',
};

/** A throttle delay this short is waited out on the server rather than shown to the person. */
const WAIT_ON_SERVER_SECONDS = 3;

type Body = Record<string, string | undefined>;

/**
 * The page's form, as the browser sends it: any other content type, or a field given twice
 * (read as an array, it would reach the password check or be taken for a refusal), is a 400.
 */
export function formBody(req: Request, fields: string[]): Body {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw new BadRequest('the form must be sent as application/x-www-form-urlencoded');
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  const twice = fields.find((name) => Array.isArray(body[name]));
  if (twice) throw new BadRequest(`${twice}: given more than once`);
  return Object.fromEntries(fields.map((name) => [name, body[name] as string | undefined]));
}

/** The passkey sign-in form of the login page, when the community counts passkeys. */
async function passkeySignIn(deps: SignInDeps, s: SignInRequest) {
  if (!s.settings.mfaFactors.includes('webauthn') || !passkeysWork(s)) return undefined;
  const options = await deps.factors.authenticationOptions(webauthnParty(s));
  options.challenge = deps.challenges.issue(s.interaction.uid, 'sign-in');
  options.userVerification = 'required';
  return { action: `${s.here}/passkey`, options };
}

async function showLogin(deps: SignInDeps, s: SignInRequest, error?: string, status = 200) {
  const hint = s.interaction.params.login_hint;
  const passkey = await passkeySignIn(deps, s);
  s.send(
    loginScreen(s.frame, {
      action: `${s.here}/login`,
      clientName: s.clientName,
      ...(typeof hint === 'string' ? { username: hint.slice(0, 200) } : {}),
      ...(error ? { error } : {}),
      ...(passkey ? { passkey } : {}),
    }),
    status,
  );
}

export function showInteraction(deps: SignInDeps) {
  return async (req: Request, res: Response) => {
    const s = await signInRequest(deps, req, res);
    if (s.interaction.prompt.name !== 'login') {
      const scopes = String(s.interaction.params.scope ?? '')
        .split(' ')
        .filter(Boolean);
      const action = `${s.here}/consent`;
      return s.send(consentScreen(s.frame, { action, clientName: s.clientName, scopes }));
    }
    const step =
      (await deps.steps.find(s.found.community.id, s.interaction.uid)) ??
      (await stepUpAccount(deps, s));
    if (step) return showSecondFactorStep(deps, s, step, String(req.query.screen ?? ''));
    await showLogin(deps, s);
  };
}

/** What a refused attempt is told: locked until a time, or to wait some seconds. */
export function refusalText(s: SignInRequest, verdict: Exclude<LoginVerdict, { allowed: true }>) {
  const { t } = s.frame;
  return verdict.reason === 'locked' && verdict.lockedUntil
    ? t('locked', { time: verdict.lockedUntil.toISOString().slice(11, 16) })
    : t('throttled', { seconds: String(verdict.retryAfterSeconds) });
}

/** A refused attempt's answer: 429 with when to try again. */
function refused(
  deps: SignInDeps,
  s: SignInRequest,
  verdict: Exclude<LoginVerdict, { allowed: true }>,
) {
  deps.refusalEvents(s.found.community, s.clientId, verdict.reason);
  s.res.set('Retry-After', String(verdict.retryAfterSeconds));
  return showLogin(deps, s, refusalText(s, verdict), 429);
}

async function passwordLogin(deps: SignInDeps, s: SignInRequest, body: Body) {
  const { community } = s.found;
  const username = body.username ?? '';
  // the throttle's own subjects start with NUL (the second factors'), which no username holds:
  // a name spelled like one must not count against an account's second factor
  const subject = username.replace(/\0/g, '\ufffd');
  const attemptOf = () =>
    deps.throttle.begin(community.id, subject, s.req.ip ?? '', s.settings.limits, {
      knownDevice: deps.devices.knows(s.req, community, username),
    });
  let verdict = await attemptOf();
  if (!verdict.allowed && verdict.reason === 'throttled') {
    const wait = verdict.retryAfterSeconds;
    if (wait <= WAIT_ON_SERVER_SECONDS) {
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      verdict = await attemptOf();
    }
  }
  if (!verdict.allowed) return refused(deps, s, verdict);
  // scrypt runs on libuv's few threads: one community's flood must not take them all
  const account = await deps.passwordChecks.run(community.id, () =>
    deps.accounts.authenticate(community.id, username, body.password ?? ''),
  );
  if (!account) {
    const { locked, lockedUntil } = await deps.throttle.failed(verdict.attempt);
    const known = await deps.accounts.findByUsername(community.id, username);
    const sub = known ? { sub: known.accountId } : {};
    deps.events(community, 'E_OAUTH_LOGIN_FAILED', {
      clientId: s.clientId,
      reason: 'invalid_credentials',
      ...sub,
    });
    if (locked && lockedUntil) {
      deps.events(community, 'E_OAUTH_ACCOUNT_LOCKED', {
        clientId: s.clientId,
        lockedUntil: lockedUntil.toISOString(),
        scope: 'address',
        ...sub,
      });
      return refused(deps, s, {
        allowed: false,
        reason: 'locked',
        lockedUntil,
        retryAfterSeconds: Math.ceil((lockedUntil.getTime() - Date.now()) / 1000),
      });
    }
    return showLogin(deps, s, s.frame.t('wrongCredentials'), 401);
  }
  await deps.throttle.succeeded(verdict.attempt);
  const method = s.interaction.params.eam_ref ? 'eam' : 'password';
  await afterFirstFactor(deps, s, account, ['pwd'], method);
}

async function proofLogin(deps: SignInDeps, s: SignInRequest, token: string) {
  const { community, issuer } = s.found;
  try {
    const accountId = await acceptProof(deps, { community, issuer, clientId: s.clientId, token });
    const account = await deps.accounts.find(community.id, accountId);
    if (!account) throw new ProofNotAccepted('unknown_account', 'no such account');
    await afterFirstFactor(deps, s, account, ['proof'], 'proof');
  } catch (err) {
    if (!(err instanceof ProofNotAccepted)) throw err;
    deps.events(community, 'E_OAUTH_LOGIN_FAILED', { clientId: s.clientId, reason: err.reason });
    const message = PROOF_REFUSAL_TEXT[err.reason](err.message);
    await showLogin(deps, s, escapeHtml(message), 401);
  }
}

export function submitLogin(deps: SignInDeps) {
  return async (req: Request, res: Response) => {
    const s = await signInRequest(deps, req, res);
    if (s.interaction.prompt.name !== 'login') throw new BadRequest('nothing to sign in to');
    const body = formBody(req, ['username', 'password', 'proof_of_authentication_jwt']);
    // the proof path stays for machines; people are not shown it
    const proof = body.proof_of_authentication_jwt?.trim();
    if (proof) return proofLogin(deps, s, proof);
    await passwordLogin(deps, s, body);
  };
}

/** The login page's passkey: a discoverable credential, verified by the device (UV). */
export function submitPasskeySignIn(deps: SignInDeps) {
  return async (req: Request, res: Response) => {
    const s = await signInRequest(deps, req, res);
    if (s.interaction.prompt.name !== 'login') throw new BadRequest('nothing to sign in to');
    const credential = parseCredential(formBody(req, ['credential']).credential);
    const challenge = answeredChallenge(credential);
    const verified =
      challenge && deps.challenges.check(challenge, s.interaction.uid, 'sign-in')
        ? await deps.factors.verifyWebauthn(
            webauthnParty(s),
            s.found.community.id,
            undefined,
            credential,
            challenge,
          )
        : undefined;
    const account =
      verified && (await deps.accounts.find(s.found.community.id, verified.accountId));
    // alone, a passkey must be verified by the device (UV): possession without it is one factor,
    // and the same passkey cannot then count as the second
    if (!verified || !account || !verified.userVerified) {
      deps.events(s.found.community, 'E_OAUTH_LOGIN_FAILED', {
        clientId: s.clientId,
        reason: 'invalid_passkey',
        ...(verified ? { sub: verified.accountId } : {}),
      });
      return showLogin(deps, s, s.frame.t('passkeyRefused'), 401);
    }
    await finishSignIn(deps, s, account, passkeyAmr(true), 'passkey');
  };
}

/** A posted WebAuthn credential (JSON text, at most 16 KiB); a 400 for anything else. */
export function parseCredential(text: string | undefined): unknown {
  if (!text || text.length > 16_384) throw new BadRequest('credential: missing or too long');
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') return parsed;
  } catch {
    // answered below
  }
  throw new BadRequest('credential: not a JSON object');
}

export function submitConsent(deps: SignInDeps) {
  return async (req: Request, res: Response) => {
    const s = await signInRequest(deps, req, res);
    const { provider } = s.found;
    const { interaction } = s;
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
