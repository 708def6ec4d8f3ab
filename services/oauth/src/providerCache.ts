// One oidc-provider per community issuer, built lazily from the database and cached; a key
// rotation made by the admin CLI is noticed within REVALIDATE_MS.
import Provider from 'oidc-provider';
import type { Community, TenantStore } from '@idv/platform';
import { providerConfiguration, type CommunityProviderDeps } from './providerConfig.ts';
import type { SigningKeyStore } from './store/signingKeyStore.ts';

const REVALIDATE_MS = 10_000;

export interface CommunityIssuer {
  community: Community;
  issuer: string;
  provider: Provider;
  /** the provider as a Node request handler, composed once */
  handle: ReturnType<Provider['callback']>;
}

interface Entry {
  issuer: Promise<CommunityIssuer | undefined>;
  fingerprint: string;
  checkedAt: number;
}

export interface ProviderCacheDeps extends CommunityProviderDeps {
  tenants: TenantStore;
  keys: SigningKeyStore;
  /** trust X-Forwarded-* (behind a TLS proxy the issuer's URLs become https) */
  proxy: boolean;
  /** called with each new provider, e.g. to attach event listeners */
  onProvider?: (issuer: CommunityIssuer) => void;
}

export class ProviderCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly deps: ProviderCacheDeps) {}

  /** base: scheme://host of the public URL, without a trailing slash. */
  async get(base: string, communityName: string): Promise<CommunityIssuer | undefined> {
    const key = `${base}|${communityName}`;
    const entry = this.entries.get(key);
    if (entry && Date.now() - entry.checkedAt < REVALIDATE_MS) return entry.issuer;
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
      issuer: Promise.resolve(undefined),
      fingerprint: '',
      checkedAt: Date.now(),
    };
    entry.issuer = (async () => {
      const community = await this.deps.tenants.findCommunity(communityName);
      if (!community || community.name !== communityName) return undefined;
      const keys = await this.deps.keys.keySet(community.id);
      entry.fingerprint = await this.deps.keys.fingerprint(community.id);
      const issuer = `${base}/community/${encodeURIComponent(community.name)}`;
      const provider = new Provider(issuer, providerConfiguration(this.deps, community, keys));
      provider.proxy = this.deps.proxy;
      const built = { community, issuer, provider, handle: provider.callback() };
      this.deps.onProvider?.(built);
      return built;
    })();
    this.entries.set(key, entry);
    // neither an unknown name nor a failed build (database down) stays cached
    entry.issuer.then(
      (found) => found ?? this.entries.delete(key),
      () => this.entries.delete(key),
    );
    return entry.issuer;
  }
}
