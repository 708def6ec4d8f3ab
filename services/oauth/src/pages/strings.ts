// The sign-in pages' words in English and Spanish; `{name}` marks a value filled in (escaped).
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

const en = {
  signInTitle: 'Sign in',
  toContinue: 'to continue to {client}',
  username: 'Username',
  password: 'Password',
  signIn: 'Sign in',
  or: 'or',
  signInWithPasskey: 'Sign in with a passkey',
  wrongCredentials: 'Wrong username or password.',
  throttled: 'Too many attempts. Wait {seconds} seconds, then try again.',
  locked:
    'Too many failed attempts: signing in to this account from this network is paused until {time} (UTC). You can still sign in from another network or device, or ask your administrator to unlock the account.',
  expiredTitle: 'This sign-in has expired',
  expired:
    'For your safety, a sign-in lasts ten minutes. Go back to the application and start again.',
  secondFactorTitle: 'Two-step verification',
  secondFactorStepUp: '{client} asks you to confirm it is you.',
  totpPrompt: 'Enter the 6-digit code from your authenticator app.',
  code: 'Code',
  verify: 'Verify',
  wrongCode:
    'That code is not right, or it was already used. Codes change every 30 seconds: wait for a new one.',
  tooManyCodes: 'Too many wrong codes. Start again: go back to the application and sign in.',
  usePasskey: 'Use your passkey',
  passkeyPrompt: 'Confirm with the passkey on this device or your phone.',
  passkeyRefused: 'The passkey was not accepted. Try again, or use another method.',
  passkeyUnavailable: 'This browser cannot use passkeys here.',
  otherMethods: 'Other ways to verify',
  useRecoveryCode: 'Use a recovery code',
  recoveryPrompt:
    'Enter one of the recovery codes you saved when you set up two-step verification. Each code works once.',
  recoveryCode: 'Recovery code',
  wrongRecoveryCode: 'That recovery code is not right, or it was already used.',
  back: 'Back',
  enrolTitle: 'Set up two-step verification',
  enrolRequired:
    '{community} asks for a second step each time you sign in. Choose how you want to confirm it is you.',
  enrolOptional:
    'Protect your account with a second step: even with your password, nobody can sign in without it.',
  enrolTotp: 'Authenticator app',
  enrolTotpHint: 'Google Authenticator, Microsoft Authenticator, 1Password and similar apps.',
  enrolPasskey: 'Passkey',
  enrolPasskeyHint: 'Your fingerprint, face or screen lock on this device, or a security key.',
  notNow: 'Not now',
  totpTitle: 'Add an authenticator app',
  totpScan: 'Scan this QR code with your authenticator app.',
  totpManual: 'Cannot scan it? Enter this key in the app instead:',
  secretKey: 'Secret key',
  totpConfirm: 'Then enter the 6-digit code the app shows.',
  confirm: 'Confirm',
  qrLabel: 'Scan with your authenticator app',
  passkeyTitle: 'Create a passkey',
  passkeyExplain:
    'Your device will ask you to confirm with your fingerprint, face, screen lock or security key. Nothing about it leaves the device.',
  createPasskey: 'Create a passkey',
  passkeyNotCreated: 'The passkey was not created. Try again, or choose another method.',
  recoveryTitle: 'Save your recovery codes',
  recoveryExplain:
    'If you lose your phone or passkey, each of these codes signs you in once. Keep them somewhere safe: they are shown only now.',
  recoverySaved: 'I have saved them, continue',
  consentTitle: 'Allow access',
  consentAsks: '{client} asks for:',
  consentNothing: 'no access beyond signing you in',
  allow: 'Allow',
  deny: 'Deny',
  signedInAs: 'Signing in as {username}',
  scope_openid: 'to know who you are',
  scope_profile: 'your name and username',
  scope_offline_access: 'to stay signed in when you are not using it',
};

export type StringKey = keyof typeof en;

