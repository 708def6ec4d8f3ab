// The one unique-violation handler, against a real PostgreSQL table: a duplicate becomes the
// domain's ConflictError with the caller's message; any other failure goes on unchanged.
import { expect } from 'chai';
import { ConflictError } from '@idv/errors';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import { conflictOnDuplicate, isUniqueViolation } from '../src/index.ts';

describe('conflictOnDuplicate', () => {
  let t: TestDatabase;

  before(async () => {
    t = await createTestDatabase();
    await t.db.schema.createTable('tags', (table) => {
      table.text('tag').primary();
    });
  });
  after(async () => t?.drop());

  it('answers what the write answers when nothing collides', async () => {
    const rows = await conflictOnDuplicate(
      () => t.db('tags').insert({ tag: 'kyc' }).returning('tag'),
      'a tag "kyc" already exists',
    );
    expect(rows).to.deep.equal([{ tag: 'kyc' }]);
  });

  it('turns a unique violation into a ConflictError saying what collides', async () => {
    const err = await conflictOnDuplicate(
      () => t.db('tags').insert({ tag: 'kyc' }),
      'a tag "kyc" already exists',
    ).then(
      () => expect.fail('the duplicate was stored'),
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ConflictError);
    expect((err as Error).message).to.equal('a tag "kyc" already exists');
  });

  it('lets any other failure through as it was', async () => {
    const err = await conflictOnDuplicate(
      () => t.db('tags').insert({ tag: null }),
      'never said',
    ).then(
      () => expect.fail('a null key was stored'),
      (e: unknown) => e,
    );
    expect(err).to.not.be.instanceOf(ConflictError);
    expect(isUniqueViolation(err)).to.equal(false);
    expect((err as { code?: string }).code).to.equal('23502');
  });
});
