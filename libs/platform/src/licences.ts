// Licences: created with a random key shown once, looked up by its hash, with a short cache.
import { hashLicenceKey, randomToken } from '@idv/crypto';
import type { Knex } from '@idv/db';
import { NotFoundInPlatform, UUID, type Community } from './tenants.ts';

export const LICENCE_LEVELS = ['system', 'service', 'service_ext', 'community'] as const;
export type LicenceLevel = (typeof LICENCE_LEVELS)[number];

export interface Licence {
  id: string;
  level: LicenceLevel;
  /** communities the licence covers; a system licence covers every community */
  communities: Community[];
  expiresAt: Date | null;
  disabled: boolean;
}

export type LicenceVerdict =
  { ok: true; licence: Licence } | { ok: false; reason: 'unknown' | 'disabled' | 'expired' };

export interface NewLicence {
  level: LicenceLevel;
  communityIds: string[];
  expiresAt?: Date | undefined;
}

interface CacheEntry {
  licence: Licence | undefined;
  until: number;
}

export class LicenceStore {
  private readonly cache = new Map<string, CacheEntry>();

  /** cacheMs: how long a looked-up licence is trusted before re-reading (disable takes this long) */
  constructor(
    private readonly db: Knex,
    private readonly cacheMs = 5000,
    private readonly cacheCapacity = 10_000,
  ) {}

  async create(input: NewLicence): Promise<{ licenseKey: string; licence: Licence }> {
    const licenseKey = `lk_${randomToken(32)}`;
    const malformed = input.communityIds.filter((id) => !UUID.test(id));
    if (malformed.length > 0)
      throw new NotFoundInPlatform(`community ${malformed.join(', ')} does not exist`);
    const licence = await this.db.transaction(async (trx) => {
      const communities = await trx('platform.communities')
        .whereIn('id', input.communityIds)
        .select('id', 'name', 'tenant_id as tenantId');
      const missing = input.communityIds.filter((id) => !communities.some((c) => c.id === id));
      if (missing.length > 0)
        throw new NotFoundInPlatform(`community ${missing.join(', ')} does not exist`);
      const [row] = await trx('platform.licences')
        .insert({
          key_hash: hashLicenceKey(licenseKey),
          level: input.level,
          expires_at: input.expiresAt ?? null,
        })
        .returning(['id']);
      const id = (row as { id: string }).id;
      if (communities.length > 0) {
        await trx('platform.licence_communities').insert(
          communities.map((c) => ({ licence_id: id, community_id: c.id })),
        );
      }
      return {
        id,
        level: input.level,
        communities,
        expiresAt: input.expiresAt ?? null,
        disabled: false,
      };
    });
    return { licenseKey, licence };
  }

  async setDisabled(licenceId: string, disabled: boolean): Promise<void> {
    await this.db('platform.licences').where({ id: licenceId }).update({ disabled });
    this.cache.clear();
  }

  /** The id of the licence a key or an id names (an operator may give either); undefined: none. */
  async idOf(keyOrId: string): Promise<string | undefined> {
    const row = await this.db('platform.licences')
      .where(UUID.test(keyOrId) ? { id: keyOrId } : { key_hash: hashLicenceKey(keyOrId) })
      .first<{ id: string } | undefined>('id');
    return row?.id;
  }

  /** Validity at `now`: unknown, disabled and expired licences are refused with their reason. */
  async check(licenseKey: string, now = new Date()): Promise<LicenceVerdict> {
    const licence = await this.findByKey(licenseKey);
    if (!licence) return { ok: false, reason: 'unknown' };
    if (licence.disabled) return { ok: false, reason: 'disabled' };
    if (licence.expiresAt && licence.expiresAt.getTime() <= now.getTime())
      return { ok: false, reason: 'expired' };
    return { ok: true, licence };
  }

  private async findByKey(licenseKey: string): Promise<Licence | undefined> {
    const hash = hashLicenceKey(licenseKey);
    const hit = this.cache.get(hash);
    if (hit && hit.until > Date.now()) return hit.licence;
    const licence = await this.load(hash);
    if (this.cache.size >= this.cacheCapacity) this.cache.clear();
    this.cache.set(hash, { licence, until: Date.now() + this.cacheMs });
    return licence;
  }

  private async load(hash: string): Promise<Licence | undefined> {
    const row = await this.db('platform.licences')
      .where({ key_hash: hash })
      .first<
        { id: string; level: LicenceLevel; expires_at: Date | null; disabled: boolean } | undefined
      >('id', 'level', 'expires_at', 'disabled');
    if (!row) return undefined;
    const communities = await this.db('platform.licence_communities as lc')
      .join('platform.communities as c', 'c.id', 'lc.community_id')
      .where('lc.licence_id', row.id)
      .orderBy('c.name')
      .select<Community[]>('c.id', 'c.name', 'c.tenant_id as tenantId');
    return {
      id: row.id,
      level: row.level,
      communities,
      expiresAt: row.expires_at,
      disabled: row.disabled,
    };
  }
}
