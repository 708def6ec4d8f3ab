// What an ID token says of how the person signed in: `amr` (RFC 8176 values) and `acr`, and
// whether a client's request asks for more than one factor.

/** The authentication context classes the issuers offer (acr_values_supported). */
export const ACR = {
  /** one factor: a password, a passkey without user verification, or a proof */
  single: 'urn:idv:acr:1fa',
  /** two factors, or a passkey with user verification */
  mfa: 'urn:idv:acr:mfa',
} as const;

export const ACR_VALUES: string[] = [ACR.single, ACR.mfa];

export const acrOf = (amr: readonly string[]): string =>
  amr.includes('mfa') ? ACR.mfa : ACR.single;

/** The methods after a second factor (`otp` or `hwk`) was passed on top of `amr`. */
export function withSecondFactor(amr: readonly string[], factor: 'otp' | 'hwk'): string[] {
  return [...new Set([...amr.filter((m) => m !== 'mfa'), factor, 'mfa'])];
}

/** A passkey used on its own: two factors when the device verified the person (UV). */
export const passkeyAmr = (userVerified: boolean): string[] =>
  userVerified ? ['hwk', 'mfa'] : ['hwk'];

/**
 * Whether the authorization request asks for two factors: `acr_values` naming ACR.mfa, or the
 * `claims` parameter asking for it as the ID token's acr.
 */
export function asksForMfa(params: Record<string, unknown>): boolean {
  const values = typeof params.acr_values === 'string' ? params.acr_values.split(' ') : [];
  if (values.includes(ACR.mfa)) return true;
  if (typeof params.claims !== 'string') return false;
  try {
    const acr = (
      JSON.parse(params.claims) as { id_token?: { acr?: { value?: unknown; values?: unknown } } }
    ).id_token?.acr;
    return acr?.value === ACR.mfa || (Array.isArray(acr?.values) && acr.values.includes(ACR.mfa));
  } catch {
    return false;
  }
}
