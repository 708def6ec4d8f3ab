// Erasure of a verification or session under review (erasureStore.ts): a case is one person's
// review, so erasing any part of it erases all of it (the original session or async run, every
// resubmission's session and run), and the case closes as erased: its notes deleted (their digests
// join the tombstone), its resubmission link dropped, its history kept (ids, states, reason codes).
import type { ReviewCaseState } from '@idv/contracts';
import type { Knex } from '@idv/db';
import type { ErasureSubject } from './erasureStore.ts';
import { addHistory } from '../review/reviewCaseStore.ts';

const CASES = 'docverify.review_cases';

interface CaseRow {
  id: string;
  run_id: string;
  session_id: string | null;
}

export interface CaseMembers {
  caseIds: string[];
  /** sessions of the cases besides the subject */
  sessions: string[];
  /** async runs under review besides the subject */
  runs: string[];
}

/** The cases `subject` belongs to and what else they hold, read (and locked) before it goes. */
export async function caseMembers(
  trx: Knex.Transaction,
  communityId: string,
  subject: ErasureSubject,
): Promise<CaseMembers> {
  const cases = (await trx(CASES)
    .where({ community_id: communityId })
    .where((q) =>
      subject.kind === 'verification'
        ? q.where({ run_id: subject.id })
        : q
            .where({ session_id: subject.id })
            .orWhereIn(
              'id',
              trx('docverify.sessions').select('review_case_id').where({ id: subject.id }),
            ),
    )
    .forUpdate()) as CaseRow[];
  const caseIds = cases.map((c) => c.id);
  const resubmissions = (await trx('docverify.sessions')
    .select('id')
    .whereIn('review_case_id', caseIds)) as { id: string }[];
  const sessions = [
    ...cases.flatMap((c) => (c.session_id ? [c.session_id] : [])),
    ...resubmissions.map((r) => r.id),
  ];
  const runs = cases.filter((c) => !c.session_id).map((c) => c.run_id);
  return {
    caseIds,
    sessions: sessions.filter((id) => id !== subject.id),
    runs: runs.filter((id) => id !== subject.id),
  };
}

/** The cases closed as erased by `actor`; the sealed values deleted with them. */
export async function closeErasedCases(
  trx: Knex.Transaction,
  caseIds: string[],
  actor: string,
  at: Date,
): Promise<{ notes: number; sealed: string[] }> {
  if (caseIds.length === 0) return { notes: 0, sealed: [] };
  const notes = (await trx('docverify.review_notes')
    .whereIn('case_id', caseIds)
    .delete()
    .returning('text_sealed')) as { text_sealed: string }[];
  const links = (await trx(CASES)
    .whereIn('id', caseIds)
    .whereNotNull('resubmission_sealed')
    .select('resubmission_sealed')) as { resubmission_sealed: string }[];
  const open = (await trx(CASES)
    .whereIn('id', caseIds)
    .whereNot({ state: 'erased' })
    .select('id', 'state')) as { id: string; state: ReviewCaseState }[];
  await trx(CASES)
    .whereIn(
      'id',
      open.map((c) => c.id),
    )
    .update({
      state: 'erased',
      assignee: null,
      assignee_sub: null,
      resubmission_sealed: null,
      closed_at: at,
      version: trx.raw('version + 1'),
    });
  for (const c of open)
    await addHistory(trx, c.id, { at, actor, action: 'erased', from: c.state, to: 'erased' });
  return {
    notes: notes.length,
    sealed: [...notes.map((n) => n.text_sealed), ...links.map((l) => l.resubmission_sealed)],
  };
}
