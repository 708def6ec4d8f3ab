// Kept verification results: sealed at rest, read once or until they expire, then purged. The
// result and the events it owes are written by one statement, so neither is ever without the other
// (the statement is shared by the requests answered together).
import type { EventEnvelope, VerifyResult } from '@idv/contracts';
import type { SecretBox } from '@idv/crypto';
import { Batcher, runPrepared, type Knex, type PreparedStatement } from '@idv/db';
import type { RetentionPlan } from '../domain/retention.ts';
import { UUID } from '@idv/platform';

const TABLE = 'docverify.verifications';
export const OUTBOX_TABLE = 'docverify.event_outbox';

export interface KeptVerification {
  communityId: string;
  result: VerifyResult;
}

/** What one answered /verify stores: its sealed result (when its plan keeps it) and its events. */
interface KeptRows {
  verification?: {
    id: string;
    community_id: string;
    result_sealed: string;
    mode: string;
    expires_at: Date;
  };
  events: { event_id: string; envelope: EventEnvelope }[];
}

/**
 * The results and events of every request in the batch, in one statement: a data-modifying CTE
 * runs whether or not the outer statement reads it, so each request's result and events are
 * stored together or not at all.
 */
const KEEP: PreparedStatement = {
  name: 'docverify_keep_verifications',
  text: `WITH kept AS (
      INSERT INTO ${TABLE} (id, community_id, result_sealed, mode, expires_at)
      SELECT v.id, v.community_id, v.result_sealed, v.mode, v.expires_at
      FROM jsonb_to_recordset($1::jsonb)
        AS v(id uuid, community_id uuid, result_sealed text, mode text, expires_at timestamptz))
    INSERT INTO ${OUTBOX_TABLE} (event_id, envelope)
    SELECT e.event_id, e.envelope FROM jsonb_to_recordset($2::jsonb) AS e(event_id uuid, envelope jsonb)`,
};

export class VerificationStore {
  /** every answered /verify stores something: concurrent ones share one statement */
  private readonly keeping: Batcher<KeptRows>;

  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
  ) {
    this.keeping = new Batcher(async (batch) => {
      const verifications = batch.flatMap((rows) => (rows.verification ? [rows.verification] : []));
      await runPrepared(this.db, KEEP, [
        JSON.stringify(verifications),
        JSON.stringify(batch.flatMap((rows) => rows.events)),
      ]);
    });
  }

  /** Keeps the result when the plan says so, and stores its events in the outbox, atomically. */
  keep(
    communityId: string,
    result: VerifyResult,
    plan: RetentionPlan,
    events: EventEnvelope[] = [],
  ): Promise<void> {
    const rows: KeptRows = {
      events: events.map((envelope) => ({ event_id: envelope.eventId, envelope })),
      ...(plan.keep
        ? {
            verification: {
              id: result.verificationId,
              community_id: communityId,
              result_sealed: this.box.seal(JSON.stringify(result), result.verificationId),
              mode: plan.mode,
              expires_at: plan.expiresAt,
            },
          }
        : {}),
    };
    if (!rows.verification && rows.events.length === 0) return Promise.resolve();
    return this.keeping.submit(rows);
  }

  /** The result if kept and unexpired; a read-once result is deleted by the same statement. */
  async retrieve(
    id: string,
    communityIds: string[] | 'all',
    now = new Date(),
  ): Promise<KeptVerification | undefined> {
    if (!UUID.test(id)) return undefined;
    return this.db.transaction(async (trx) => {
      const query = trx(TABLE).where({ id }).where('expires_at', '>', now).forUpdate();
      if (communityIds !== 'all') query.whereIn('community_id', communityIds);
      const row = await query.first<
        { community_id: string; result_sealed: string; mode: string } | undefined
      >();
      if (!row) return undefined;
      if (row.mode === 'until_retrieved') await trx(TABLE).where({ id }).delete();
      return {
        communityId: row.community_id,
        result: JSON.parse(this.box.open(row.result_sealed, id)) as VerifyResult,
      };
    });
  }

  /** Purges every result past its expiry; returns how many. */
  sweep(now = new Date()): Promise<number> {
    return this.db(TABLE).where('expires_at', '<=', now).delete();
  }
}
