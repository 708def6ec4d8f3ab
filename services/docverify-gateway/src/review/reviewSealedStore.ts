// What a review case keeps sealed under its verification's data key (the run the caller knows):
// operators' notes, which may name the person, and the link of a resubmission, whose page token is
// a credential. An erasure of the verification destroys that key, and they no longer open; a
// result retrieved "until retrieved" takes them along the same way.
import type { Resubmission } from '@idv/contracts';
import type { Knex } from '@idv/db';
import { DataKeyGone, type Keyring } from '@idv/platform';
import type { ReviewCaseRecord } from './reviewCaseRecord.ts';
import { runKeyOwner } from '../runs/runStore.ts';

const NOTES = 'docverify.review_notes';
const CASES = 'docverify.review_cases';
const noteContext = (id: string) => `review-note:${id}`;
const resubmissionContext = (caseId: string) => `review-resubmission:${caseId}`;

export interface CaseNote {
  noteId: string;
  at: string;
  author: string;
  /** null once the verification's data key is gone */
  text: string | null;
}

export class ReviewSealedStore {
  constructor(
    private readonly db: Knex,
    private readonly keys: Keyring,
  ) {}

  async addNote(
    trx: Knex,
    kase: ReviewCaseRecord,
    note: { id: string; at: Date; author: string; text: string },
  ) {
    const key = await this.keys.keyFor(runKeyOwner(kase.runId), trx);
    await trx(NOTES).insert({
      id: note.id,
      case_id: kase.id,
      at: note.at,
      author: note.author,
      text_sealed: key.seal(note.text, noteContext(note.id)),
    });
  }

  async notes(kase: ReviewCaseRecord): Promise<CaseNote[]> {
    const rows = (await this.db(NOTES).where({ case_id: kase.id }).orderBy('at')) as {
      id: string;
      at: Date;
      author: string;
      text_sealed: string;
    }[];
    return Promise.all(
      rows.map(async (row) => ({
        noteId: row.id,
        at: row.at.toISOString(),
        author: row.author,
        text: await this.opened(row.text_sealed, noteContext(row.id)),
      })),
    );
  }

  /** In the decision's transaction: the resubmission's link, kept for the caller's reads. */
  async keepResubmission(trx: Knex, kase: ReviewCaseRecord, resubmission: Resubmission) {
    const key = await this.keys.keyFor(runKeyOwner(kase.runId), trx);
    await trx(CASES)
      .where({ id: kase.id })
      .update({
        resubmission_session_id: resubmission.sessionId,
        resubmission_sealed: key.seal(JSON.stringify(resubmission), resubmissionContext(kase.id)),
      });
  }

  /** The resubmission awaited for the verification `runId`, if its case waits for one. */
  async awaitedResubmission(runId: string): Promise<Resubmission | undefined> {
    const row = (await this.db(CASES)
      .select('id', 'resubmission_sealed')
      .where({ run_id: runId, state: 'resubmission_requested' })
      .whereNotNull('resubmission_sealed')
      .first()) as { id: string; resubmission_sealed: string } | undefined;
    const opened = row && (await this.opened(row.resubmission_sealed, resubmissionContext(row.id)));
    return opened ? (JSON.parse(opened) as Resubmission) : undefined;
  }

  /** The case's resubmission link while it waits for one. */
  resubmissionOf(kase: ReviewCaseRecord): Promise<Resubmission | undefined> {
    return kase.state === 'resubmission_requested'
      ? this.awaitedResubmission(kase.runId)
      : Promise.resolve(undefined);
  }

  private async opened(sealed: string, context: string): Promise<string | null> {
    try {
      return await this.keys.open(sealed, context);
    } catch (err) {
      if (err instanceof DataKeyGone) return null;
      throw err;
    }
  }
}
