// Rate limits per tenant (all licences of its communities together) beside those per licence and
// per community: an operator may set a tenant's own limit, and its bucket is shared like the others.
import type { Knex } from 'knex';

const SUBJECT = 'the licence id, the community id or the tenant id';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE platform.rate_limits DROP CONSTRAINT rate_limits_values');
  await knex.raw(
    `ALTER TABLE platform.rate_limits ADD CONSTRAINT rate_limits_values CHECK (scope IN ('licence','community','tenant') AND rps > 0 AND burst >= 1)`,
  );
  for (const table of ['rate_limits', 'rate_buckets']) {
    await knex.raw(`COMMENT ON COLUMN platform.${table}.scope IS 'licence | community | tenant'`);
    await knex.raw(`COMMENT ON COLUMN platform.${table}.subject_id IS '${SUBJECT}'`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex('platform.rate_limits').where({ scope: 'tenant' }).delete();
  await knex('platform.rate_buckets').where({ scope: 'tenant' }).delete();
  await knex.raw('ALTER TABLE platform.rate_limits DROP CONSTRAINT rate_limits_values');
  await knex.raw(
    `ALTER TABLE platform.rate_limits ADD CONSTRAINT rate_limits_values CHECK (scope IN ('licence','community') AND rps > 0 AND burst >= 1)`,
  );
}
