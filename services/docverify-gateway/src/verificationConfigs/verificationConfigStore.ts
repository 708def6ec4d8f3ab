// Verification config rows: the twelve arrays and the settings as JSON documents. A change lands
// only on the version of the row it was judged (and merged) against.
import type { VerificationSettings } from '@idv/contracts';
import { conflictOnDuplicate, type Knex } from '@idv/db';
import { ConflictError, NotFoundError } from '@idv/errors';
import type { ConfigArrays } from './configItems.ts';
import { appendAudit, UUID, type AuditEntry } from '@idv/platform';
import { deepFreeze, ReadCache } from '../shared/readCache.ts';

export interface VerificationConfigRecord {
  id: string;
  tenantId: string;
  communityId: string;
  tag: string;
  name: string;
  arrays: ConfigArrays;
  settings: VerificationSettings;
  /** +1 on every change: what update() compares the row with */
  version: number;
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
  version: number;
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
    version: row.version,
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
    input: Omit<VerificationConfigRecord, 'id' | 'version' | 'createdAt' | 'updatedAt'>,
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

  /**
   * Merges `changes` into `config` as it was read and stores the result only while the row is still
   * at that version: a write that came between makes this one a ConflictError, never a lost change.
   */
  async update(
    config: VerificationConfigRecord,
    changes: {
      name?: string | undefined;
      arrays: ConfigArrays;
      settings?: VerificationSettings | undefined;
    },
    /** an operator's edit: its audit row lands with the change or not at all */
    audit?: AuditEntry,
  ): Promise<VerificationConfigRecord> {
    const patch: Record<string, unknown> = {
      updated_at: this.db.fn.now(),
      version: config.version + 1,
      arrays: JSON.stringify({ ...config.arrays, ...changes.arrays }),
    };
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.settings !== undefined) patch.settings = JSON.stringify(changes.settings);
    const row = await this.db.transaction(async (trx) => {
      const [updated] = (await trx(TABLE)
        .where({ id: config.id, version: config.version })
        .update(patch)
        .returning('*')) as Row[];
      if (updated && audit) await appendAudit(trx, audit);
      return updated;
    });
    this.recent.clear();
    if (!row) throw await this.lostRace(config);
    return toRecord(row);
  }

  /** Deletes the config; a NotFoundError when another request did first. */
  async delete(config: VerificationConfigRecord): Promise<void> {
    const deleted = await this.db(TABLE).where({ id: config.id }).delete();
    this.recent.clear();
    if (deleted === 0) throw new NotFoundError(`verification config ${config.tag} not found`);
  }

  /** Why a config's row was not at the version a change was judged against. */
  private async lostRace(config: VerificationConfigRecord): Promise<Error> {
    const still: unknown = await this.db(TABLE).where({ id: config.id }).first('id');
    if (!still) return new NotFoundError(`verification config ${config.tag} not found`);
    return new ConflictError(
      `verification config ${config.tag} was changed by another request meanwhile; read it again and retry`,
    );
  }
}
