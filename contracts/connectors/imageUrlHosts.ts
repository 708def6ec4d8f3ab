// The hosts a community lets the image URLs of its documents name (liveIdUrl, image1Url,
// front_image_url, ...), as its operator lists them: exact hosts (names or IP literals) and
// `*.example.com` (any host below example.com, not example.com itself). No list: any host the SSRF
// guard lets through. The gateway refuses such a request, the connector worker such a job.
import { VerifyDocument } from '../http/docverifyVerify.ts';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const NAME = `${LABEL}(?:\\.${LABEL})*`;
/** An entry as stored: lower case ASCII, a name (or IPv4) with an optional `*.`, or [IPv6]. */
const ENTRY = new RegExp(`^(?:(?:\\*\\.)?${NAME}|\\[[0-9a-f:.]+\\])$`);

/** Document members holding an image URL the caller gives. */
export const IMAGE_URL_MEMBERS: readonly string[] = Object.entries(
  VerifyDocument.properties as Record<string, { description?: string }>,
)
  .filter(([, schema]) => schema.description === 'presigned URL')
  .map(([name]) => name);

/** The host of an entry as URLs name it (lower case, IDN as punycode), or undefined. */
function entryHost(entry: string): string | undefined {
  const wildcard = entry.startsWith('*.');
  let url: URL;
  try {
    url = new URL(`http://${wildcard ? entry.slice(2) : entry}/`);
  } catch {
    return undefined;
  }
  // a port, a path or credentials: not a host
  if (url.host !== url.hostname || url.pathname !== '/' || url.username || url.search)
    return undefined;
  const host = url.hostname.replace(/\.$/, '');
  return wildcard ? `*.${host}` : host;
}

/** The operator's entries as stored (trimmed, normalised, once each); `invalid` names the rest. */
export function imageUrlHostList(entries: readonly string[]): {
  hosts: string[];
  invalid: string[];
} {
  const hosts = new Set<string>();
  const invalid: string[] = [];
  for (const entry of entries) {
    const host = entryHost(entry.trim());
    // `*.com` would allow a whole top-level domain: a wildcard needs two labels below it
    const tooWide = host?.startsWith('*.') === true && !host.slice(2).includes('.');
    if (host && ENTRY.test(host) && !tooWide) hosts.add(host);
    else invalid.push(entry);
  }
  return { hosts: [...hosts], invalid };
}

/** Whether a URL's host is one the entries allow. */
export function imageUrlHostAllowed(host: string, hosts: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return hosts.some((entry) =>
    entry.startsWith('*.') ? name.endsWith(entry.slice(1)) : name === entry,
  );
}

export interface RefusedImageUrl {
  /** the document member, e.g. image1Url */
  member: string;
  /** the host it names ('' when it is no URL) */
  host: string;
  /** what callers and logs read: the member, the host and the rule */
  message: string;
}

function hostOf(value: string): string {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.hostname : '';
  } catch {
    return '';
  }
}

/**
 * Whether two URL parsers read the same host in `value`: not so with credentials
 * (`https://evil.example%23@allowed.example/` is allowed.example here, evil.example to a parser
 * that decodes first), a percent sign or a backslash in the authority.
 */
function plainAuthority(value: string): boolean {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(value)?.[1] ?? '';
  return !/[@%\\]/.test(authority);
}

/** The image URL members of `document` whose host the list does not allow; none without a list. */
export function refusedImageUrls(
  document: Record<string, unknown>,
  hosts: readonly string[],
): RefusedImageUrl[] {
  if (hosts.length === 0) return [];
  const refused: RefusedImageUrl[] = [];
  for (const member of IMAGE_URL_MEMBERS) {
    const value = document[member];
    if (value === undefined || value === '') continue;
    const host = typeof value === 'string' ? hostOf(value) : '';
    const plain = typeof value === 'string' && plainAuthority(value);
    if (host && plain && imageUrlHostAllowed(host, hosts)) continue;
    const named = !host
      ? 'no host'
      : plain
        ? `host ${host}`
        : `host ${host} behind credentials, a percent sign or a backslash`;
    const message = `${member} names ${named}, which is not among the image URL hosts this community allows (imageUrlHosts, set by its operator)`;
    refused.push({ member, host, message });
  }
  return refused;
}
