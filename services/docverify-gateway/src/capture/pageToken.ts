// The capture page's token: 32 random bytes, base64url, its only credential. Only its SHA-256 is
// stored, and the access log writes any path under /capture/ with the token masked.
import { createHash } from 'node:crypto';
import { randomToken } from '@idv/crypto';

/** 32 bytes in base64url without padding. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newPageToken(): string {
  return randomToken(32);
}

export function pageTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The access log's path for one under /capture/ in any case (Express routes it so): `/capture/:token`,
 * whatever follows; an asset's name stays. `path` comes decoded, one slash between segments.
 */
export function maskPageToken(path: string): string {
  if (!/^\/capture\//i.test(path) || /^\/capture\/assets\/[\w.-]+$/i.test(path)) return path;
  return '/capture/:token';
}
