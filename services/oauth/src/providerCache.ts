// One oidc-provider per community issuer, built lazily from the database and cached; a key
// rotation made by the admin CLI is noticed within `keyRefreshMs`.
import Provider, { errors } from 'oidc-provider';
import type { Community, TenantStore } from '@idv/platform';
import { providerConfiguration, type CommunityProviderDeps } from './providerConfig.ts';
import type { SigningKeyStore } from './store/signingKeyStore.ts';

export interface CommunityIssuer {
  community: Community;
  issuer: string;
  provider: Provider;
  /** the provider as a Node request handler, composed once */
  handle: ReturnType<Provider['callback']>;
}

interface Entry {
  communityName: string;
  issuer: Promise<CommunityIssuer | undefined>;
  fingerprint: string;
  checkedAt: number;
}

export interface ProviderCacheDeps extends CommunityProviderDeps {
  tenants: TenantStore;
  keys: SigningKeyStore;
  /** how long a built issuer is used before its signing key states are compared again */
  keyRefreshMs: number;
  /** called with each new provider, e.g. to attach event listeners */
  onProvider?: (issuer: CommunityIssuer) => void;
}

/** Issuers kept at once: communities times public origins; the oldest built goes first. */
const MAX_ISSUERS = 500;
/**
 * Public origins one community's issuers are kept for at once. The origin comes from the request
 * (Host, or X-Forwarded-Host behind a trusted proxy) when OAUTH_PUBLIC_URL is unset: a client that
 * sends a new one each time makes the community its path names rebuild its issuers, the oldest of
 * them going first, and evicts no other community's (so set OAUTH_PUBLIC_URL in production: then
 * the request's origin is never read).
 */
const MAX_ORIGINS_PER_COMMUNITY = 4;

export class ProviderCache {
  private readonly entries = new Map<string, Entry>();
  /** each community's keys, oldest first */
  private readonly origins = new Map<string, string[]>();
  /** the keys of issuers built for existing communities, oldest first: what MAX_ISSUERS counts */
  private readonly built = new Set<string>();

  constructor(private readonly deps: ProviderCacheDeps) {}

  /** issuers built and kept now (not those being built) */
  get size(): number {
    return this.built.size;
  }

  /** base: scheme://host of the public URL, without a trailing slash. */
  async get(base: string, communityName: string): Promise<CommunityIssuer | undefined> {
    const key = `${base}|${communityName}`;
    const entry = this.entries.get(key);
    if (entry && Date.now() - entry.checkedAt < this.deps.keyRefreshMs) return entry.issuer;
    if (entry) {
      entry.checkedAt = Date.now();
      const found = await entry.issuer;
      if (!found) return this.build(key, base, communityName);
      const fingerprint = await this.deps.keys.fingerprint(found.community.id);
      if (fingerprint === entry.fingerprint) return found;
    }
    return this.build(key, base, communityName);
  }

  private async build(key: string, base: string, communityName: string) {
    const entry: Entry = {
      communityName,
      issuer: Promise.resolve(undefined),
      fingerprint: '',
      checkedAt: Date.now(),
    };
    entry.issuer = (async () => {
      const community = await this.deps.tenants.findCommunityByName(communityName);
      if (!community || community.name !== communityName) return undefined;
      const keys = await this.deps.keys.keySet(community.id);
      entry.fingerprint = await this.deps.keys.fingerprint(community.id);
      const issuer = `${base}/community/${encodeURIComponent(community.name)}`;
      const provider = new Provider(issuer, providerConfiguration(this.deps, community, keys));
      // the community router sets X-Forwarded-Proto/-Host from the issuer's base on every
      // request it hands over (a client's own are overwritten), so endpoint URLs match the issuer
      provider.proxy = true;
      // a path no route of the issuer serves answers the platform's error body, not Koa's text;
      // so does a refusal thrown after oidc-provider's own error handling (the session saved at
      // the end of a logout whose state PostgreSQL cannot store), in oidc-provider's JSON shape
      provider.use(async (ctx, next) => {
        try {
          await next();
        } catch (err) {
          if (!(err instanceof errors.OIDCProviderError) || err.statusCode >= 500) throw err;
          ctx.status = err.statusCode;
          ctx.body = { error: err.error, error_description: err.error_description ?? err.message };
          return;
        }
        if (ctx.status === 404 && (ctx.body === undefined || ctx.body === 'Not Found')) {
          ctx.status = 404;
          ctx.body = {
            statusCode: 404,
            error: 'Not Found',
            message: `no route for ${ctx.method} ${ctx.path}`,
          };
        }
      });
      const built = { community, issuer, provider, handle: provider.callback() };
      this.deps.onProvider?.(built);
      return built;
    })();
    // the key carries the request's origin, which a client chooses (Host, X-Forwarded-Host): a
    // community keeps a few origins, and only issuers of existing communities count against the
    // bound of all, so names that exist nowhere evict nothing
    const mine = (this.origins.get(communityName) ?? []).filter((k) => k !== key);
    while (mine.length >= MAX_ORIGINS_PER_COMMUNITY) {
      const oldest = mine.shift()!;
      this.entries.delete(oldest);
      this.built.delete(oldest);
    }
    this.origins.set(communityName, [...mine, key]);
    this.entries.set(key, entry);
    // neither an unknown name nor a failed build (database down) stays cached, nor counts
    entry.issuer.then(
      (found) => {
        if (!found) return this.forget(key, entry);
        if (this.entries.get(key) !== entry) return;
        this.built.delete(key); // a rebuild of the key is the newest
        this.built.add(key);
        while (this.built.size > MAX_ISSUERS) {
          const [oldest] = this.built;
          this.forget(oldest!, this.entries.get(oldest!)!);
        }
      },
      () => this.forget(key, entry),
    );
    return entry.issuer;
  }

  /** Drops `entry` of `key`, unless a newer build of the same key took its place meanwhile. */
  private forget(key: string, entry: Entry): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.built.delete(key);
    const left = (this.origins.get(entry.communityName) ?? []).filter((k) => k !== key);
    if (left.length > 0) this.origins.set(entry.communityName, left);
    else this.origins.delete(entry.communityName);
  }
}
