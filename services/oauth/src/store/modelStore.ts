// oidc-provider's storage over PostgreSQL: one row per model instance, keyed by community.
import { hash } from 'node:crypto';
import type { Knex } from '@idv/db';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { live, MODELS_TABLE as TABLE, type ModelBatches, type ModelRow } from './modelBatches.ts';
import { holdsNul, jsonStorable } from './storableText.ts';

/**
 * Models whose id is a bearer credential: the row is keyed by the id's SHA-256 and the payload
 * keeps no copy of it (jti), so a database reader holds no usable token. find(id) has the id
 * and gives it back. Sessions and interactions are also looked up by uid, so they keep theirs.
 */
const CREDENTIAL_MODELS = new Set([
  'AccessToken',
  'RefreshToken',
  'AuthorizationCode',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'RegistrationAccessToken',
  'InitialAccessToken',
]);

/**
 * Models whose rows may commit without waiting for the WAL flush (see ModelBatches): each write
 * of theirs adds access (a new token, code, grant, session or interaction), so losing it in a
 * database crash fails closed; what takes access away goes through consume, destroy or
 * revokeByGrantId. Every other model (ReplayDetection's seen jtis, the device flow's and CIBA's
 * single-use markers and denials, saved by upsert) is always flushed, including any a future
 * feature brings.
 */
const RELAXABLE = new Set([
  'AccessToken',
  'ClientCredentials',
  'RefreshToken',
  'AuthorizationCode',
  'Grant',
  'Session',
  'Interaction',
]);

/** One-shot hash(): 0.6-0.9 us against 1.7-2.2 for a Hash object (introspection takes three). */
const sha256 = (value: string) => hash('sha256', value, 'hex');

function withConsumed(
  row: Pick<ModelRow, 'payload' | 'consumed_at'> | undefined,
): AdapterPayload | undefined {
  if (!row) return undefined;
  if (!row.consumed_at) return row.payload;
  return { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) };
}

export class ModelStore implements Adapter {
  constructor(
    private readonly db: Knex,
    private readonly communityId: string,
    private readonly model: string,
    /** shared by the community's models: concurrent finds and upserts share statements */
    private readonly batches: ModelBatches,
    /** OAUTH_DURABLE_ISSUANCE: every upsert waits for the WAL flush (see ModelBatches) */
    private readonly durableIssuance = false,
  ) {}

  private get hashed(): boolean {
    return CREDENTIAL_MODELS.has(this.model);
  }

  private storedId(id: string): string {
    return this.hashed ? sha256(id) : id;
  }

  private rows() {
    return this.db(TABLE).where({ community_id: this.communityId, model: this.model });
  }

  /**
   * Request parameters end up in payloads (state, nonce, login_hint of an interaction): one that
   * jsonb cannot hold is the client's invalid request, answered as oidc-provider answers those.
   */
  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const stored = this.storedId(id);
    const row = JSON.stringify({
      model: this.model,
      id: stored,
      payload: this.hashed ? { ...payload, jti: undefined } : payload,
      grant_id: payload.grantId ?? null,
      uid: payload.uid ?? null,
      user_code: payload.userCode ?? null,
      expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    });
    if (!jsonStorable(row)) {
      throw new errors.InvalidRequest('parameters must not contain NUL or unpaired surrogates');
    }
    const durable = this.durableIssuance || !RELAXABLE.has(this.model);
    await this.batches.upsert({ model: this.model, id: stored, json: row, durable });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (holdsNul(id)) return undefined;
    const found = withConsumed(await this.batches.find(this.model, this.storedId(id)));
    return found && this.hashed ? { ...found, jti: id } : found;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    if (holdsNul(uid)) return undefined;
    const row: ModelRow | undefined = await this.rows()
      .andWhere({ uid })
      .andWhere(live(this.db))
      .first();
    return withConsumed(row);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    if (holdsNul(userCode)) return undefined;
    const row: ModelRow | undefined = await this.rows()
      .andWhere({ user_code: userCode })
      .andWhere(live(this.db))
      .first();
    return withConsumed(row);
  }

  /**
   * One UPDATE guarded by consumed_at: of two racing redemptions only one changes the row. The
   * loser presented a code or refresh token already spent, which is what oidc-provider treats
   * as theft when it sees it before consuming (it revokes the grant); a race must not be the
   * way around that, so the loser revokes the grant here too.
   */
  async consume(id: string): Promise<void> {
    if (holdsNul(id)) throw new errors.InvalidGrant('grant not found');
    const stored = this.storedId(id);
    const changed = await this.rows()
      .andWhere({ id: stored })
      .whereNull('consumed_at')
      .update({ consumed_at: this.db.fn.now() });
    if (changed > 0) return;
    await this.revokeGrantOf(stored);
    throw new errors.InvalidGrant('grant already consumed');
  }

  /** Every token and code of the row's grant, and the grant itself. */
  private async revokeGrantOf(storedId: string): Promise<void> {
    const row: { grant_id: string | null } | undefined = await this.rows()
      .andWhere({ id: storedId })
      .first('grant_id');
    const grantId = row?.grant_id;
    if (!grantId) return;
    await this.db(TABLE)
      .where({ community_id: this.communityId })
      .andWhere((q) => q.where({ grant_id: grantId }).orWhere({ model: 'Grant', id: grantId }))
      .delete();
  }

  async destroy(id: string): Promise<void> {
    if (holdsNul(id)) return;
    await this.rows()
      .andWhere({ id: this.storedId(id) })
      .delete();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    if (holdsNul(grantId)) return;
    await this.db(TABLE).where({ community_id: this.communityId, grant_id: grantId }).delete();
  }
}

/** Deletes expired rows of every community; answers how many went. */
export async function sweepExpiredModels(db: Knex): Promise<number> {
  return db(TABLE).where('expires_at', '<', db.fn.now()).delete();
}

/**
 * Ends everything an account holds in a community: its sessions, grants, codes and tokens (those
 * of its grants too). What recovery by an operator does: an attacker's refresh token must not
 * outlive a password or factor reset. Returns how many rows went.
 */
export async function revokeAccount(
  db: Knex,
  communityId: string,
  accountId: string,
): Promise<number> {
  const grants = db(TABLE)
    .where({ community_id: communityId, model: 'Grant' })
    .whereRaw("payload->>'accountId' = ?", [accountId])
    .select('id');
  return db(TABLE)
    .where({ community_id: communityId })
    .where((q) =>
      q.whereRaw("payload->>'accountId' = ?", [accountId]).orWhereIn('grant_id', grants),
    )
    .delete();
}