const es: Record<StringKey, string> = {
  signInTitle: 'Iniciar sesión',
  toContinue: 'para continuar a {client}',
  username: 'Usuario',
  password: 'Contraseña',
  signIn: 'Entrar',
  or: 'o',
  signInWithPasskey: 'Entrar con una llave de acceso',
  wrongCredentials: 'Usuario o contraseña incorrectos.',
  throttled: 'Demasiados intentos. Espere {seconds} segundos y vuelva a intentarlo.',
  locked:
    'Demasiados intentos fallidos: el acceso a esta cuenta desde esta red está en pausa hasta las {time} (UTC). Puede entrar desde otra red u otro dispositivo, o pedir a su administrador que desbloquee la cuenta.',
  expiredTitle: 'Este inicio de sesión ha caducado',
  expired:
    'Por su seguridad, un inicio de sesión dura diez minutos. Vuelva a la aplicación y empiece de nuevo.',
  secondFactorTitle: 'Verificación en dos pasos',
  secondFactorStepUp: '{client} le pide confirmar que es usted.',
  totpPrompt: 'Introduzca el código de 6 cifras de su aplicación de autenticación.',
  code: 'Código',
  verify: 'Verificar',
  wrongCode:
    'El código no es correcto o ya se usó. Los códigos cambian cada 30 segundos: espere a uno nuevo.',
  tooManyCodes:
    'Demasiados códigos incorrectos. Empiece de nuevo: vuelva a la aplicación e inicie sesión.',
  usePasskey: 'Usar su llave de acceso',
  passkeyPrompt: 'Confirme con la llave de acceso de este dispositivo o de su teléfono.',
  passkeyRefused: 'La llave de acceso no fue aceptada. Vuelva a intentarlo o use otro método.',
  passkeyUnavailable: 'Este navegador no puede usar llaves de acceso aquí.',
  otherMethods: 'Otras formas de verificar',
  useRecoveryCode: 'Usar un código de recuperación',
  recoveryPrompt:
    'Introduzca uno de los códigos de recuperación que guardó al activar la verificación en dos pasos. Cada código sirve una vez.',
  recoveryCode: 'Código de recuperación',
  wrongRecoveryCode: 'El código de recuperación no es correcto o ya se usó.',
  back: 'Volver',
  enrolTitle: 'Active la verificación en dos pasos',
  enrolRequired:
    '{community} pide un segundo paso cada vez que inicia sesión. Elija cómo quiere confirmar que es usted.',
  enrolOptional:
    'Proteja su cuenta con un segundo paso: aunque alguien sepa su contraseña, no podrá entrar sin él.',
  enrolTotp: 'Aplicación de autenticación',
  enrolTotpHint: 'Google Authenticator, Microsoft Authenticator, 1Password y similares.',
  enrolPasskey: 'Llave de acceso',
  enrolPasskeyHint:
    'Su huella, su cara o el bloqueo de pantalla de este dispositivo, o una llave de seguridad.',
  notNow: 'Ahora no',
  totpTitle: 'Añadir una aplicación de autenticación',
  totpScan: 'Escanee este código QR con su aplicación de autenticación.',
  totpManual: '¿No puede escanearlo? Introduzca esta clave en la aplicación:',
  secretKey: 'Clave secreta',
  totpConfirm: 'Después introduzca el código de 6 cifras que muestra la aplicación.',
  confirm: 'Confirmar',
  qrLabel: 'Escanear con su aplicación de autenticación',
  passkeyTitle: 'Crear una llave de acceso',
  passkeyExplain:
    'Su dispositivo le pedirá confirmar con su huella, su cara, el bloqueo de pantalla o una llave de seguridad. Nada de ello sale del dispositivo.',
  createPasskey: 'Crear una llave de acceso',
  passkeyNotCreated: 'No se creó la llave de acceso. Vuelva a intentarlo o elija otro método.',
  recoveryTitle: 'Guarde sus códigos de recuperación',
  recoveryExplain:
    'Si pierde su teléfono o su llave de acceso, cada uno de estos códigos le permite entrar una vez. Guárdelos en un lugar seguro: solo se muestran ahora.',
  recoverySaved: 'Ya los guardé, continuar',
  consentTitle: 'Permitir el acceso',
  consentAsks: '{client} pide:',
  consentNothing: 'ningún acceso aparte de iniciar su sesión',
  allow: 'Permitir',
  deny: 'Denegar',
  signedInAs: 'Entrando como {username}',
  scope_openid: 'saber quién es usted',
  scope_profile: 'su nombre y su usuario',
  scope_offline_access: 'mantener la sesión cuando no la usa',
};

const TABLES: Record<Locale, Record<StringKey, string>> = { en, es };

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The words of one locale: t(key, values) gives escaped HTML text. */
export type Translate = (key: StringKey, values?: Record<string, string>) => string;

export function translator(locale: Locale): Translate {
  const table = TABLES[locale];
  return (key, values = {}) =>
    escapeHtml(table[key]).replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in values ? `<strong>${escapeHtml(values[name]!)}</strong>` : whole,
    );
}

/**
 * The locale to show: the first of the OIDC `ui_locales` the pages speak, else the first of the
 * browser's Accept-Language (by q), else English.
 */
export function pickLocale(uiLocales: unknown, acceptLanguage: string | undefined): Locale {
  const speaks = (tag: string) => {
    const base = tag.trim().toLowerCase().split('-')[0];
    return (LOCALES as readonly string[]).includes(base ?? '') ? (base as Locale) : undefined;
  };
  for (const tag of typeof uiLocales === 'string' ? uiLocales.split(' ') : []) {
    const found = speaks(tag);
    if (found) return found;
  }
  const ranked = (acceptLanguage ?? '')
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { tag, q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const found = speaks(tag);
    if (found) return found;
  }
  return 'en';
}
