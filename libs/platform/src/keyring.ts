// The platform's keyring (issue 26): data keys stored wrapped in the keystore schema, each under a
// key-encryption key (KEK) of the key provider, one KEK current at a time. A value sealed under a
// data key names it, so opening needs only the value; data keys opened once stay in a bounded
// cache. Rotation makes a new KEK current and re-wraps the data keys still under the old ones, a
// batch at a time, while traffic goes on; an old KEK can be retired once nothing is under it.
// Erasure destroys a data key: its row goes, and its id joins the ledger of erased keys.
import {
  createSecretBox,
  DataKey,
  dataKeyIdOf,
  DecryptError,
  LocalKeyProvider,
  localKeyId,
  Pkcs11KeyProvider,
  WithLocalKeys,
  type KeyProvider,
  type SecretBox,
} from '@idv/crypto';
import type { Knex } from '@idv/db';
import { countLegacyValues, type SealedColumn } from './legacySealed.ts';

/** What a data key seals: a run, a session, a verifier's secrets... and which one. */
export interface KeyOwner {
  kind: string;
  id: string;
}

export interface KeyStatus {
  current: string;
  keys: { keyId: string; state: 'current' | 'active' | 'retired'; values: number }[];
}

export interface KeyringOptions {
  /** how often the current KEK is read again (a rotation elsewhere is followed within it) */
  refreshMs?: number;
  /** data keys kept open in this process */
  cacheSize?: number;
  /**
   * how long a data key stays open in this process: an erasure in another process (it destroys the
   * key where it is stored) is final here within this time at most
   */
  cacheTtlMs?: number;
  /**
   * Values sealed under MASTER_KEY before envelopes (mk1:), still opened, and the KEK id of that
   * key (localKeyId), which cannot be retired while they may exist.
   */
  legacy?: {
    box: SecretBox;
    keyId: string;
    /** where such values may be (legacySealed.ts): counted as under `keyId`; unknown, never retired */
    columns?: readonly SealedColumn[];
  };
  /**
   * Development only: when the current KEK is not available here at all (another checkout's
   * generated key), the provider's initial key becomes current instead of every seal failing;
   * what was sealed before no longer opens, as before envelopes.
   */
  adoptInitialKey?: boolean;
  warn?: (line: string) => void;
}

/** The data key was erased, or never existed: what it sealed cannot be opened. */
export class DataKeyGone extends DecryptError {
  override readonly name = 'DataKeyGone';
}

/** An operator's key action the keyring refuses, with the reason. */
export class KeyRefused extends Error {
  override readonly name: string = 'KeyRefused';
}

export class RetireRefused extends KeyRefused {
  override readonly name = 'RetireRefused';
}

type DataKeyRow = { id: string; kek_id: string; wrapped: Buffer };

/** A row of keys.data_keys, to be inserted. */
export interface DataKeyInsert extends DataKeyRow {
  owner_kind: string;
  owner_id: string;
}
const ownerKey = (owner: KeyOwner) => `${owner.kind}\0${owner.id}`;

export class Keyring {
  private current: { id: string; readAt: number } | undefined;
  private usable: string | undefined;
  private readonly cache = new Map<string, { key: DataKey; until: number }>();
  /** owner -> the id of its data key */
  private readonly owners = new Map<string, string>();
  private readonly refreshMs: number;
  private readonly cacheSize: number;
  private readonly cacheTtlMs: number;

  constructor(
    private readonly db: Knex,
    private readonly provider: KeyProvider,
    private readonly options: KeyringOptions = {},
  ) {
    this.refreshMs = options.refreshMs ?? 5000;
    this.cacheSize = options.cacheSize ?? 10_000;
    this.cacheTtlMs = options.cacheTtlMs ?? 60_000;
  }

  /** A data key still open here, made the most recently used. */
  private cached(id: string): DataKey | undefined {
    const entry = this.cache.get(id);
    if (!entry) return undefined;
    this.cache.delete(id);
    if (entry.until <= Date.now()) return undefined;
    this.cache.set(id, entry);
    return entry.key;
  }

