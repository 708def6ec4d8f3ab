// A browser that signed in to an account before carries a cookie saying so (a MAC of the
// community and username, nothing readable): the account-wide backoff an attacker can cause
// from other addresses does not slow its owner down there (OWASP's device cookies).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

const MAX_AGE_MS = 180 * 24 * 3600 * 1000;

export class KnownDevices {
  constructor(private readonly key: Buffer) {}

  private cookieName(communityName: string): string {
    return `_idv_device_${communityName.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  }

  private mac(communityId: string, username: string): Buffer {
    return createHmac('sha256', this.key)
      .update(`${communityId}|${username}`)
      .digest()
      .subarray(0, 18);
  }

  knows(req: Request, community: { id: string; name: string }, username: string): boolean {
    const raw = cookieValue(req.headers.cookie, this.cookieName(community.name));
    if (!raw) return false;
    const expected = this.mac(community.id, username);
    return raw
      .split('.')
      .slice(0, 5)
      .some((value) => {
        const given = Buffer.from(value, 'base64url');
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
  }

  /** Adds the account to the browser's cookie (the last five accounts signed in). */
  remember(
    req: Request,
    res: Response,
    community: { id: string; name: string },
    username: string,
    secure: boolean,
  ): void {
    const name = this.cookieName(community.name);
    const mine = this.mac(community.id, username).toString('base64url');
    const others = (cookieValue(req.headers.cookie, name) ?? '')
      .split('.')
      .filter((value) => /^[A-Za-z0-9_-]{24}$/.test(value) && value !== mine);
    res.cookie(name, [mine, ...others].slice(0, 5).join('.'), {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: MAX_AGE_MS,
      path: `/community/${encodeURIComponent(community.name)}/`,
    });
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
