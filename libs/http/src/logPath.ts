// What the access log may write of a request's path: never a credential it carries, however the
// path was spelled (case, percent-encoding, doubled or back slashes), and never its query string.

/**
 * Layers of percent-encoding decoded at most: clients and proxies add one or two. Each pass costs
 * a scan of the path, and a 16 KB path of %2525… would otherwise take thousands of them on the
 * event loop of a request that needs no credentials.
 */
const MAX_DECODES = 4;
const ENCODED = /%[0-9a-f]{2}/i;
const UNDECODABLE = '/:undecodable';

/**
 * The path without its query, every %XX decoded (malformed ones stay); a path still encoded after
 * MAX_DECODES layers is logged as `/:undecodable`, none of it.
 */
export function decodedPath(path: string): string {
  let decoded = path.split('?')[0] ?? '';
  for (let pass = 0; pass < MAX_DECODES; pass += 1) {
    const next = decode(decoded);
    if (next === decoded) return decoded;
    decoded = next;
  }
  return ENCODED.test(decoded) ? UNDECODABLE : decoded;
}

const decode = (text: string) =>
  text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The decoded path with runs of slashes and backslashes as one slash, as a browser reads it. */
export function normalisedPath(path: string): string {
  return decodedPath(path).replace(/[\\/]+/g, '/');
}

/**
 * A run of URL-safe characters as long and as mixed in case as a random token (a 32-byte base64url
 * token has 43): ids (UUIDs, 36), hashes (lower-case hex) and names do not match.
 */
const CREDENTIAL_RUN = /[A-Za-z0-9_-]{40,}/g;
const looksRandom = (run: string) => /[A-Z]/.test(run) && /[a-z]/.test(run);

/**
 * `path` without what looks like a credential: a safety net under the services' own masks, for a
 * token sent where no route expects one. Unchanged (query aside) when nothing matches.
 */
export function maskCredentialShapes(path: string): string {
  const decoded = decodedPath(path);
  if (decoded === UNDECODABLE) return UNDECODABLE;
  const runs = decoded.match(CREDENTIAL_RUN) ?? [];
  if (!runs.some(looksRandom)) return path.split('?')[0] ?? '';
  return decoded.replace(CREDENTIAL_RUN, (run) => (looksRandom(run) ? ':secret' : run));
}
