// Each community's image URL hosts (docverify.image_url_hosts): set by its operator (admin CLI),
// read by every /verify through a short cache (a change elsewhere shows within its ttl).
import type { Knex } from '@idv/db';
import { ReadCache } from '../shared/readCache.ts';

const TABLE = 'docverify.image_url_hosts';

export class ImageUrlHostStore {
  private readonly recent: ReadCache<readonly string[]>;

  /** cacheMs: how long `of` may serve a list changed through another process */
  constructor(
    private readonly db: Knex,
    cacheMs = 0,
  ) {
    this.recent = new ReadCache(cacheMs);
  }

  /** The community's hosts; empty when it has no list. */
  of(communityId: string): Promise<readonly string[]> {
    return this.recent.get(communityId, async () => {
      const row = (await this.db(TABLE).where({ community_id: communityId }).first('hosts')) as
        { hosts: string[] } | undefined;
      return Object.freeze(row?.hosts ?? []);
    });
  }

  /** Replaces the community's list; an empty one removes it (any host the SSRF guard allows). */
  async set(communityId: string, hosts: readonly string[]): Promise<void> {
    if (hosts.length === 0) await this.db(TABLE).where({ community_id: communityId }).delete();
    else
      await this.db(TABLE)
        .insert({ community_id: communityId, hosts: [...hosts], updated_at: this.db.fn.now() })
        .onConflict('community_id')
        .merge();
    this.recent.clear();
  }
}
