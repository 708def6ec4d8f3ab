// Kept verification results: sealed at rest, read once or until they expire, then purged. The
// result and the events it owes are written by one statement, so neither is ever without the other.
import type { EventEnvelope, VerifyResult } from '@idv/contracts';
import type { SecretBox } from '@idv/crypto';
import type { Knex } from '@idv/db';
import type { RetentionPlan } from '../domain/retention.ts';
import { UUID } from '@idv/platform';

const TABLE = 'docverify.verifications';
export const OUTBOX_TABLE = 'docverify.event_outbox';

export interface KeptVerification {
  communityId: string;
  result: VerifyResult;
}

const INSERT_EVENTS = `INSERT INTO ${OUTBOX_TABLE} (event_id, envelope)
  SELECT event_id, envelope FROM jsonb_to_recordset(?::jsonb) AS e(event_id uuid, envelope jsonb)`;

export class VerificationStore {
  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
  ) {}

  /** Keeps the result when the plan says so, and stores its events in the outbox, atomically. */
  async keep(
    communityId: string,
    result: VerifyResult,
    plan: RetentionPlan,
    events: EventEnvelope[] = [],
  ): Promise<void> {
    const outbox = JSON.stringify(events.map((e) => ({ event_id: e.eventId, envelope: e })));
    if (!plan.keep) {
      if (events.length > 0) await this.db.raw(INSERT_EVENTS, [outbox]);
      return;
    }
    // a data-modifying CTE runs whether or not the outer statement reads it
    await this.db.raw(
      `WITH kept AS (
         INSERT INTO ${TABLE} (id, community_id, result_sealed, mode, expires_at)
         VALUES (?, ?, ?, ?, ?))
       ${INSERT_EVENTS}`,
      [
        result.verificationId,
        communityId,
        this.box.seal(JSON.stringify(result), result.verificationId),
        plan.mode,
        plan.expiresAt,
        outbox,
      ],
    );
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
