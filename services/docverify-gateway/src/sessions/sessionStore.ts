// Session rows. Every state change is a conditional UPDATE (`status = ANY(sources)`) in a
// transaction that also writes its events to the outbox and, for a final state, applies the
// image retention: a session never moves twice or backwards, and never without its events.
import type { CaptureSide, EventEnvelope, SessionState } from '@idv/contracts';
import { storeEvents, type Knex } from '@idv/db';
import { UUID } from '@idv/platform';
import type { Clock } from '../shared/clock.ts';
import { isFinal, sourcesOf } from './sessionStates.ts';
import { toSession, type SessionRecord, type SessionRow } from './sessionRecord.ts';
import type { SessionImageStore } from './sessionImageStore.ts';
import { OUTBOX_TABLE } from '../verify/verificationStore.ts';

const TABLE = 'docverify.sessions';

export interface NewSession {
  row: Omit<SessionRow, 'version' | 'created_at' | 'expires_at'>;
  expiresAt: Date;
}

export interface MoveOptions {
  /** further columns to set with the move */
  patch?: Partial<Record<keyof SessionRow, unknown>>;
  /** a timer's move happens only while its time has come (re-checked under the row lock) */
  due?: { column: 'expires_at' | 'last_activity_at'; atOrBefore: Date };
  /** sweeps pass over a session another transaction holds */
  skipLocked?: boolean;
  events?: (before: SessionRecord, after: SessionRecord) => EventEnvelope[];
  /** more work of the same transaction, e.g. finishing the run that ended the session */
  also?: (trx: Knex.Transaction, after: SessionRecord) => Promise<void>;
  /** a final state drops the images whatever the retention (captures nobody may review) */
  dropImages?: boolean;
}

export interface Moved {
  before: SessionRecord;
  after: SessionRecord;
  events: EventEnvelope[];
}

export interface ListQuery {
  status?: SessionState | undefined;
  /** the last session of the previous page: the list goes on with older ones */
  after?: { at: Date; id: string } | undefined;
  limit: number;
}

/** Stores `events` in the gateway's outbox within `trx` (libs/db storeEvents, its one writer). */
export const addEvents = (trx: Knex, events: EventEnvelope[]): Promise<void> =>
  storeEvents(trx, OUTBOX_TABLE, events);

export class SessionStore {
  constructor(
    private readonly db: Knex,
    private readonly images: SessionImageStore,
    private readonly clock: Clock,
  ) {}

  async create(
    session: NewSession,
    events: (created: SessionRecord) => EventEnvelope[],
    outer?: Knex.Transaction,
  ): Promise<{ session: SessionRecord; events: EventEnvelope[] }> {
    const work = async (trx: Knex.Transaction) => {
      const [row] = (await trx(TABLE)
        .insert({
          ...session.row,
          metadata: session.row.metadata === null ? null : JSON.stringify(session.row.metadata),
          settings: JSON.stringify(session.row.settings),
          attempts: JSON.stringify(session.row.attempts),
          created_at: this.clock.now(),
          expires_at: session.expiresAt,
        })
        .returning('*')) as SessionRow[];
      const created = toSession(row!);
      const owed = events(created);
      await addEvents(trx, owed);
      return { session: created, events: owed };
    };
    return outer ? work(outer) : this.db.transaction(work);
  }

  async byTokenHash(tokenHash: string): Promise<SessionRecord | undefined> {
    const row = (await this.db(TABLE).where({ token_hash: tokenHash }).first()) as
      SessionRow | undefined;
    return row && toSession(row);
  }

  /** A session of one of `communityIds` (every one for 'all'); others are not found. */
  async byId(id: string, communityIds: string[] | 'all'): Promise<SessionRecord | undefined> {
    if (!UUID.test(id)) return undefined;
    const query = this.db(TABLE).where({ id });
    if (communityIds !== 'all') query.whereIn('community_id', communityIds);
    const row = (await query.first()) as SessionRow | undefined;
    return row && toSession(row);
  }

