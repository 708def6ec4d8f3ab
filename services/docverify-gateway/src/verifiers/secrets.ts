// Secret members of a verifier config are shown only to a system licence: masked with
// @idv/contracts' maskSecrets for everyone else, and a mask sent back keeps the stored secret.
import { SECRET_CONFIG_FIELDS, SECRET_MASK } from '@idv/contracts';

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
      if (member === SECRET_MASK && SECRET_CONFIG_FIELDS.has(key)) {
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
