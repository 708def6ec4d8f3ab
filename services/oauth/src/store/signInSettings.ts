// Each community's sign-in settings: its second-factor policy, its brute-force limits and the
// branding its sign-in page shows. Read on every page and login, so kept for a few seconds.
import type { Knex } from '@idv/db';
import { DEFAULT_LOGIN_LIMITS, loginLimits, type LoginLimits } from '../login/throttle.ts';
import type { FactorKind } from './factorStore.ts';

const TABLE = 'oauth.sign_in_settings';

export const MFA_POLICIES = ['off', 'optional', 'required'] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];
export const FACTOR_KINDS: readonly FactorKind[] = ['totp', 'webauthn'];

export interface SignInSettings {
  mfaPolicy: MfaPolicy;
  /** the second factors that count in the community */
  mfaFactors: FactorKind[];
  limits: LoginLimits;
  displayName: string | null;
  accentColor: string | null;
  /** a version of the logo for cache-busting URLs; null: none */
  logoVersion: string | null;
}

interface Row {
  mfa_policy: MfaPolicy | null;
  mfa_factors: FactorKind[] | null;
  limits: Partial<LoginLimits> | null;
  display_name: string | null;
  accent_color: string | null;
  logo_type: string | null;
  updated_at: Date;
}

export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const LOGO_MAX_BYTES = 64 * 1024;

/** how long a community's settings are kept before they are read again */
export const SETTINGS_CACHE_MS = 5_000;
const CACHE_MAX = 5_000;

export class SignInSettingsStore {
  private readonly cache = new Map<string, { at: number; settings: Promise<SignInSettings> }>();

  /**
   * @param operatorsCommunity the community whose default policy is `required` (OPERATORS_COMMUNITY)
   * @param now the clock the cache's entries age by (ms since the epoch)
   */
  constructor(
    private readonly db: Knex,
    private readonly operatorsCommunity: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The policy a community has when no operator set one. */
  defaultPolicy(communityName: string): MfaPolicy {
    return communityName === this.operatorsCommunity ? 'required' : 'off';
  }

  async get(community: { id: string; name: string }): Promise<SignInSettings> {
    const hit = this.cache.get(community.id);
    if (hit && this.now() - hit.at < SETTINGS_CACHE_MS) return hit.settings;
    const settings = this.read(community);
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(community.id, { at: this.now(), settings });
    settings.catch(() => this.cache.delete(community.id));
    return settings;
  }

  private async read(community: { id: string; name: string }): Promise<SignInSettings> {
    const row: Row | undefined = await this.db(TABLE)
      .where({ community_id: community.id })
      .first(
        'mfa_policy',
        'mfa_factors',
        'limits',
        'display_name',
        'accent_color',
        'logo_type',
        'updated_at',
      );
    return {
      mfaPolicy: row?.mfa_policy ?? this.defaultPolicy(community.name),
      mfaFactors: row?.mfa_factors ?? [...FACTOR_KINDS],
      // limits stored under an earlier version are read through today's checks
      limits: { ...DEFAULT_LOGIN_LIMITS, ...safeLimits(row?.limits) },
      displayName: row?.display_name ?? null,
      accentColor: row?.accent_color ?? null,
      logoVersion: row?.logo_type ? String(row.updated_at.getTime()) : null,
    };
  }

  async logo(communityId: string): Promise<{ type: string; bytes: Buffer } | undefined> {
    const row = (await this.db(TABLE)
      .where({ community_id: communityId })
      .whereNotNull('logo')
      .first('logo', 'logo_type')) as { logo: Buffer; logo_type: string } | undefined;
    return row ? { type: row.logo_type, bytes: row.logo } : undefined;
  }

  private async save(communityId: string, values: Record<string, unknown>): Promise<void> {
    await this.db(TABLE)
      .insert({ community_id: communityId, ...values, updated_at: this.db.fn.now() })
      .onConflict('community_id')
      .merge();
    this.cache.delete(communityId);
  }

  async setMfa(communityId: string, policy: MfaPolicy, factors?: FactorKind[]): Promise<void> {
    await this.save(communityId, {
      mfa_policy: policy,
      ...(factors ? { mfa_factors: factors } : {}),
    });
  }

  async setLimits(communityId: string, limits: Partial<LoginLimits> | null): Promise<void> {
    await this.save(communityId, { limits: limits ? JSON.stringify(limits) : null });
  }

  async setBranding(
    communityId: string,
    branding: {
      displayName?: string | null;
      accentColor?: string | null;
      logo?: { type: string; bytes: Buffer } | null;
    },
  ): Promise<void> {
    await this.save(communityId, {
      ...(branding.displayName !== undefined ? { display_name: branding.displayName } : {}),
      ...(branding.accentColor !== undefined ? { accent_color: branding.accentColor } : {}),
      ...(branding.logo !== undefined
        ? { logo: branding.logo?.bytes ?? null, logo_type: branding.logo?.type ?? null }
        : {}),
    });
  }
}

function safeLimits(stored: unknown): Partial<LoginLimits> {
  try {
    return stored ? loginLimits(stored) : {};
  } catch {
    return {};
  }
}
