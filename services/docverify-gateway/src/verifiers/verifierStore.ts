// Verifier rows; the config is sealed as one JSON document bound to the verifier id, under the
// verifier's own data key (destroyed with it). Every write
// stores an E_IDV_VERIFIER_CHANGED event in the outbox in the same transaction; a change lands only
// on the version of the row it was judged against.
import { randomUUID } from 'node:crypto';
import {
  eventEnvelope,
  type ConnectorType,
  type EventEnvelope,
  type VerifierLimits,
} from '@idv/contracts';
import { conflictOnDuplicate, type EventOutbox, type Knex } from '@idv/db';
import { ConflictError, NotFoundError } from '@idv/errors';
import {
  appendAudit,
  UUID,
  type AuditEntry,
  type Keyring,
  type KeyOwner,
  type SealedColumn,
} from '@idv/platform';
import { deepFreeze, ReadCache } from '../shared/readCache.ts';

export interface VerifierRecord {
  id: string;
  communityId: string;
  name: string;
  tag: string;
  type: ConnectorType;
  connectorUrl: string;
  config: Record<string, unknown>;
  /** the operator's caps on this verifier's provider calls */
  limits?: VerifierLimits | undefined;
  /** +1 on every change: what update() compares the row with */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  id: string;
  community_id: string;
  name: string;
  tag: string;
  type: ConnectorType;
  connector_url: string;
  config_sealed: string;
  limits: VerifierLimits;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const TABLE = 'docverify.verifiers';

type Change = 'created' | 'updated' | 'deleted';

function changed(verifier: VerifierRecord, change: Change, tenantId: string): EventEnvelope {
  return eventEnvelope(
    'E_IDV_VERIFIER_CHANGED',
    { tenantId, communityId: verifier.communityId },
    { verifierId: verifier.id, tag: verifier.tag, type: verifier.type, change },
  );
}

const keyOwner = (id: string): KeyOwner => ({ kind: 'verifier', id });

export class VerifierStore {
  private readonly recent: ReadCache<VerifierRecord[]>;

  /** cacheMs: how long findByTagsCached may serve a verifier changed through another replica */
  constructor(
    private readonly db: Knex,
    private readonly keys: Keyring,
    private readonly outbox: EventOutbox<EventEnvelope>,
    cacheMs = 0,
  ) {
    this.recent = new ReadCache(cacheMs);
  }