  /** The current KEK's id; a fresh keystore starts with the provider's initial key. */
  async currentKeyId(): Promise<string> {
    if (this.current && Date.now() - this.current.readAt < this.refreshMs) return this.current.id;
    let row = await this.db('keys.master_keys').where({ state: 'current' }).first('key_id');
    if (!row) {
      await this.db('keys.master_keys')
        .insert({
          key_id: this.provider.initialKeyId(),
          provider: this.provider.kind,
          state: 'current',
        })
        .onConflict()
        .ignore();
      row = await this.db('keys.master_keys').where({ state: 'current' }).first('key_id');
    }
    if (!row) throw new Error('the keystore has no current key-encryption key');
    this.current = { id: row.key_id as string, readAt: Date.now() };
    return this.current.id;
  }

  /**
   * The KEK new data keys are wrapped under: the current one, or while this process cannot use it
   * yet (its file or Secret not here yet) the last current one it could; a re-wrap moves those.
   */
  private async wrappingKeyId(): Promise<string> {
    const current = await this.currentKeyId();
    if (current === this.usable || (await this.provider.hasKey(current)))
      return (this.usable = current);
    if (this.usable) return this.usable;
    if (this.options.adoptInitialKey) return (this.usable = await this.adoptInitialKey(current));
    throw new Error(
      `the current key-encryption key ${current} is not available here: is this MASTER_KEY (or MASTER_KEYS_DIR) the one that made it?`,
    );
  }

  /** adoptInitialKey: the provider's initial key made current, once for racing processes. */
  private async adoptInitialKey(unavailable: string): Promise<string> {
    const initial = this.provider.initialKeyId();
    await this.makeCurrent(initial);
    this.options.warn?.(
      `the current key-encryption key ${unavailable} is not available to this development master key: ${initial} is current now, and what was sealed before no longer opens`,
    );
    return initial;
  }

  /** A new data key for `owner`, stored wrapped under the current KEK (in `trx` when given). */
  async newDataKey(owner: KeyOwner, trx?: Knex): Promise<DataKey> {
    const { key, row } = await this.prepareDataKey(owner);
    // one statement: an erased owner gets no key again (a run finishing, an upload landing after
    // the erasure)
    const stored = await (trx ?? this.db).raw(
      `INSERT INTO keys.data_keys (id, kek_id, wrapped, owner_kind, owner_id)
         SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (
           SELECT 1 FROM keys.erased_data_keys WHERE owner_kind = ? AND owner_id = ?)`,
      [row.id, row.kek_id, row.wrapped, row.owner_kind, row.owner_id, owner.kind, owner.id],
    );
    if (stored.rowCount === 0) throw new DataKeyGone(`${owner.kind} ${owner.id} was erased`);
    // known to be this owner's only once the row is committed (in a caller's transaction, it may
    // yet roll back: then keyFor must not hand out a key nothing stores)
    if (!trx) this.remember(key, owner);
    return key;
  }

  /**
   * A new data key for `owner` and the keys.data_keys row that stores it, for a caller that writes
   * the row in a statement of its own (with the values it seals); nothing is stored here.
   */
  async prepareDataKey(owner: KeyOwner): Promise<{ key: DataKey; row: DataKeyInsert }> {
    const key = DataKey.generate();
    const kekId = await this.wrappingKeyId();
    const wrapped = await this.provider.wrap(kekId, key.id, key.material());
    this.remember(key);
    return {
      key,
      row: { id: key.id, kek_id: kekId, wrapped, owner_kind: owner.kind, owner_id: owner.id },
    };
  }

  /**
   * The data key of `owner`, made when it has none yet (in `trx` when given). Two made at once for
   * one owner are both kept and both destroyed with it.
   */
  async keyFor(owner: KeyOwner, trx?: Knex): Promise<DataKey> {
    const known = this.owners.get(ownerKey(owner));
    const cached = known && this.cached(known);
    if (cached) return cached;
    const row = (await (trx ?? this.db)('keys.data_keys')
      .where({ owner_kind: owner.kind, owner_id: owner.id })
      .orderBy('created_at')
      .first('id')) as { id: string } | undefined;
    if (!row) return this.newDataKey(owner, trx);
    const key = await this.dataKey(row.id, trx);
    this.remember(key, owner);
    return key;
  }

  /** `plaintext` sealed under the data key of `owner` (made when it has none: keyFor). */
  async sealFor(owner: KeyOwner, plaintext: string, context: string, trx?: Knex): Promise<string> {
    return (await this.keyFor(owner, trx)).seal(plaintext, context);
  }

