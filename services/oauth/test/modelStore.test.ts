// The PostgreSQL adapter on its own: racing consumes, expiry, the sweep, community scope, and
// which writes wait for the WAL flush.
import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase, type Knex } from '@idv/db';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import { platformMigrations, TenantStore, type Community } from '@idv/platform';
import { errors } from 'oidc-provider';
import { oauthMigrations } from '../src/migrations.ts';
import { ModelBatches, UPSERT } from '../src/store/modelBatches.ts';
import { ModelStore, sweepExpiredModels } from '../src/store/modelStore.ts';

describe('oauth PostgreSQL adapter', () => {
  let database: TestDatabase;
  let community: Community;
  let other: Community;

  const store = (model: string, of = community, durableIssuance = false, db = database.db) =>
    new ModelStore(db, of.id, model, new ModelBatches(db, of.id), durableIssuance);
  const newId = () => randomBytes(32).toString('base64url');
  const preparedOn = async (db: Knex) =>
    ((await db.raw('SELECT name FROM pg_prepared_statements')).rows as { name: string }[])
      .map((row) => row.name)
      .filter((name) => name.startsWith('oauth_models_upsert'))
      .sort();

  before(async () => {
    database = await createTestDatabase([platformMigrations, oauthMigrations]);
    const tenants = new TenantStore(database.db);
    const tenant = await tenants.createTenant(`tenant-${randomBytes(3).toString('hex')}`);
    community = await tenants.createCommunity(tenant.id, `c-${randomBytes(3).toString('hex')}`);
    other = await tenants.createCommunity(tenant.id, `o-${randomBytes(3).toString('hex')}`);
  });
  after(async () => {
    await database?.drop();
  });

  it('lets exactly one of many racing consumes of a code through', async () => {
    const codes = store('AuthorizationCode');
    const id = newId();
    await codes.upsert(id, { kind: 'AuthorizationCode', clientId: 'cl_race' }, 60);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () => store('AuthorizationCode').consume(id)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
    for (const o of outcomes.filter((o) => o.status === 'rejected')) {
      expect((o as PromiseRejectedResult).reason).to.be.instanceOf(errors.InvalidGrant);
    }
    expect((await codes.find(id))?.consumed).to.be.a('number');
  });

  it('revokes the grant when a consume loses the race for a refresh token', async () => {
    const grantId = newId();
    const [refresh, access, otherGrantsToken] = [newId(), newId(), newId()];
    await store('Grant').upsert(grantId, { kind: 'Grant', clientId: 'cl_race' }, 600);
    await store('RefreshToken').upsert(refresh, { kind: 'RefreshToken', grantId }, 600);
    await store('AccessToken').upsert(access, { kind: 'AccessToken', grantId }, 600);
    await store('AccessToken').upsert(otherGrantsToken, { kind: 'AccessToken', grantId: 'g2' }, 60);
    // both requests found the token unspent; the winner consumes, then the loser tries
    await store('RefreshToken').consume(refresh);
    let refused: unknown;
    await store('RefreshToken')
      .consume(refresh)
      .catch((err: unknown) => (refused = err));
    expect(refused).to.be.instanceOf(errors.InvalidGrant);
    expect(await store('Grant').find(grantId)).to.equal(undefined);
    expect(await store('RefreshToken').find(refresh)).to.equal(undefined);
    expect(await store('AccessToken').find(access)).to.equal(undefined);
    expect(await store('AccessToken').find(otherGrantsToken)).to.include({ grantId: 'g2' });
  });

  it('hides an expired row at once and the sweep deletes it', async () => {
    const tokens = store('AccessToken');
    const [expired, live] = [newId(), newId()];
    await tokens.upsert(expired, { kind: 'AccessToken' }, 3600);
    await tokens.upsert(live, { kind: 'AccessToken' }, 3600);
    expect(await tokens.find(expired)).to.include({ kind: 'AccessToken', jti: expired });
    // rows of bearer credentials are keyed by the credential's SHA-256
    const stored = createHash('sha256').update(expired).digest('hex');
    await database
      .db('oauth.oidc_models')
      .where({ community_id: community.id, model: 'AccessToken', id: stored })
      .update({ expires_at: database.db.raw("now() - interval '1 second'") });
    expect(await tokens.find(expired)).to.equal(undefined);
    expect(await tokens.find(live)).to.include({ jti: live });
    expect(await sweepExpiredModels(database.db)).to.equal(1);
    expect(await database.db('oauth.oidc_models').where({ id: stored }).first()).to.equal(
      undefined,
    );
  });

  it('keeps a row of one community invisible to another', async () => {
    const id = newId();
    await store('ClientCredentials').upsert(id, { kind: 'ClientCredentials' }, 600);
    expect(await store('ClientCredentials').find(id)).to.include({ jti: id });
    expect(await store('ClientCredentials', other).find(id)).to.equal(undefined);
  });

  /** a pool of one connection, so pg_prepared_statements shows every statement the adapter ran */
  async function onOneConnection(check: (db: Knex, setting: string) => Promise<void>) {
    const db = createDatabase({ url: database.url, poolMax: 1 });
    try {
      await check(db, await synchronousCommit(db));
    } finally {
      await db.destroy();
    }
  }
  const synchronousCommit = async (db: Knex) =>
    (await db.raw('SHOW synchronous_commit')).rows[0].synchronous_commit as string;

  it('writes new tokens, codes and sessions without waiting for the flush, for that statement only', () =>
    onOneConnection(async (db, setting) => {
      const id = newId();
      await store('ClientCredentials', community, false, db).upsert(id, { a: 1 }, 600);
      await store('AuthorizationCode', community, false, db).upsert(newId(), { a: 2 }, 60);
      await store('Session', community, false, db).upsert(newId(), { a: 3 }, 60);
      expect(await preparedOn(db)).to.deep.equal(['oauth_models_upsert_relaxed']);
      // the connection's own setting is untouched afterwards
      expect(await synchronousCommit(db)).to.equal(setting);
      expect(await store('ClientCredentials').find(id)).to.include({ a: 1 });
    }));

  it('flushes replay records, models it does not know, and every write under OAUTH_DURABLE_ISSUANCE', () =>
    onOneConnection(async (db) => {
      await store('ReplayDetection', community, false, db).upsert(newId(), { iat: 1 }, 60);
      await store('DeviceCode', community, false, db).upsert(newId(), { inFlight: true }, 60);
      await store('AccessToken', community, true, db).upsert(newId(), { b: 1 }, 60);
      await store('Session', community, true, db).upsert(newId(), { b: 2 }, 60);
      expect(await preparedOn(db)).to.deep.equal(['oauth_models_upsert']);
    }));

  it('flushes a shared statement when one of its rows must be flushed', () =>
    onOneConnection(async (db) => {
      const batches = new ModelBatches(db, community.id);
      const of = (model: string) => new ModelStore(db, community.id, model, batches);
      // the first goes at once; the two made while it runs share the next statement
      await Promise.all([
        of('AccessToken').upsert(newId(), { c: 1 }, 60),
        of('ReplayDetection').upsert(newId(), { c: 2 }, 60),
        of('AccessToken').upsert(newId(), { c: 3 }, 60),
      ]);
      expect(await preparedOn(db)).to.deep.equal([
        'oauth_models_upsert',
        'oauth_models_upsert_relaxed',
      ]);
    }));

  it('flushes what it writes inside a transaction (the setting would last until its COMMIT)', () =>
    onOneConnection(async (db) => {
      await db.transaction(async (trx) => {
        await store('AccessToken', community, false, trx).upsert(newId(), { d: 1 }, 60);
      });
      expect(await preparedOn(db)).to.deep.equal(['oauth_models_upsert']);
    }));

  it('turns synchronous_commit off for its own transaction only (relaxed statement)', async () => {
    const connection = new pg.Client({ connectionString: database.url });
    await connection.connect();
    try {
      const setting = async () =>
        (await connection.query('SHOW synchronous_commit')).rows[0].synchronous_commit as string;
      const before = await setting();
      const row = { model: 'AccessToken', id: newId(), payload: { c: 1 } };
      await connection.query('BEGIN');
      await connection.query({
        text: UPSERT.relaxed.text,
        values: [community.id, JSON.stringify([row])],
      });
      expect(await setting()).to.equal('off');
      await connection.query('COMMIT');
      expect(await setting()).to.equal(before);
      await connection.query('BEGIN');
      await connection.query({
        text: UPSERT.durable.text,
        values: [community.id, JSON.stringify([{ ...row, id: newId() }])],
      });
      expect(await setting()).to.equal(before);
      await connection.query('COMMIT');
    } finally {
      await connection.end();
    }
  });
});
