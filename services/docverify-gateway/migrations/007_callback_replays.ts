// Connector callbacks already accepted: a captured callback sent again inside its window is refused
// by whichever gateway replica it reaches.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').createTable('callback_replays', (t) => {
    t.text('signature')
      .primary()
      .comment(
        'hex HMAC of the callback (timestamp, method, path with query, body): one per callback',
      );
    t.uuid('verifier_id').notNullable().comment('the verifier whose provider called back');
    t.timestamp('expires_at', { useTz: true })
      .notNullable()
      .comment('past the signature timestamp window (plus clock slack): pruned after this');
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').dropTableIfExists('callback_replays');
}
