// Verification config rows: the twelve arrays and the settings as JSON documents.
import type { VerificationSettings } from '@idv/contracts';
import { conflictOnDuplicate, type Knex } from '@idv/db';
import type { ConfigArrays } from '../domain/configItems.ts';
import { UUID } from '@idv/platform';
import { deepFreeze, ReadCache } from './readCache.ts';

export interface VerificationConfigRecord {
  id: string;
  tenantId: string;
  communityId: string;
  tag: string;
  name: string;
  arrays: ConfigArrays;
  settings: VerificationSettings;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  id: string;
  tenant_id: string;
  community_id: string;
  tag: string;
  name: string;
  arrays: ConfigArrays;
  settings: VerificationSettings;
  created_at: Date;
  updated_at: Date;
}

const TABLE = 'docverify.verification_configs';

function toRecord(row: Row): VerificationConfigRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    communityId: row.community_id,
    tag: row.tag,
    name: row.name,
    arrays: row.arrays,
    settings: row.settings,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class VerificationConfigStore {
  private readonly recent: ReadCache<VerificationConfigRecord[]>;

  /** cacheMs: how long findCached may serve a config changed through another replica */
  constructor(
    private readonly db: Knex,
    cacheMs = 0,
  ) {
    this.recent = new ReadCache(cacheMs);
  }

  async create(
    input: Omit<VerificationConfigRecord, 'id' | 'createdAt' | 'updatedAt'>,
  ): Promise<VerificationConfigRecord> {
    const [row] = await conflictOnDuplicate(
      () =>
        this.db(TABLE)
          .insert({
            tenant_id: input.tenantId,
            community_id: input.communityId,
            tag: input.tag,
            name: input.name,
            arrays: JSON.stringify(input.arrays),
            settings: JSON.stringify(input.settings),
          })
          .returning('*'),
      `a verification config tagged "${input.tag}" already exists`,
    );
    this.recent.clear();
    return toRecord(row as Row);
  }

  async list(communityId: string): Promise<VerificationConfigRecord[]> {
    const rows: Row[] = await this.db(TABLE)
      .where({ community_id: communityId })
      .orderBy('created_at');
    return rows.map(toRecord);
  }

  /** By id or tag within the given communities (a licence may cover several). */
  async find(communityIds: string[] | 'all', idOrTag: string): Promise<VerificationConfigRecord[]> {
    const query = this.db(TABLE)
      .where(UUID.test(idOrTag) ? { id: idOrTag } : { tag: idOrTag })
      .limit(2);
    if (communityIds !== 'all') query.whereIn('community_id', communityIds);
    const rows: Row[] = await query;
    return rows.map(toRecord);
  }

  /**
   * find() for POST /verify, served from a short cache (read-only records); a miss is never
   * kept, so a config made on another replica is found at once.
   */
  findCached(
    communityIds: string[] | 'all',
    idOrTag: string,
  ): Promise<readonly VerificationConfigRecord[]> {
    return this.recent.get(
      JSON.stringify([communityIds, idOrTag]),
      async () => deepFreeze(await this.find(communityIds, idOrTag)),
      (found) => found.length > 0,
    );
  }

  async update(
    config: VerificationConfigRecord,
    changes: {
      name?: string | undefined;
      arrays: ConfigArrays;
      settings?: VerificationSettings | undefined;
    },
  ): Promise<VerificationConfigRecord> {
    const patch: Record<string, unknown> = {
      updated_at: this.db.fn.now(),
      arrays: JSON.stringify({ ...config.arrays, ...changes.arrays }),
    };
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.settings !== undefined) patch.settings = JSON.stringify(changes.settings);
    const [row] = await this.db(TABLE).where({ id: config.id }).update(patch).returning('*');
    this.recent.clear();
    return toRecord(row as Row);
  }

  async delete(config: VerificationConfigRecord): Promise<void> {
    await this.db(TABLE).where({ id: config.id }).delete();
    this.recent.clear();
  }
}
