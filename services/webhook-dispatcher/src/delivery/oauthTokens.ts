// OAuth 2.0 client_credentials tokens for targets, cached until shortly before they expire.
import type { AxiosInstance } from 'axios';

export interface TokenRequest {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

interface Cached {
  token: string;
  expiresAt: number;
}

/** A token is renewed this long before its announced expiry. */
const EARLY_MS = 30_000;
const DEFAULT_LIFETIME_S = 300;

export class OAuthTokens {
  private readonly cache = new Map<string, Promise<Cached>>();

  constructor(private readonly http: AxiosInstance) {}

  private key(request: TokenRequest): string {
    return [request.tokenUrl, request.clientId, [...request.scopes].sort().join(' ')].join('|');
  }

  async token(request: TokenRequest): Promise<string> {
    const key = this.key(request);
    const hit = this.cache.get(key);
    if (hit) {
      const cached = await hit.catch(() => undefined);
      if (cached && cached.expiresAt > Date.now()) return cached.token;
      if (this.cache.get(key) === hit) this.cache.delete(key);
    }
    const fetching = this.fetch(request);
    this.cache.set(key, fetching);
    fetching.catch(() => this.cache.delete(key));
    return (await fetching).token;
  }

  /** The target answered 401: the cached token is no good. */
  forget(request: TokenRequest): void {
    this.cache.delete(this.key(request));
  }

  private async fetch(request: TokenRequest): Promise<Cached> {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (request.scopes.length > 0) form.set('scope', request.scopes.join(' '));
    const basic = Buffer.from(
      `${encodeURIComponent(request.clientId)}:${encodeURIComponent(request.clientSecret)}`,
    ).toString('base64');
    const res = await this.http.post<string>(request.tokenUrl, form.toString(), {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${basic}`,
      },
    });
    if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}`);
    const body = JSON.parse(res.data) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string')
      throw new Error('token endpoint sent no access_token');
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : DEFAULT_LIFETIME_S;
    return {
      token: body.access_token,
      expiresAt: Date.now() + lifetime * 1000 - Math.min(EARLY_MS, lifetime * 500),
    };
  }
}
