// Verification config rows: the twelve arrays and the settings as JSON documents.
import type { VerificationSettings } from '@idv/contracts';
import type { Knex } from '@idv/db';
import type { ConfigArrays } from '../domain/configItems.ts';
import { UUID } from '@idv/platform';

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

export class DuplicateConfigTag extends Error {
  override name = 'DuplicateConfigTag';
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
  constructor(private readonly db: Knex) {}

  async create(
    input: Omit<VerificationConfigRecord, 'id' | 'createdAt' | 'updatedAt'>,
  ): Promise<VerificationConfigRecord> {
    try {
      const [row] = await this.db(TABLE)
        .insert({
          tenant_id: input.tenantId,
          community_id: input.communityId,
          tag: input.tag,
          name: input.name,
          arrays: JSON.stringify(input.arrays),
          settings: JSON.stringify(input.settings),
        })
        .returning('*');
      return toRecord(row as Row);
    } catch (err) {
      if ((err as { code?: string }).code === '23505')
        throw new DuplicateConfigTag(`a verification config tagged "${input.tag}" already exists`);
      throw err;
    }
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
    return toRecord(row as Row);
  }

  async delete(config: VerificationConfigRecord): Promise<void> {
    await this.db(TABLE).where({ id: config.id }).delete();
  }
}