  /** The data key `id`, from the cache or unwrapped from the keystore. */
  async dataKey(id: string, trx?: Knex): Promise<DataKey> {
    const cached = this.cached(id);
    if (cached) return cached;
    const row = (await (trx ?? this.db)('keys.data_keys')
      .where({ id })
      .first('id', 'kek_id', 'wrapped')) as DataKeyRow | undefined;
    if (!row) throw new DataKeyGone('the data key of this value was erased');
    const key = new DataKey(row.id, await this.provider.unwrap(row.kek_id, row.id, row.wrapped));
    this.remember(key);
    return key;
  }

  /** Opens a value sealed under a data key, or under MASTER_KEY before envelopes (mk1:). */
  async open(sealed: string, context = '', trx?: Knex): Promise<string> {
    const id = dataKeyIdOf(sealed);
    if (id) return (await this.dataKey(id, trx)).open(sealed, context);
    if (this.options.legacy) return this.options.legacy.box.open(sealed, context);
    throw new DecryptError('not a sealed value');
  }

  async openBytes(sealed: Buffer, context = '', trx?: Knex): Promise<Buffer> {
    const id = dataKeyIdOf(sealed);
    if (id) return (await this.dataKey(id, trx)).openBytes(sealed, context);
    if (this.options.legacy) return this.options.legacy.box.openBytes(sealed, context);
    throw new DecryptError('not sealed bytes');
  }

  /**
   * Destroys the data keys of `owner` (in `trx` when given): their rows go and their ids are kept
   * in the ledger of erased keys. Returns the ids destroyed.
   */
  async destroy(owner: KeyOwner, trx?: Knex): Promise<string[]> {
    return this.destroyAll([owner], trx);
  }

  /**
   * destroy() of every owner in `owners`, in one statement: what retention sweeps use. `reason`
   * 'erasure' (an erasure of the owners): the start after a restore deletes their rows too.
   */
  async destroyAll(
    owners: KeyOwner[],
    trx?: Knex,
    reason: 'erasure' | 'retention' = 'retention',
  ): Promise<string[]> {
    if (owners.length === 0) return [];
    const gone = await (trx ?? this.db).raw(
      `WITH gone AS (
         DELETE FROM keys.data_keys d USING unnest(?::text[], ?::text[]) AS o(kind, id)
         WHERE d.owner_kind = o.kind AND d.owner_id = o.id
         RETURNING d.id, d.owner_kind, d.owner_id),
       ledger AS (
         INSERT INTO keys.erased_data_keys (id, owner_kind, owner_id, reason)
         SELECT id, owner_kind, owner_id, ? FROM gone ON CONFLICT (id) DO NOTHING)
       SELECT id FROM gone`,
      [owners.map((o) => o.kind), owners.map((o) => o.id), reason],
    );
    const ids = (gone.rows as { id: string }[]).map((row) => row.id);
    for (const id of ids) this.cache.delete(id);
    for (const owner of owners) this.owners.delete(ownerKey(owner));
    return ids;
  }

  /** reapplyErasures() of this keyring's database; what came back leaves the cache too. */
  async reapplyErasures(alsoErased: string[] = []): Promise<number> {
    const back = await reapplyErasures(this.db, alsoErased);
    for (const id of back) this.cache.delete(id);
    return back.length;
  }

  /**
   * A new KEK of the provider made current, or `existing` (one the provider already holds: a key
   * an operator added to the mounted Secret, or made in the HSM); the one before stays active
   * until retired.
   */
  async rotate(existing?: string): Promise<string> {
    if (existing !== undefined && !(await this.provider.hasKey(existing)))
      throw new KeyRefused(`the key provider (${this.provider.kind}) holds no key ${existing}`);
    if (
      existing !== undefined &&
      (await this.db('keys.master_keys').where({ key_id: existing }).first())
    )
      throw new KeyRefused(`${existing} was made current before: rotate to a new key`);
    const keyId = existing ?? (await this.provider.createKey());
    await this.makeCurrent(keyId);
    return keyId;
  }

