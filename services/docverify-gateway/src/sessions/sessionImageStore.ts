// A session's accepted images, sealed at rest under the session's data key (context: session id and
// side; erasing the session destroys the key), one per side. When
// the session ends they follow its data retention like a result: gone in the same transaction,
// or kept until retrieved once or for a ttl, never past expireSessionInMin.
import type { CaptureSide } from '@idv/contracts';
import type { Knex } from '@idv/db';
import type { Keyring, KeyOwner, SealedColumn } from '@idv/platform';
import type { Clock } from '../shared/clock.ts';
import { retentionPlan } from '../retention/retentionPlan.ts';
import type { SessionRecord } from './sessionRecord.ts';

const TABLE = 'docverify.session_images';
const SESSIONS = 'docverify.sessions';

export interface CapturedImage {
  side: CaptureSide;
  bytes: Buffer;
  mediaType: string;
  width: number;
  height: number;
  quality: Record<string, number>;
}

const contextOf = (sessionId: string, side: CaptureSide) => `session-image:${sessionId}:${side}`;
/** whose data key seals a session's request and images */
export const sessionKeyOwner = (id: string): KeyOwner => ({ kind: 'session', id });

export class SessionImageStore {
  constructor(
    private readonly db: Knex,
    private readonly keys: Keyring,
    private readonly clock: Clock,
  ) {}

  /**
   * Keeps `image` as the accepted one of its side while the session is still capturing (the row
   * lock waits for a move that would end it); false when it no longer is.
   */
  async accept(sessionId: string, image: CapturedImage): Promise<boolean> {
    const key = await this.keys.keyFor(sessionKeyOwner(sessionId));
    return this.db.transaction(async (trx) => {
      const live = await trx(SESSIONS)
        .where({ id: sessionId, status: 'capturing' })
        .forShare()
        .first('id');
      if (!live) return false;
      const row = {
        session_id: sessionId,
        side: image.side,
        image_sealed: key.sealBytes(image.bytes, contextOf(sessionId, image.side)),
        media_type: image.mediaType,
        bytes: image.bytes.length,
        width: image.width,
        height: image.height,
        quality: JSON.stringify(image.quality),
        created_at: this.clock.now(),
      };
      await trx(TABLE).insert(row).onConflict(['session_id', 'side']).merge();
      return true;
    });
  }

  /** The accepted images of a session (only `side`'s, when given), opened. */
  async opened(
    sessionId: string,
    side?: CaptureSide,
  ): Promise<Partial<Record<CaptureSide, Buffer>>> {
    const query = this.db(TABLE).select('side', 'image_sealed').where({ session_id: sessionId });
    if (side) query.where({ side });
    const rows = (await query) as { side: CaptureSide; image_sealed: Buffer }[];
    const opened = rows.map(
      async (r) =>
        [r.side, await this.keys.openBytes(r.image_sealed, contextOf(sessionId, r.side))] as const,
    );
    return Object.fromEntries(await Promise.all(opened));
  }

  /** Which sides have an accepted image. */
  async acceptedSides(sessionIds: string[]): Promise<Map<string, CaptureSide[]>> {
    const rows = (await this.db(TABLE)
      .select('session_id', 'side')
      .whereIn('session_id', sessionIds)) as { session_id: string; side: CaptureSide }[];
    const sides = new Map<string, CaptureSide[]>();
    for (const r of rows) sides.set(r.session_id, [...(sides.get(r.session_id) ?? []), r.side]);
    return sides;
  }

  /**
   * In the transaction that ends `session`: delete its images and destroy the session's data key
   * (its request is dropped by the same end), or mark how long they stay.
   */
  async retainForEnd(trx: Knex.Transaction, session: SessionRecord, now: Date): Promise<void> {
    const { dataRetention } = session.settings;
    const plan = retentionPlan(dataRetention ? { dataRetention } : {}, now);
    const images = trx(TABLE).where({ session_id: session.id });
    const kept = plan.keep
      ? await images.update({
          expires_at: plan.expiresAt,
          until_retrieved: plan.mode === 'until_retrieved',
        })
      : await images.delete().then(() => 0);
    // nothing of the session left sealed (its request goes with the end): its key goes too
    if (kept === 0) await this.keys.destroy(sessionKeyOwner(session.id), trx);
  }

  /**
   * The session's result was retrieved: images kept only until then go now, with the session's
   * data key (in `trx` if given).
   */
  async retrieved(sessionId: string, trx: Knex = this.db): Promise<void> {
    const gone = await trx(TABLE).where({ session_id: sessionId, until_retrieved: true }).delete();
    if (gone > 0) await this.keys.destroy(sessionKeyOwner(sessionId), trx);
  }

  /** Deletes every image of a session whatever its retention, with its data key (in `trx`). */
  async drop(trx: Knex, sessionId: string): Promise<void> {
    await trx(TABLE).where({ session_id: sessionId }).delete();
    await this.keys.destroy(sessionKeyOwner(sessionId), trx);
  }

  /** Deletes every image past its retention, with its session's data key; returns how many. */
  async sweep(now = this.clock.now()): Promise<number> {
    return this.db.transaction(async (trx) => {
      const gone = (await trx(TABLE)
        .where('expires_at', '<=', now)
        .delete()
        .returning('session_id')) as { session_id: string }[];
      const sessions = [...new Set(gone.map((row) => row.session_id))];
      await this.keys.destroyAll(sessions.map(sessionKeyOwner), trx);
      return gone.length;
    });
  }

  async count(sessionId: string): Promise<number> {
    const [row] = (await this.db(TABLE).where({ session_id: sessionId }).count('* as n')) as {
      n: string;
    }[];
    return Number(row?.n ?? 0);
  }
}

/** The sealed columns of sessions: the request and the images (legacySealed.ts). */
export const SESSION_SEALED: SealedColumn[] = [
  {
    table: SESSIONS,
    column: 'request_sealed',
    key: ['id'],
    owner: (row) => sessionKeyOwner(String(row.id)),
    context: (row) => `session-request:${String(row.id)}`,
  },
  {
    table: TABLE,
    column: 'image_sealed',
    key: ['session_id', 'side'],
    bytes: true,
    owner: (row) => sessionKeyOwner(String(row.session_id)),
    context: (row) => contextOf(String(row.session_id), row.side as CaptureSide),
  },
];
