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
