// Replay protection on requestid uuids, shared by every replica through PostgreSQL.
import { Batcher, runPrepared, type Knex, type PreparedStatement } from '@idv/db';

interface Use {
  uuid: string;
  expiresAtEpochS: number;
}

/**
 * The uuids of one batch that no earlier request had used; RETURNING names those it stored.
 * It commits without waiting for the WAL flush (synchronous_commit off for its own transaction,
 * set by the statement: one round trip). The uniqueness check itself is exact, replicas included;
 * what a database crash can lose is the uuids of the last moments (at most three times
 * wal_writer_delay, 600 ms by default), so a request captured in that instant could be sent again
 * within its time span after the restart. That is the price of keeping a WAL flush (about half a
 * millisecond here) off every authenticated request's path (bench/results/history.md).
 */
export const RECORD_FIRST_USES: PreparedStatement = {
  name: 'platform_nonces_first_use_relaxed',
  text: `INSERT INTO platform.request_nonces (uuid, expires_at)
    SELECT u.uuid, to_timestamp(u.expires_at)
    FROM (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed,
      unnest($1::text[], $2::float8[]) AS u(uuid, expires_at)
    ON CONFLICT (uuid) DO NOTHING RETURNING uuid`,
};

export class ReplayGuard {
  private sweeper: NodeJS.Timeout | undefined;
  /** every authenticated request records its uuid: concurrent requests share one INSERT */
  private readonly uses: Batcher<Use, boolean>;

  constructor(private readonly db: Knex) {
    this.uses = new Batcher((uses) => this.record(uses));
  }

  /** Records `uuid` until `expiresAtEpochS`; false when it was already seen (a replay). */
  firstUse(uuid: string, expiresAtEpochS: number): Promise<boolean> {
    return this.uses.submit({ uuid, expiresAtEpochS });
  }

  /** Of two uses of one uuid in the same batch only the first is new: the second is a replay. */
  private async record(uses: Use[]): Promise<boolean[]> {
    const firsts = new Map<string, Use>();
    for (const use of uses) if (!firsts.has(use.uuid)) firsts.set(use.uuid, use);
    const unique = [...firsts.values()];
    const stored = await runPrepared<{ uuid: string }>(this.db, RECORD_FIRST_USES, [
      unique.map((use) => use.uuid),
      unique.map((use) => use.expiresAtEpochS),
    ]);
    const fresh = new Set(stored.map((row) => row.uuid));
    return uses.map((use) => firsts.get(use.uuid) === use && fresh.has(use.uuid));
  }

  async sweep(): Promise<number> {
    return this.db('platform.request_nonces').where('expires_at', '<', this.db.fn.now()).delete();
  }

  startSweeping(everyMs = 60_000, onError: (err: unknown) => void = () => undefined): void {
    this.sweeper = setInterval(() => void this.sweep().catch(onError), everyMs);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    clearInterval(this.sweeper);
  }
}