  /** `keyId` made the current KEK, the one before it active; two at once go one after the other. */
  private async makeCurrent(keyId: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx.raw("SELECT pg_advisory_xact_lock(hashtext('keys.master_keys'))");
      await trx('keys.master_keys')
        .where({ state: 'current' })
        .whereNot({ key_id: keyId })
        .update({ state: 'active' });
      await trx('keys.master_keys')
        .insert({ key_id: keyId, provider: this.provider.kind, state: 'current' })
        .onConflict('key_id')
        .merge({ state: 'current' });
    });
    this.current = { id: keyId, readAt: Date.now() };
  }

  /**
   * Re-wraps, `batch` at a time, every data key not under the current KEK; `progress` hears the
   * running total. Rows are taken with SKIP LOCKED, so several of these may run at once. A key
   * that does not unwrap (its KEK gone, its row damaged) is left as it is and reported to
   * `failed`, so one cannot stop the rest. Returns how many were re-wrapped.
   */
  async rewrap(
    options: {
      batch?: number;
      progress?: (done: number) => void;
      failed?: (dataKeyId: string, err: Error) => void;
    } = {},
  ): Promise<number> {
    const batch = options.batch ?? 5000;
    const skipped: string[] = [];
    let done = 0;
    for (;;) {
      const current = await this.currentKeyId();
      const older = (await this.db('keys.master_keys')
        .whereNot({ key_id: current })
        .pluck('key_id')) as string[];
      const moved = await this.db.transaction(async (trx) => {
        // by the KEK index: the keys still under each older KEK, not a scan past those done
        const rows = (await trx('keys.data_keys')
          .whereIn('kek_id', older)
          .whereNotIn('id', skipped)
          .select('id', 'kek_id', 'wrapped')
          .limit(batch)
          .forUpdate()
          .skipLocked()) as DataKeyRow[];
        if (rows.length === 0) return undefined;
        const rewrapped = await Promise.all(
          rows.map(async (row) => {
            try {
              const key = await this.provider.unwrap(row.kek_id, row.id, row.wrapped);
              return { id: row.id, wrapped: await this.provider.wrap(current, row.id, key) };
            } catch (err) {
              skipped.push(row.id);
              options.failed?.(row.id, err as Error);
              return undefined;
            }
          }),
        );
        const moved = rewrapped.filter(
          (r): r is { id: string; wrapped: Buffer } => r !== undefined,
        );
        await trx.raw(
          `UPDATE keys.data_keys d SET kek_id = ?, wrapped = u.wrapped
             FROM unnest(?::uuid[], ?::bytea[]) AS u(id, wrapped) WHERE d.id = u.id`,
          [current, moved.map((r) => r.id), moved.map((r) => r.wrapped)],
        );
        return moved.length;
      });
      if (moved === undefined) return done;
      done += moved;
      options.progress?.(done);
    }
  }

  /** Every KEK with the number of data keys still wrapped under it. */
  async status(): Promise<KeyStatus> {
    const current = await this.currentKeyId();
    const keys = await this.db('keys.master_keys').orderBy('created_at').select('key_id', 'state');
    const counts = (await this.db('keys.data_keys')
      .groupBy('kek_id')
      .select('kek_id')
      .count({ n: '*' })) as { kek_id: string; n: string }[];
    const under = new Map(counts.map((row) => [row.kek_id, Number(row.n)]));
    const legacy = this.options.legacy;
    if (legacy?.columns) {
      const old = await countLegacyValues(this.db, legacy.columns);
      under.set(legacy.keyId, (under.get(legacy.keyId) ?? 0) + old);
    }
    return {
      current,
      keys: keys.map((row: { key_id: string; state: KeyStatus['keys'][number]['state'] }) => ({
        keyId: row.key_id,
        state: row.state,
        values: under.get(row.key_id) ?? 0,
      })),
    };
  }

  /** Retires a KEK nothing is wrapped under any more; refuses the current one and a used one. */
  async retire(keyId: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      const row = await trx('keys.master_keys').where({ key_id: keyId }).forUpdate().first('state');
      if (!row) throw new RetireRefused(`no key-encryption key ${keyId}`);
      if (row.state === 'current')
        throw new RetireRefused(`${keyId} is the current key: rotate first`);
      const legacy = this.options.legacy;
      if (keyId === legacy?.keyId) {
        const old = legacy.columns ? await countLegacyValues(trx, legacy.columns) : undefined;
        if (old === undefined || old > 0)
          throw new RetireRefused(
            `${keyId} is MASTER_KEY, which still opens ${old ?? 'the'} values sealed before envelopes (mk1:): run master-key migrate`,
          );
      }
      const used = await trx('keys.data_keys').where({ kek_id: keyId }).count({ n: '*' }).first();
      const values = Number(used?.n ?? 0);
      if (values > 0)
        throw new RetireRefused(
          `${values} data keys are still wrapped under ${keyId}: run master-key rewrap`,
        );
      await trx('keys.master_keys')
        .where({ key_id: keyId })
        .update({ state: 'retired', retired_at: trx.fn.now() });
    });
  }

  private remember(key: DataKey, owner?: KeyOwner): void {
    if (this.cache.size >= this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key.id, { key, until: Date.now() + this.cacheTtlMs });
    if (!owner) return;
    if (this.owners.size >= this.cacheSize) this.owners.delete(this.owners.keys().next().value!);
    this.owners.set(ownerKey(owner), key.id);
  }
}

