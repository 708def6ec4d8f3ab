// Connector calls per minute, as the gateway saw them (its round trip through the broker and the
// worker): counts by outcome, total and max duration and a fixed histogram, so the console can show
// per-connector latency and error rates without a row per call. Each replica adds its minute's
// counts to the same row (connectors/connectorMinuteStore.ts); no personal data, only ids and
// counts.
import type { Knex } from 'knex';

/** Upper bounds (ms) of the histogram's columns le_<bound>_ms; over_5000_ms takes the rest. */
const BOUNDS = [100, 250, 500, 1000, 2500, 5000];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').createTable('connector_minutes', (t) => {
    t.uuid('community_id').notNullable();
    t.timestamp('minute', { useTz: true }).notNullable().comment('start of the minute (UTC)');
    t.text('verifier_tag').notNullable().comment("the verifier's tag in its community");
    t.text('kind').notNullable().comment('verification kind asked');
    t.text('connector_type').notNullable();
    t.integer('calls').notNullable().comment('calls sent, whatever their end');
    t.integer('errors')
      .notNullable()
      .comment('provider failed (not a timeout), or the call failed on our side');
    t.integer('timeouts')
      .notNullable()
      .comment("the provider's timeout, or no answer by the deadline");
    t.integer('refusals')
      .notNullable()
      .comment('input refused (invalid_request) by us or the provider');
    t.integer('busy')
      .notNullable()
      .comment('the worker could not start the call in time (its limits, the deadline)');
    t.bigInteger('total_ms').notNullable().comment("sum of the calls' durations");
    t.integer('max_ms').notNullable();
    for (const bound of BOUNDS)
      t.integer(`le_${bound}_ms`).notNullable().comment(`calls of at most ${bound} ms`);
    t.integer('over_5000_ms').notNullable().comment('calls of more than 5000 ms');
    t.primary(['community_id', 'minute', 'verifier_tag', 'kind', 'connector_type']);
    // the retention sweep and reads across every community go by time
    t.index(['minute']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').dropTable('connector_minutes');
}
