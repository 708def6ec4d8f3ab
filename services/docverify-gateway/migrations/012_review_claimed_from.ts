// A claim remembers the state it took the case from, so a release gives the case back to it: a case
// claimed while it waited for a resubmission waits for it again (its caller reads the link again),
// and the person's submit during such a claim ends the claim (review/resubmissionSubmit.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').alterTable('review_cases', (t) => {
    t.text('claimed_from').comment(
      'while claimed: the state the claim took it from (open | resubmission_requested | awaiting_second)',
    );
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema
    .withSchema('docverify')
    .alterTable('review_cases', (t) => t.dropColumn('claimed_from'));
}
