// The hosts a community's operator lets the image URLs of its documents name (review finding 11).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').createTable('image_url_hosts', (t) => {
    t.uuid('community_id')
      .primary()
      .comment('platform community; not a foreign key across schemas');
    t.specificType('hosts', 'text[]')
      .notNullable()
      .comment(
        'exact hosts (lower case, IDN as punycode) and *.domain entries; no row: any host the SSRF guard allows',
      );
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').dropTableIfExists('image_url_hosts');
}
