// The sign-in screens: plain HTML forms with labelled fields that work without scripts; the
// passkey forms are hidden until the page's script finds the browser can use them.
import { alert, layout, type PageFrame } from './layout.ts';
import { escapeHtml } from './strings.ts';

/** A passkey ceremony the page's script runs: WebAuthn options in, the credential posted. */
export interface PasskeyForm {
  action: string;
  options: unknown;
}

function passkeyForm(
  frame: PageFrame,
  form: PasskeyForm,
  ceremony: 'get' | 'create',
  label: string,
  failed: string,
) {
  return `<form class="passkey" method="post" action="${escapeHtml(form.action)}" data-passkey="${ceremony}" data-options="${escapeHtml(JSON.stringify(form.options))}" data-failed="${escapeHtml(failed)}" hidden>
<input type="hidden" name="credential">
<p class="alert" role="alert" hidden></p>
<button type="submit" class="secondary">${label}</button>
</form>`;
}

export interface LoginScreen {
  action: string;
  clientName: string;
  username?: string;
  error?: string;
  passkey?: PasskeyForm;
}

export function loginScreen(frame: PageFrame, screen: LoginScreen): string {
  const { t } = frame;
  const passkey = screen.passkey
    ? `<p class="divider"><span>${t('or')}</span></p>
${passkeyForm(frame, screen.passkey, 'get', t('signInWithPasskey'), t('passkeyRefused'))}`
    : '';
  return layout(
    frame,
    t('signInTitle'),
    `<h1>${t('signInTitle')}</h1>
<p class="lead">${t('toContinue', { client: screen.clientName })}</p>
${alert(screen.error)}
<form method="post" action="${escapeHtml(screen.action)}">
<label for="username">${t('username')}</label>
<input id="username" name="username" autocomplete="username webauthn" autocapitalize="none" spellcheck="false" required value="${escapeHtml(screen.username ?? '')}"${screen.username ? '' : ' autofocus'}>
<label for="password">${t('password')}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${screen.username ? ' autofocus' : ''}>
<button type="submit">${t('signIn')}</button>
</form>
${passkey}`,
  );
}

export interface SecondFactorScreen {
  clientName: string;
  /** a step-up: the person is signed in already and asked again */
  stepUp: boolean;
  totpAction?: string;
  passkey?: PasskeyForm;
  recoveryHref: string;
  error?: string;
}

export function secondFactorScreen(frame: PageFrame, screen: SecondFactorScreen): string {
  const { t } = frame;
  const totp = screen.totpAction
    ? `<form method="post" action="${escapeHtml(screen.totpAction)}">
<p>${t('totpPrompt')}</p>
<label for="code">${t('code')}</label>
<input id="code" name="code" inputmode="numeric" pattern="[0-9 ]{6,7}" maxlength="7" autocomplete="one-time-code" required autofocus>
<button type="submit">${t('verify')}</button>
</form>`
    : '';
  const passkey = screen.passkey
    ? `${totp ? `<p class="divider"><span>${t('or')}</span></p>` : `<p>${t('passkeyPrompt')}</p>`}
${passkeyForm(frame, screen.passkey, 'get', t('usePasskey'), t('passkeyRefused'))}`
    : '';
  return layout(
    frame,
    t('secondFactorTitle'),
    `<h1>${t('secondFactorTitle')}</h1>
${screen.stepUp ? `<p class="lead">${t('secondFactorStepUp', { client: screen.clientName })}</p>` : ''}
${alert(screen.error)}
${totp}
${passkey}
<p class="more"><a href="${escapeHtml(screen.recoveryHref)}">${t('useRecoveryCode')}</a></p>`,
  );
}

export function recoveryScreen(
  frame: PageFrame,
  screen: { action: string; backHref: string; error?: string },
): string {
  const { t } = frame;
  return layout(
    frame,
    t('recoveryCode'),
    `<h1>${t('recoveryCode')}</h1>
<p>${t('recoveryPrompt')}</p>
${alert(screen.error)}
<form method="post" action="${escapeHtml(screen.action)}">
<label for="recovery_code">${t('recoveryCode')}</label>
<input id="recovery_code" name="recovery_code" autocomplete="off" autocapitalize="none" spellcheck="false" required autofocus>
<button type="submit">${t('verify')}</button>
</form>
<p class="more"><a href="${escapeHtml(screen.backHref)}">${t('back')}</a></p>`,
  );
}

export interface EnrolChoiceScreen {
  required: boolean;
  totpHref?: string;
  passkeyHref?: string;
  skipAction?: string;
}

