// The image budget of a community beside its request limits: megabytes of decoded pixels its
// requests may send to be decoded, a second (rps) and at once (burst), in the same shared buckets
// and under the same operator command (admin ratelimit set --images COMMUNITY_ID).
import type { Knex } from 'knex';

const SCOPES = 'licence | community | tenant | images (a community: megabytes of decoded pixels)';
const SUBJECT = 'the licence id, the community id (community, images) or the tenant id';

const constraint = (scopes: string) =>
  `ALTER TABLE platform.rate_limits ADD CONSTRAINT rate_limits_values CHECK (scope IN (${scopes}) AND rps > 0 AND burst >= 1)`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE platform.rate_limits DROP CONSTRAINT rate_limits_values');
  await knex.raw(constraint(`'licence','community','tenant','images'`));
  for (const table of ['rate_limits', 'rate_buckets']) {
    await knex.raw(`COMMENT ON COLUMN platform.${table}.scope IS '${SCOPES}'`);
    await knex.raw(`COMMENT ON COLUMN platform.${table}.subject_id IS '${SUBJECT}'`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex('platform.rate_limits').where({ scope: 'images' }).delete();
  await knex('platform.rate_buckets').where({ scope: 'images' }).delete();
  await knex.raw('ALTER TABLE platform.rate_limits DROP CONSTRAINT rate_limits_values');
  await knex.raw(constraint(`'licence','community','tenant'`));
}
