// The console's two cookies and how they are written. Both are `__Host-` (Secure, Path=/, no
// Domain): Chromium treats http://localhost as a secure context and keeps such cookies there too,
// so development over plain http on loopback needs no weaker variant (checked in Debian's
// chromium 156: both cookies kept and sent back on http://localhost and http://127.0.0.1).
import { BadRequest } from '@idv/http';
import type { Request, Response } from 'express';

export const SESSION_COOKIE = '__Host-idv-console';
export const LOGIN_COOKIE = '__Host-idv-console-login';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Refuses a public URL whose cookies a browser would not keep: plain http off loopback. */
export function assertCookieOrigin(publicUrl: string): void {
  const url = new URL(publicUrl);
  if (url.protocol !== 'https:' && !LOOPBACK.has(url.hostname))
    throw new Error(`CONSOLE_PUBLIC_URL must be https outside loopback: ${publicUrl}`);
}

const attributes = (sameSite: 'Strict' | 'Lax', maxAgeSeconds: number) =>
  `Path=/; Secure; HttpOnly; SameSite=${sameSite}; Max-Age=${maxAgeSeconds}`;

export function setCookie(
  res: Response,
  name: string,
  value: string,
  sameSite: 'Strict' | 'Lax',
  maxAgeSeconds: number,
): void {
  res.append('Set-Cookie', `${name}=${value}; ${attributes(sameSite, maxAgeSeconds)}`);
}

export function clearCookie(res: Response, name: string, sameSite: 'Strict' | 'Lax'): void {
  res.append('Set-Cookie', `${name}=; ${attributes(sameSite, 0)}`);
}

/** The value of cookie `name` in the request; a cookie sent twice is refused. */
export function cookieOf(req: Request, name: string): string | undefined {
  const values = (req.get('cookie') ?? '')
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${name}=`))
    .map((pair) => pair.slice(name.length + 1));
  if (values.length > 1) throw new BadRequest(`cookie ${name} is sent more than once`);
  return values[0] || undefined;
}