  /** `trx`: the transaction the row was written in (its data key may be new there). */
  private async toRecord(row: Row, trx?: Knex): Promise<VerifierRecord> {
    const config = await this.keys.open(row.config_sealed, `verifier:${row.id}`, trx);
    return {
      id: row.id,
      communityId: row.community_id,
      name: row.name,
      tag: row.tag,
      type: row.type,
      connectorUrl: row.connector_url,
      config: JSON.parse(config) as Record<string, unknown>,
      ...(Object.keys(row.limits).length > 0 ? { limits: row.limits } : {}),
      version: row.version,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  async create(
    community: { id: string; tenantId: string },
    input: Omit<VerifierRecord, 'id' | 'communityId' | 'version' | 'createdAt' | 'updatedAt'>,
  ): Promise<VerifierRecord> {
    const id = randomUUID();
    const row = {
      id,
      community_id: community.id,
      name: input.name,
      tag: input.tag,
      type: input.type,
      connector_url: input.connectorUrl,
      limits: JSON.stringify(input.limits ?? {}),
    };
    return conflictOnDuplicate(
      () =>
        this.write(community.tenantId, 'created', async (trx) => {
          const key = await this.keys.newDataKey(keyOwner(id), trx);
          const config_sealed = key.seal(JSON.stringify(input.config), `verifier:${id}`);
          const [created] = await trx(TABLE)
            .insert({ ...row, config_sealed })
            .returning('*');
          return this.toRecord(created as Row, trx);
        }),
      `a verifier tagged "${input.tag}" already exists`,
    );
  }

  /** One write and its event in a transaction; then the cache is cleared and the event sent. */
  private async write(
    tenantId: string,
    change: Change,
    apply: (trx: Knex.Transaction) => Promise<VerifierRecord>,
  ): Promise<VerifierRecord> {
    const { record, events } = await this.db.transaction(async (trx) => {
      const done = await apply(trx);
      const owed = [changed(done, change, tenantId)];
      await this.outbox.add(owed, trx);
      return { record: done, events: owed };
    });
    this.recent.clear();
    void this.outbox.flush(events);
    return record;
  }

  async list(communityId: string): Promise<VerifierRecord[]> {
    const rows: Row[] = await this.db(TABLE)
      .where({ community_id: communityId })
      .orderBy('created_at');
    return Promise.all(rows.map((row) => this.toRecord(row)));
  }

  async find(communityId: string, idOrTag: string): Promise<VerifierRecord | undefined> {
    const query = this.db(TABLE).where({ community_id: communityId });
    const row: Row | undefined = await (
      UUID.test(idOrTag) ? query.where({ id: idOrTag }) : query.where({ tag: idOrTag })
    ).first();
    return row ? this.toRecord(row) : undefined;
  }

  /** A verifier by id in any community (a provider's callback names only the verifier). */
  async byId(id: string): Promise<VerifierRecord | undefined> {
    if (!UUID.test(id)) return undefined;
    const row: Row | undefined = await this.db(TABLE).where({ id }).first();
    return row ? this.toRecord(row) : undefined;
  }

  async findByTags(communityId: string, tags: string[]): Promise<VerifierRecord[]> {
    if (tags.length === 0) return [];
    const rows: Row[] = await this.db(TABLE)
      .where({ community_id: communityId })
      .whereIn('tag', tags);
    return Promise.all(rows.map((row) => this.toRecord(row)));
  }

  /**
   * findByTags() for POST /verify, served from a short cache (read-only records, configs already
   * opened); a result missing a tag is never kept, so a verifier made elsewhere is found at once.
   */
  findByTagsCached(communityId: string, tags: string[]): Promise<readonly VerifierRecord[]> {
    const wanted = [...new Set(tags)].sort();
    return this.recent.get(
      JSON.stringify([communityId, wanted]),
      async () => deepFreeze(await this.findByTags(communityId, wanted)),
      (found) => found.length === wanted.length,
    );
  }

  /**
   * Stores `changes`, judged (secrets kept or refused) against `verifier` as it was read, only while
   * the row is still at that version: a write that came between makes this one a ConflictError, so
   * two concurrent changes never compose into one nobody judged.
   */
  async update(
    verifier: VerifierRecord,
    changes: {
      name?: string | undefined;
      connectorUrl?: string | undefined;
      config?: Record<string, unknown> | undefined;
      limits?: VerifierLimits | undefined;
    },
    tenantId: string,
    /** an operator's edit: its audit row lands with the change or not at all */
    audit?: AuditEntry,
  ): Promise<VerifierRecord> {
    const patch: Record<string, unknown> = {
      updated_at: this.db.fn.now(),
      version: verifier.version + 1,
    };
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.connectorUrl !== undefined) patch.connector_url = changes.connectorUrl;
    if (changes.limits !== undefined) patch.limits = JSON.stringify(changes.limits);
    const config = changes.config;
    return this.write(tenantId, 'updated', async (trx) => {
      if (config !== undefined) {
        const key = await this.keys.keyFor(keyOwner(verifier.id), trx);
        patch.config_sealed = key.seal(JSON.stringify(config), `verifier:${verifier.id}`);
      }
      const [row] = (await trx(TABLE)
        .where({ id: verifier.id, version: verifier.version })
        .update(patch)
        .returning('*')) as Row[];
      if (!row) throw await this.lostRace(trx, verifier);
      if (audit) await appendAudit(trx, audit);
      return this.toRecord(row, trx);
    });
  }

  /** Deletes the verifier; a NotFoundError (and no second event) when another request did first. */
  async delete(verifier: VerifierRecord, tenantId: string): Promise<void> {
    await this.write(tenantId, 'deleted', async (trx) => {
      const deleted = await trx(TABLE).where({ id: verifier.id }).delete();
      if (deleted === 0) throw new NotFoundError(`verifier ${verifier.tag} not found`);
      await this.keys.destroy(keyOwner(verifier.id), trx);
      return verifier;
    });
  }

  /** Why a verifier's row was not at the version a change was judged against. */
  private async lostRace(trx: Knex.Transaction, verifier: VerifierRecord): Promise<Error> {
    const still: unknown = await trx(TABLE).where({ id: verifier.id }).first('id');
    if (!still) return new NotFoundError(`verifier ${verifier.tag} not found`);
    return new ConflictError(
      `verifier ${verifier.tag} was changed by another request meanwhile; read it again and retry`,
    );
  }
}

/** The sealed column of verifiers (legacySealed.ts). */
export const VERIFIER_SEALED: SealedColumn[] = [
  {
    table: TABLE,
    column: 'config_sealed',
    key: ['id'],
    owner: (row) => keyOwner(String(row.id)),
    context: (row) => `verifier:${String(row.id)}`,
  },
];
