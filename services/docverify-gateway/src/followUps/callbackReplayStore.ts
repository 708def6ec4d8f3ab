// Connector callbacks already accepted, by signature, until their timestamp window has passed: in
// PostgreSQL, so a captured callback sent again is refused by whichever gateway replica it reaches.
// Expired rows are pruned on the way, at most once a minute per gateway.
import type { Knex } from '@idv/db';

const TABLE = 'docverify.callback_replays';
const PRUNE_EVERY_MS = 60_000;

export class CallbackReplayStore {
  private prunedAt = 0;

  constructor(private readonly db: Knex) {}

  /** Records a callback's signature until `expiresAt`; false when it is recorded already (a replay). */
  async firstSeen(signature: string, verifierId: string, expiresAt: Date): Promise<boolean> {
    await this.pruneNowAndThen();
    const rows = await this.db(TABLE)
      .insert({ signature, verifier_id: verifierId, expires_at: expiresAt })
      .onConflict('signature')
      .ignore()
      .returning('signature');
    return rows.length === 1;
  }

  /** Forgets a callback that was not handed on, so its provider may send the same one again. */
  async forget(signature: string): Promise<void> {
    await this.db(TABLE).where({ signature }).delete();
  }

  private async pruneNowAndThen(): Promise<void> {
    const now = Date.now();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    await this.db(TABLE).where('expires_at', '<', new Date(now)).delete();
  }
}
