// The one key of everything a worker keeps per provider account (access tokens, SDK clients, mTLS
// dispatchers): built from the job, not from fields each adapter picks, so nothing a verifier's
// credentials obtained serves another verifier, another community, another address or another
// config. Only hashes are kept: no secret, certificate or URL is readable in a key.
import { createHash } from 'node:crypto';

/** A key naming one account; made only by accountOf() and within(). */
export type AccountKey = string & { readonly __account: unique symbol };

/** What accountOf() reads of a job. */
export interface AccountOwner {
  verifier: { id: string; connectorUrl: string };
  context: { communityId: string };
}

/** JSON with every object's members in name order: one text per value, whatever its key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_name, member: unknown) =>
    member && typeof member === 'object' && !Array.isArray(member)
      ? Object.fromEntries(
          Object.entries(member as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : member,
  );
}

function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('base64');
}

/**
 * The account of a job: its verifier, the verifier's community, its connectorUrl and a sha256 of
 * its whole config (secrets and every address member in it), so a changed config is a new account.
 */
export function accountOf(job: AccountOwner, config: unknown): AccountKey {
  return sha256(
    canonical([
      job.verifier.id,
      job.context.communityId,
      job.verifier.connectorUrl,
      sha256(canonical(config)),
    ]),
  ) as AccountKey;
}

/**
 * A part of an account: a site of it (token and verify URLs), the bytes of the client certificate
 * it presents (read from disk per job, so not in the config). The account stays in the key.
 */
export function within(account: AccountKey, ...parts: (string | Buffer | undefined)[]): AccountKey {
  const hashed = parts.map((part) => (part === undefined ? null : sha256(part)));
  return sha256(canonical([account, ...hashed])) as AccountKey;
}
