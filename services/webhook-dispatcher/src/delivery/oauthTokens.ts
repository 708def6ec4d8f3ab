// OAuth 2.0 client_credentials tokens for targets. A token stays with the one webhook that obtained
// it, and only while that webhook's token URL, client id, secret and scopes stay exactly the same:
// client ids are not secret, so a cache shared by them would hand one tenant's token to another.
import { createHash } from 'node:crypto';
import type { GuardedHttp } from '@idv/netguard';

export interface TokenRequest {
  /** the webhook asking: its cached token is never given to another */
  webhookId: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

interface Cached {
  token: string;
  expiresAt: number;
}

interface Entry {
  /** digest of the exact credential set the token was obtained with */
  credentials: string;
  token: Promise<Cached>;
}

/** A token is renewed this long before its announced expiry. */
const EARLY_MS = 30_000;
const DEFAULT_LIFETIME_S = 300;

function credentialDigest(request: TokenRequest): string {
  const scopes = [...request.scopes].sort();
  const exact = JSON.stringify([request.tokenUrl, request.clientId, request.clientSecret, scopes]);
  return createHash('sha256').update(exact).digest('base64url');
}

export class OAuthTokens {
  /** by webhook id */
  private readonly cache = new Map<string, Entry>();

  constructor(private readonly http: GuardedHttp) {}

  async token(request: TokenRequest): Promise<string> {
    const credentials = credentialDigest(request);
    const hit = this.cache.get(request.webhookId);
    if (hit?.credentials === credentials) {
      const cached = await hit.token.catch(() => undefined);
      if (cached && cached.expiresAt > Date.now()) return cached.token;
    }
    const entry: Entry = { credentials, token: this.fetch(request) };
    this.cache.set(request.webhookId, entry);
    entry.token.catch(() => this.drop(request.webhookId, entry));
    return (await entry.token).token;
  }

  /** The target answered 401: the webhook's cached token is no good. */
  forget(request: TokenRequest): void {
    this.cache.delete(request.webhookId);
  }

  /** The webhook changed or was deleted: whatever it obtained goes. */
  forgetWebhook(webhookId: string): void {
    this.cache.delete(webhookId);
  }

  /** Change notifications may have been missed. */
  clear(): void {
    this.cache.clear();
  }

  private drop(webhookId: string, entry: Entry): void {
    if (this.cache.get(webhookId) === entry) this.cache.delete(webhookId);
  }

  private async fetch(request: TokenRequest): Promise<Cached> {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (request.scopes.length > 0) form.set('scope', request.scopes.join(' '));
    const basic = Buffer.from(
      `${encodeURIComponent(request.clientId)}:${encodeURIComponent(request.clientSecret)}`,
    ).toString('base64');
    // the guarded client: the token URL resolves through the SSRF guard like a callback's target
    const res = await this.http.request({
      method: 'POST',
      url: request.tokenUrl,
      data: form.toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${basic}`,
      },
    });
    if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}`);
    const body = JSON.parse(res.body.toString('utf8')) as {
      access_token?: unknown;
      expires_in?: unknown;
    };
    if (typeof body.access_token !== 'string')
      throw new Error('token endpoint sent no access_token');
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : DEFAULT_LIFETIME_S;
    return {
      token: body.access_token,
      expiresAt: Date.now() + lifetime * 1000 - Math.min(EARLY_MS, lifetime * 500),
    };
  }
}