  /** The sealed request members (userUID, did, ...) while the session lives. */
  async sealedRequest(id: string): Promise<string | null> {
    const row = (await this.db(TABLE).select('request_sealed').where({ id }).first()) as
      { request_sealed: string | null } | undefined;
    return row?.request_sealed ?? null;
  }

  async list(communityId: string, query: ListQuery): Promise<SessionRecord[]> {
    const q = this.db(TABLE)
      .where({ community_id: communityId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(query.limit);
    if (query.status) q.where({ status: query.status });
    if (query.after) q.whereRaw('(created_at, id) < (?, ?)', [query.after.at, query.after.id]);
    return ((await q) as SessionRow[]).map(toSession);
  }

  /**
   * Moves the session to `to` when its state allows it (SESSION_TRANSITIONS) and `due` holds;
   * undefined when it does not (already moved, ended, not due, or locked for a sweep).
   */
  async move(
    id: string,
    to: SessionState,
    options: MoveOptions = {},
    outer?: Knex.Transaction,
  ): Promise<Moved | undefined> {
    const work = async (trx: Knex.Transaction): Promise<Moved | undefined> => {
      const lock = trx(TABLE).where({ id }).forUpdate();
      if (options.skipLocked) lock.skipLocked();
      const current = (await lock.first()) as SessionRow | undefined;
      if (!current) return undefined;
      const now = this.clock.now();
      const update = trx(TABLE)
        .where({ id })
        .whereRaw('status = ANY(?)', [sourcesOf(to)])
        .update({
          ...options.patch,
          status: to,
          version: trx.raw('version + 1'),
          ...(isFinal(to) ? { ended_at: now, request_sealed: null } : {}),
        })
        .returning('*');
      if (options.due) update.where(options.due.column, '<=', options.due.atOrBefore);
      const [row] = (await update) as SessionRow[];
      if (!row) return undefined;
      const after = toSession(row);
      if (isFinal(to) && options.dropImages) await this.images.drop(trx, id);
      else if (isFinal(to)) await this.images.retainForEnd(trx, after, now);
      await options.also?.(trx, after);
      const events = options.events?.(toSession(current), after) ?? [];
      await addEvents(trx, events);
      return { before: toSession(current), after, events };
    };
    return outer ? work(outer) : this.db.transaction(work);
  }

  /** Pushes the abandonment timer of a session the person is working on. */
  async touch(id: string): Promise<void> {
    await this.db(TABLE)
      .where({ id })
      .whereIn('status', ['opened', 'capturing'])
      .update({ last_activity_at: this.clock.now() });
  }

  /**
   * Counts one capture attempt of `side` if fewer than `allowed` were made while capturing;
   * the attempts after it, or undefined when none is left (or the session is not capturing).
   */
  async countAttempt(id: string, side: CaptureSide, allowed: number): Promise<number | undefined> {
    const used = this.db.raw(`coalesce((attempts->>?)::int, 0)`, [side]);
    const rows = (await this.db(TABLE)
      .where({ id, status: 'capturing' })
      .where(used, '<', allowed)
      .update({
        attempts: this.db.raw(`attempts || jsonb_build_object(?::text, ? + 1)`, [side, used]),
        last_activity_at: this.clock.now(),
      })
      .returning('attempts')) as { attempts: Record<string, number> }[];
    return rows[0]?.attempts[side];
  }

  /** Sets columns of a session still in one of `states`; false when it is not (any more). */
  async update(
    id: string,
    states: SessionState[],
    patch: Partial<Record<keyof SessionRow, unknown>>,
  ): Promise<boolean> {
    const changed = await this.db(TABLE)
      .where({ id })
      .whereIn('status', states)
      .update({ ...patch, version: this.db.raw('version + 1') });
    return changed > 0;
  }

  /** Sessions whose timer is due: ids only, each then moved on its own (conditionally). */
  async due(
    column: 'expires_at' | 'last_activity_at',
    states: SessionState[],
    atOrBefore: Date,
    limit: number,
  ): Promise<string[]> {
    const rows = (await this.db(TABLE)
      .select('id')
      .whereIn('status', states)
      .where(column, '<=', atOrBefore)
      .orderBy(column)
      .limit(limit)) as { id: string }[];
    return rows.map((r) => r.id);
  }
}
