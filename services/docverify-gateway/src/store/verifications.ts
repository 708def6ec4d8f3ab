// Kept verification results: sealed at rest, read once or until they expire, then purged.
import type { VerifyResult } from '@idv/contracts';
import type { SecretBox } from '@idv/crypto';
import type { Knex } from '@idv/db';
import type { RetentionPlan } from '../domain/retention.ts';
import { UUID } from '@idv/platform';

const TABLE = 'docverify.verifications';

export interface KeptVerification {
  communityId: string;
  result: VerifyResult;
}

export class VerificationStore {
  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
  ) {}

  async keep(communityId: string, result: VerifyResult, plan: RetentionPlan): Promise<void> {
    if (!plan.keep) return;
    await this.db(TABLE).insert({
      id: result.verificationId,
      community_id: communityId,
      result_sealed: this.box.seal(JSON.stringify(result), result.verificationId),
      mode: plan.mode,
      expires_at: plan.expiresAt,
    });
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