/**
 * The keyring of the local key provider: MASTER_KEY and the keys added in `keysDir`, with the
 * values sealed under MASTER_KEY before envelopes still opened.
 */
export function localKeyring(
  db: Knex,
  masterKey: Buffer,
  keysDir: string,
  options: Omit<KeyringOptions, 'legacy'> & { legacyColumns?: readonly SealedColumn[] } = {},
): Keyring {
  const provider = new LocalKeyProvider(masterKey, keysDir, options.warn);
  const legacy = legacyOf(masterKey, options.legacyColumns);
  return new Keyring(db, provider, { ...options, legacy });
}

/**
 * Destroys again every data key that was erased, after a restore from a backup older than the
 * erasure: those in the keystore's own ledger, and `alsoErased` (the ids the tombstones of the data
 * name, for a keystore restored alone), which join the ledger. Run by the migrate command, so every
 * start after a restore applies it. Returns the ids destroyed again.
 */
export async function reapplyErasures(db: Knex, alsoErased: string[] = []): Promise<string[]> {
  return db.transaction(async (trx) => {
    if (alsoErased.length > 0)
      await trx.raw(
        `INSERT INTO keys.erased_data_keys (id, owner_kind, owner_id, reason)
           SELECT id, 'tombstone', '', 'erasure' FROM unnest(?::uuid[]) AS id ON CONFLICT (id) DO NOTHING`,
        [alsoErased],
      );
    const back = await trx.raw(
      'DELETE FROM keys.data_keys d USING keys.erased_data_keys e WHERE d.id = e.id RETURNING d.id',
    );
    return (back.rows as { id: string }[]).map((row) => row.id);
  });
}

/** The settings that choose and reach the key provider (PlatformConfig). */
export interface KeyProviderSettings {
  KEY_PROVIDER: string;
  MASTER_KEYS_DIR: string;
  PKCS11_MODULE: string;
  PKCS11_TOKEN_LABEL: string;
  PKCS11_PIN?: string | undefined;
  PKCS11_INITIAL_KEY_LABEL: string;
}

/**
 * The keyring of the configured provider: local (localKeyring), or pkcs11, whose KEKs live in the
 * token; either way MASTER_KEY still opens the values sealed before envelopes. `close` ends the
 * provider's session with its token.
 */
export async function createKeyring(
  db: Knex,
  masterKey: Buffer,
  settings: KeyProviderSettings,
  options: Omit<KeyringOptions, 'legacy'> & { legacyColumns?: readonly SealedColumn[] } = {},
): Promise<{ keyring: Keyring; close: () => void }> {
  if (settings.KEY_PROVIDER !== 'pkcs11')
    return {
      keyring: localKeyring(db, masterKey, settings.MASTER_KEYS_DIR, options),
      close: () => {},
    };
  if (!settings.PKCS11_PIN)
    throw new Error('KEY_PROVIDER=pkcs11 needs PKCS11_PIN, the user PIN of its token');
  const hsm = await Pkcs11KeyProvider.open({
    module: settings.PKCS11_MODULE,
    tokenLabel: settings.PKCS11_TOKEN_LABEL,
    pin: settings.PKCS11_PIN,
    initialKeyLabel: settings.PKCS11_INITIAL_KEY_LABEL,
  });
  // the local keys stay usable where they still wrap data keys (a keystore moving to the HSM)
  const local = new LocalKeyProvider(masterKey, settings.MASTER_KEYS_DIR, options.warn);
  const provider = new WithLocalKeys(hsm, local);
  const legacy = legacyOf(masterKey, options.legacyColumns);
  return { keyring: new Keyring(db, provider, { ...options, legacy }), close: () => hsm.close() };
}

/** What MASTER_KEY alone sealed before envelopes: opened by it, counted under its KEK id. */
function legacyOf(
  masterKey: Buffer,
  columns?: readonly SealedColumn[],
): NonNullable<KeyringOptions['legacy']> {
  return {
    box: createSecretBox(masterKey),
    keyId: localKeyId(masterKey),
    ...(columns ? { columns } : {}),
  };
}
