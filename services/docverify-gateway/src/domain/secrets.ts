// Secret members of a verifier config are shown only to a system licence.
import { SECRET_CONFIG_FIELDS } from '@idv/contracts';

export const MASK = '********';

/** A copy of `value` with every secret member (at any depth, arrays included) masked. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      SECRET_CONFIG_FIELDS.has(key) ? MASK : maskSecrets(member),
    ]),
  );
}

/**
 * A config sent back as it was shown keeps its secrets: a member equal to MASK takes the stored
 * value at the same place. Returns the member paths that asked for a secret that is not stored.
 */
export function unmaskSecrets(
  given: unknown,
  stored: unknown,
  path = '',
): { value: unknown; missing: string[] } {
  if (Array.isArray(given)) {
    const parts = given.map((item, i) =>
      unmaskSecrets(item, Array.isArray(stored) ? stored[i] : undefined, `${path}/${i}`),
    );
    return { value: parts.map((p) => p.value), missing: parts.flatMap((p) => p.missing) };
  }
  if (!given || typeof given !== 'object') return { value: given, missing: [] };
  const old = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const missing: string[] = [];
  const value = Object.fromEntries(
    Object.entries(given).map(([key, member]) => {
      if (member === MASK && SECRET_CONFIG_FIELDS.has(key)) {
        if (typeof old[key] !== 'string') missing.push(`${path}/${key}`);
        return [key, old[key]];
      }
      const inner = unmaskSecrets(member, old[key], `${path}/${key}`);
      missing.push(...inner.missing);
      return [key, inner.value];
    }),
  );
  return { value, missing };
}
