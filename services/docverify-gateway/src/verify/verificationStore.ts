// Kept verification results: sealed at rest, read once or until they expire, then purged. The
// result and the events it owes are written by one statement, so neither is ever without the other
// (the statement is shared by the requests answered together). Only the licence that asked reads it.
// Each kept result is sealed under a data key of its own, stored by the same statement: erasing the
// verification destroys it.
import type { EventEnvelope, VerifyResult } from '@idv/contracts';
import { Batcher, outboxRow, runPrepared, type Knex, type PreparedStatement } from '@idv/db';
import type { RetentionPlan } from '../retention/retentionPlan.ts';
import { resultAccess, type ResultCaller } from './resultOwner.ts';
import {
  UUID,
  type DataKeyInsert,
  type Keyring,
  type KeyOwner,
  type SealedColumn,
} from '@idv/platform';

const TABLE = 'docverify.verifications';
export const OUTBOX_TABLE = 'docverify.event_outbox';

export interface KeptVerification {
  communityId: string;
  /** absent for a system licence that is not the owner: it sees that the result is kept */
  result?: VerifyResult;
}

/** What one answered /verify stores: its sealed result (when its plan keeps it) and its events. */
interface KeptRows {
  verification?: {
    id: string;
    community_id: string;
    result_sealed: string;
    mode: string;
    expires_at: Date;
    owner_licence_id: string | null;
  };
  /** the data key the result is sealed under, wrapped */
  dataKey?: Omit<DataKeyInsert, 'wrapped'> & { wrapped: string };
  events: { event_id: string; envelope: EventEnvelope }[];
}

/** whose data key seals a kept result */
export const verificationKeyOwner = (id: string): KeyOwner => ({ kind: 'verification', id });

/**
 * The results and events of every request in the batch, in one statement: a data-modifying CTE
 * runs whether or not the outer statement reads it, so each request's result and events are
 * stored together or not at all.
 */
const KEEP: PreparedStatement = {
  name: 'docverify_keep_verifications',
  text: `WITH data_keys AS (
      INSERT INTO keys.data_keys (id, kek_id, wrapped, owner_kind, owner_id)
      SELECT k.id, k.kek_id, decode(k.wrapped, 'base64'), k.owner_kind, k.owner_id
      FROM jsonb_to_recordset($3::jsonb)
        AS k(id uuid, kek_id text, wrapped text, owner_kind text, owner_id text)),
    kept AS (
      INSERT INTO ${TABLE} (id, community_id, result_sealed, mode, expires_at, owner_licence_id)
      SELECT v.id, v.community_id, v.result_sealed, v.mode, v.expires_at, v.owner_licence_id
      FROM jsonb_to_recordset($1::jsonb)
        AS v(id uuid, community_id uuid, result_sealed text, mode text, expires_at timestamptz,
             owner_licence_id uuid))
    INSERT INTO ${OUTBOX_TABLE} (event_id, envelope)
    SELECT e.event_id, e.envelope FROM jsonb_to_recordset($2::jsonb) AS e(event_id uuid, envelope jsonb)`,
};

export class VerificationStore {
  /** every answered /verify stores something: concurrent ones share one statement */
  private readonly keeping: Batcher<KeptRows>;

  constructor(
    private readonly db: Knex,
    private readonly keys: Keyring,
  ) {
    this.keeping = new Batcher(async (batch) => {
      const verifications = batch.flatMap((rows) => (rows.verification ? [rows.verification] : []));
      await runPrepared(this.db, KEEP, [
        JSON.stringify(verifications),
        JSON.stringify(batch.flatMap((rows) => rows.events)),
        JSON.stringify(batch.flatMap((rows) => (rows.dataKey ? [rows.dataKey] : []))),
      ]);
    });
  }

  /**
   * Keeps the result when the plan says so, and stores its events in the outbox, atomically.
   * `ownerLicenceId`: the caller's licence, the only one to read it (null: its whole community).
   */
  async keep(
    communityId: string,
    result: VerifyResult,
    plan: RetentionPlan,
    events: EventEnvelope[] = [],
    ownerLicenceId: string | null = null,
  ): Promise<void> {
    const rows: KeptRows = {
      events: events.map(outboxRow),
    };
    if (plan.keep) {
      const id = result.verificationId;
      const { key, row } = await this.keys.prepareDataKey(verificationKeyOwner(id));
      rows.dataKey = { ...row, wrapped: row.wrapped.toString('base64') };
      rows.verification = {
        id,
        community_id: communityId,
        result_sealed: key.seal(JSON.stringify(result), id),
        mode: plan.mode,
        expires_at: plan.expiresAt,
        owner_licence_id: ownerLicenceId,
      };
    }
    if (!rows.verification && rows.events.length === 0) return;
    return this.keeping.submit(rows);
  }

  /**
   * The result if kept and unexpired, for its owner; a read-once result is deleted by the same
   * transaction. A system licence not its owner learns it is kept; other licences, nothing.
   */
  async retrieve(
    id: string,
    communityIds: string[] | 'all',
    caller: ResultCaller,
    now = new Date(),
  ): Promise<KeptVerification | undefined> {
    if (!UUID.test(id)) return undefined;
    return this.db.transaction(async (trx) => {
      const query = trx(TABLE).where({ id }).where('expires_at', '>', now).forUpdate();
      if (communityIds !== 'all') query.whereIn('community_id', communityIds);
      const row = await query.first<
        | {
            community_id: string;
            result_sealed: string;
            mode: string;
            owner_licence_id: string | null;
          }
        | undefined
      >();
      const access = row ? resultAccess(row.owner_licence_id, caller) : 'none';
      if (!row || access === 'none') return undefined;
      if (access === 'observer') return { communityId: row.community_id };
      const result = JSON.parse(await this.keys.open(row.result_sealed, id, trx)) as VerifyResult;
      if (row.mode === 'until_retrieved') {
        await trx(TABLE).where({ id }).delete();
        await this.keys.destroy(verificationKeyOwner(id), trx);
      }
      return { communityId: row.community_id, result };
    });
  }

  /** Purges every result past its expiry, its data key destroyed with it; returns how many. */
  async sweep(now = new Date()): Promise<number> {
    return this.db.transaction(async (trx) => {
      const gone = (await trx(TABLE).where('expires_at', '<=', now).delete().returning('id')) as {
        id: string;
      }[];
      await this.keys.destroyAll(
        gone.map((row) => verificationKeyOwner(row.id)),
        trx,
      );
      return gone.length;
    });
  }
}

/** The sealed column of kept results (legacySealed.ts). */
export const VERIFICATION_SEALED: SealedColumn[] = [
  {
    table: TABLE,
    column: 'result_sealed',
    key: ['id'],
    owner: (row) => verificationKeyOwner(String(row.id)),
    context: (row) => String(row.id),
  },
];
