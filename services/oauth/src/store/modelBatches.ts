// Reads and writes of oidc-provider rows of one community, grouped into few statements.
import type { Knex } from '@idv/db';
import type { AdapterPayload } from 'oidc-provider';
import { Batcher } from './batcher.ts';

export const MODELS_TABLE = 'oauth.oidc_models';

export interface ModelRow {
  model: string;
  id: string;
  payload: AdapterPayload;
  consumed_at: Date | null;
}

export interface ModelWrite {
  community_id: string;
  model: string;
  id: string;
  payload: AdapterPayload;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: Date | null;
}

/** Expired rows are invisible at once; the sweep removes them later. */
export function live(db: Knex) {
  return db.raw('(expires_at IS NULL OR expires_at > now())');
}

const keyOf = (row: { model: string; id: string }) => `${row.model}\u0000${row.id}`;

/**
 * Introspection without token_type_hint looks a token up as AccessToken, ClientCredentials and
 * RefreshToken at once, and concurrent requests each read or write a row: one statement serves
 * them all (see Batcher for why no caller gets a stale answer).
 */
export class ModelBatches {
  private readonly reads: Batcher<{ model: string; id: string }, ModelRow | undefined>;
  private readonly writes: Batcher<ModelWrite, void>;

  constructor(
    private readonly db: Knex,
    private readonly communityId: string,
  ) {
    this.reads = new Batcher((wanted) => this.read(wanted));
    this.writes = new Batcher((rows) => this.write(rows));
  }

  find(model: string, id: string): Promise<ModelRow | undefined> {
    return this.reads.submit({ model, id });
  }

  upsert(row: ModelWrite): Promise<void> {
    return this.writes.submit(row);
  }

  private async read(wanted: { model: string; id: string }[]) {
    const rows: ModelRow[] = await this.db(MODELS_TABLE)
      .where({ community_id: this.communityId })
      .whereIn('id', [...new Set(wanted.map((w) => w.id))])
      .whereIn('model', [...new Set(wanted.map((w) => w.model))])
      .andWhere(live(this.db))
      .select('model', 'id', 'payload', 'consumed_at');
    const found = new Map(rows.map((row) => [keyOf(row), row]));
    return wanted.map((w) => found.get(keyOf(w)));
  }

  /** One INSERT; a key written twice in a batch keeps its last payload, as in sequence. */
  private async write(rows: ModelWrite[]) {
    const last = new Map(rows.map((row) => [keyOf(row), row]));
    await this.db(MODELS_TABLE)
      .insert([...last.values()])
      .onConflict(['community_id', 'model', 'id'])
      .merge(['payload', 'grant_id', 'uid', 'user_code', 'expires_at']);
    return rows.map(() => undefined);
  }
}