export function enrolChoiceScreen(frame: PageFrame, screen: EnrolChoiceScreen): string {
  const { t } = frame;
  const choice = (href: string | undefined, title: string, hint: string) =>
    href
      ? `<li><a class="choice" href="${escapeHtml(href)}"><strong>${title}</strong><span>${hint}</span></a></li>`
      : '';
  const skip = screen.skipAction
    ? `<form method="post" action="${escapeHtml(screen.skipAction)}"><button type="submit" class="link">${t('notNow')}</button></form>`
    : '';
  return layout(
    frame,
    t('enrolTitle'),
    `<h1>${t('enrolTitle')}</h1>
<p class="lead">${screen.required ? t('enrolRequired', { community: frame.community.displayName }) : t('enrolOptional')}</p>
<ul class="choices">
${choice(screen.totpHref, t('enrolTotp'), t('enrolTotpHint'))}
${choice(screen.passkeyHref, t('enrolPasskey'), t('enrolPasskeyHint'))}
</ul>
${skip}`,
  );
}

export interface TotpEnrolScreen {
  action: string;
  qrSvg: string;
  secret: string;
  backHref: string;
  error?: string;
}

export function totpEnrolScreen(frame: PageFrame, screen: TotpEnrolScreen): string {
  const { t } = frame;
  // groups of four, as authenticator apps show keys; the apps ignore the spaces
  const grouped = screen.secret.replace(/(.{4})(?=.)/g, '$1 ');
  return layout(
    frame,
    t('totpTitle'),
    `<h1>${t('totpTitle')}</h1>
<p>${t('totpScan')}</p>
<figure class="qr">${screen.qrSvg}</figure>
<p>${t('totpManual')}</p>
<p class="secret"><span class="visually-hidden">${t('secretKey')}: </span><code id="secret">${escapeHtml(grouped)}</code></p>
${alert(screen.error)}
<form method="post" action="${escapeHtml(screen.action)}">
<label for="code">${t('code')}</label>
<p class="hint" id="code-hint">${t('totpConfirm')}</p>
<input id="code" name="code" inputmode="numeric" pattern="[0-9 ]{6,7}" maxlength="7" autocomplete="one-time-code" aria-describedby="code-hint" required>
<button type="submit">${t('confirm')}</button>
</form>
<p class="more"><a href="${escapeHtml(screen.backHref)}">${t('back')}</a></p>`,
  );
}

export function passkeyEnrolScreen(
  frame: PageFrame,
  screen: { passkey: PasskeyForm; backHref: string; error?: string },
): string {
  const { t } = frame;
  return layout(
    frame,
    t('passkeyTitle'),
    `<h1>${t('passkeyTitle')}</h1>
<p>${t('passkeyExplain')}</p>
${alert(screen.error)}
<p class="no-passkey" hidden>${t('passkeyUnavailable')}</p>
${passkeyForm(frame, screen.passkey, 'create', t('createPasskey'), t('passkeyNotCreated'))}
<p class="more"><a href="${escapeHtml(screen.backHref)}">${t('back')}</a></p>`,
  );
}

export function recoveryCodesScreen(
  frame: PageFrame,
  screen: { codes: string[]; action: string },
): string {
  const { t } = frame;
  const codes = screen.codes.map((code) => `<li><code>${escapeHtml(code)}</code></li>`).join('');
  return layout(
    frame,
    t('recoveryTitle'),
    `<h1>${t('recoveryTitle')}</h1>
<p>${t('recoveryExplain')}</p>
<ol class="codes">${codes}</ol>
<form method="post" action="${escapeHtml(screen.action)}">
<button type="submit">${t('recoverySaved')}</button>
</form>`,
  );
}

export function consentScreen(
  frame: PageFrame,
  screen: { action: string; clientName: string; scopes: string[] },
): string {
  const { t } = frame;
  const known = (scope: string) =>
    ['openid', 'profile', 'offline_access'].includes(scope)
      ? t(`scope_${scope}` as 'scope_openid')
      : escapeHtml(scope);
  const scopes = screen.scopes.map((scope) => `<li>${known(scope)}</li>`).join('');
  return layout(
    frame,
    t('consentTitle'),
    `<h1>${t('consentTitle')}</h1>
<p class="lead">${t('consentAsks', { client: screen.clientName })}</p>
<ul class="scopes">${scopes || `<li>${t('consentNothing')}</li>`}</ul>
<form method="post" action="${escapeHtml(screen.action)}" class="actions">
<button type="submit" name="decision" value="allow">${t('allow')}</button>
<button type="submit" name="decision" value="deny" class="secondary">${t('deny')}</button>
</form>`,
  );
}

export function messageScreen(frame: PageFrame, title: string, message: string): string {
  return layout(frame, title, `<h1>${title}</h1>\n<p>${message}</p>`);
}
