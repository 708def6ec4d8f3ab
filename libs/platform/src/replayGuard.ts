// Replay protection on requestid uuids, shared by every replica through PostgreSQL.
import type { Knex } from '@idv/db';

export class ReplayGuard {
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly db: Knex) {}

  /** Records `uuid` until `expiresAtEpochS`; false when it was already seen (a replay). */
  async firstUse(uuid: string, expiresAtEpochS: number): Promise<boolean> {
    const result = await this.db.raw(
      'INSERT INTO platform.request_nonces (uuid, expires_at) VALUES (?, to_timestamp(?)) ON CONFLICT (uuid) DO NOTHING',
      [uuid, expiresAtEpochS],
    );
    return (result as { rowCount: number }).rowCount === 1;
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
