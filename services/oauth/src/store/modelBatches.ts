// Reads and writes of oidc-provider rows of one community, grouped into few statements.
import { Batcher, runPrepared, type Knex, type PreparedStatement } from '@idv/db';
import type { AdapterPayload } from 'oidc-provider';

export const MODELS_TABLE = 'oauth.oidc_models';

export interface ModelRow {
  model: string;
  id: string;
  payload: AdapterPayload;
  consumed_at: Date | null;
}

/** A row to upsert: its key, and the whole row as JSON (the columns of UPSERT's recordset). */
export interface ModelWrite {
  model: string;
  id: string;
  json: string;
  /** the write must be flushed to disk before it counts as done (see ModelBatches) */
  durable: boolean;
}

/** Expired rows are invisible at once; the sweep removes them later. */
export function live(db: Knex) {
  return db.raw('(expires_at IS NULL OR expires_at > now())');
}

/**
 * One primary-key probe per wanted (model, id). The LIMIT keeps the subquery from being merged
 * into a join, which the planner, on a table without statistics yet (a fresh deployment, the
 * first minute of a benchmark), ran as a scan of every row of the community.
 */
const FIND: PreparedStatement = {
  name: 'oauth_models_find',
  text: `SELECT found.* FROM unnest($2::text[], $3::text[]) AS wanted(model, id),
    LATERAL (SELECT m.model, m.id, m.payload, m.consumed_at FROM oauth.oidc_models m
      WHERE m.community_id = $1 AND m.model = wanted.model AND m.id = wanted.id
        AND (m.expires_at IS NULL OR m.expires_at > now())
      LIMIT 1) AS found`,
};

/**
 * The rows travel as one JSON array (each serialised once, by its caller): one parameter.
 * `relaxed` commits without waiting for the WAL flush: synchronous_commit is off for this
 * statement's own transaction only, set by the statement itself (one round trip, no BEGIN).
 */
function upsertStatement(relaxed: boolean): PreparedStatement {
  return {
    name: relaxed ? 'oauth_models_upsert_relaxed' : 'oauth_models_upsert',
    text: `INSERT INTO oauth.oidc_models
      (community_id, model, id, payload, grant_id, uid, user_code, expires_at)
    SELECT $1, r.model, r.id, r.payload, r.grant_id, r.uid, r.user_code, r.expires_at
    FROM ${relaxed ? `(SELECT set_config('synchronous_commit', 'off', true)) AS relaxed, ` : ''}
      jsonb_to_recordset($2::jsonb) AS r(model text, id text, payload jsonb, grant_id text,
      uid text, user_code text, expires_at timestamptz)
    ON CONFLICT (community_id, model, id) DO UPDATE SET payload = excluded.payload,
      grant_id = excluded.grant_id, uid = excluded.uid, user_code = excluded.user_code,
      expires_at = excluded.expires_at`,
  };
}

export const UPSERT = { durable: upsertStatement(false), relaxed: upsertStatement(true) };

const keyOf = (row: { model: string; id: string }) => `${row.model}\u0000${row.id}`;

/**
 * Introspection without token_type_hint looks a token up as AccessToken, ClientCredentials and
 * RefreshToken at once, and concurrent requests each read or write a row: one statement serves
 * them all (see Batcher for why no caller gets a stale answer).
 *
 * Writes of new state (a token, a code, a session, a grant) commit asynchronously unless a row
 * of the batch is `durable` (see RELAXABLE in modelStore.ts): the WAL flush costs PostgreSQL CPU
 * and the statement a wait, and PostgreSQL's CPU slows the provider beside it on a small machine
 * (measurements in bench/results/history.md). What a database crash can then lose is the last
 * moments of such writes (at most three times wal_writer_delay: 600 ms by default), and every
 * such loss fails closed: the token is inactive, the code or refresh token is invalid_grant, the
 * user logs in again. What must never come back after a crash (a used code, a revoked token or grant, a
 * logged-out session) is written by consume, destroy and revokeByGrantId, which always wait
 * for the flush; their flush also makes every write before them durable, since the WAL is one
 * sequence. Given a transaction instead of the pool, writes are always flushed: the relaxed
 * setting would otherwise last until that transaction's COMMIT, covering whatever else it did.
 */
export class ModelBatches {
  private readonly reads: Batcher<{ model: string; id: string }, ModelRow | undefined>;
  private readonly writes: Batcher<ModelWrite, void>;

  constructor(
    private readonly db: Knex,
    private readonly communityId: string,
  ) {
    this.reads = new Batcher((wanted) => this.read(wanted));
    // token requests would otherwise wait on each write together, in lock-step (see Batcher)
    this.writes = new Batcher((rows) => this.write(rows), { sendAtOnce: true });
  }

  find(model: string, id: string): Promise<ModelRow | undefined> {
    return this.reads.submit({ model, id });
  }

  upsert(row: ModelWrite): Promise<void> {
    return this.writes.submit(row);
  }

  private async read(wanted: { model: string; id: string }[]) {
    const rows = await runPrepared<ModelRow>(this.db, FIND, [
      this.communityId,
      wanted.map((w) => w.model),
      wanted.map((w) => w.id),
    ]);
    const found = new Map(rows.map((row) => [keyOf(row), row]));
    return wanted.map((w) => found.get(keyOf(w)));
  }

  /** One INSERT; a key written twice in a batch keeps its last payload, as in sequence. */
  private async write(rows: ModelWrite[]) {
    const last = new Map(rows.map((row) => [keyOf(row), row]));
    const json = `[${[...last.values()].map((row) => row.json).join(',')}]`;
    const relaxed = !this.db.isTransaction && rows.every((row) => !row.durable);
    const statement = relaxed ? UPSERT.relaxed : UPSERT.durable;
    await runPrepared(this.db, statement, [this.communityId, json]);
    return rows.map(() => undefined);
  }
}
