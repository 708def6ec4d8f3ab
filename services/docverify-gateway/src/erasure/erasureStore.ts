// Erasure of a verification or a session (DESIGN 2.5), in one transaction: its data keys are
// destroyed (keyring.ts: the row goes, its id joins the ledger), its rows are deleted, a tombstone
// of ids, counts and digests stays, and E_IDV_DATA_ERASED goes to the outbox. A copy of the sealed
// values elsewhere (a backup, a WAL archive, a replica) no longer opens: its key is gone. A second
// erasure of the same subject answers the first's tombstone, and the action is written to the
// platform's append-only audit log. Retention expiry destroys keys the same way (the sweeps). A
// subject under human review takes its whole case along (caseErasure.ts).
import { createHash } from 'node:crypto';
import { eventEnvelope, type EventEnvelope, type Tombstone } from '@idv/contracts';
import { retryOnDeadlock, type Knex } from '@idv/db';
import { appendAudit, type Keyring, type KeyOwner } from '@idv/platform';
import type { Clock } from '../shared/clock.ts';
import { caseMembers, closeErasedCases } from './caseErasure.ts';
import { runKeyOwner } from '../runs/runStore.ts';
import { sessionKeyOwner } from '../sessions/sessionImageStore.ts';
import { addEvents } from '../sessions/sessionStore.ts';
import { verificationKeyOwner } from '../verify/verificationStore.ts';

const TOMBSTONES = 'docverify.erasures';
export type ErasureSubject = { kind: 'verification' | 'session'; id: string };

export interface Erased {
  tombstone: Tombstone;
  /** owed by this erasure (none when it had been erased before) */
  events: EventEnvelope[];
}

const digest = (value: string | Buffer) => createHash('sha256').update(value).digest('hex');
/** What one subject's rows held, deleted: what held their keys, runs, counts, sealed values. */
interface Deleted {
  owners: KeyOwner[];
  runs: string[];
  deleted: Record<string, number>;
  sealed: (string | Buffer)[];
}

/** The subject's deletion with its case's other members' and the case's own (review cases). */
function merged(
  parts: (Deleted | undefined)[],
  cases: { notes: number; sealed: string[] },
  caseCount: number,
): Deleted {
  const found = parts.filter((p): p is Deleted => p !== undefined);
  const deleted: Record<string, number> = {};
  for (const part of found)
    for (const [kind, n] of Object.entries(part.deleted)) deleted[kind] = (deleted[kind] ?? 0) + n;
  if (caseCount > 0) Object.assign(deleted, { reviewCases: caseCount, reviewNotes: cases.notes });
  return {
    owners: found.flatMap((p) => p.owners),
    runs: [...new Set(found.flatMap((p) => p.runs))].sort(),
    deleted,
    sealed: [...found.flatMap((p) => p.sealed), ...cases.sealed],
  };
}

const sealedOf = (row: Record<string, unknown>, columns: string[]) =>
  columns.flatMap((c) =>
    row[c] === null || row[c] === undefined ? [] : [row[c] as string | Buffer],
  );

export class ErasureStore {
  constructor(
    private readonly db: Knex,
    private readonly keys: Keyring,
    private readonly clock: Clock,
  ) {}

  /**
   * Erases `subject` of `community`; undefined when the community holds no such verification or
   * session and never erased one of that id.
   */
  async erase(
    community: { id: string; tenantId: string },
    subject: ErasureSubject,
    erasedBy: string,
  ): Promise<Erased | undefined> {
    // a run finishing at the same moment locks run then session: one of the two may be chosen as
    // the deadlock's victim, and this one tries again (the run's end then finds nothing to end)
    return retryOnDeadlock(() => this.eraseOnce(community, subject, erasedBy));
  }

  private eraseOnce(
    community: { id: string; tenantId: string },
    subject: ErasureSubject,
    erasedBy: string,
  ): Promise<Erased | undefined> {
    return this.db.transaction(async (trx) => {
      const where = { community_id: community.id, subject: subject.kind, subject_id: subject.id };
      // two erasures of one subject at once: the second waits, then answers the first's tombstone
      await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [
        `erasure:${subject.kind}:${subject.id}`,
      ]);
      const before = (await trx(TOMBSTONES).where(where).first('tombstone')) as
        { tombstone: Tombstone } | undefined;
      if (before) return { tombstone: before.tombstone, events: [] };
      const members = await caseMembers(trx, community.id, subject);
      const subjectFound =
        subject.kind === 'session'
          ? await this.session(trx, community.id, subject.id)
          : await this.verification(trx, community.id, subject.id);
      if (!subjectFound) return undefined;
      const erasedAt = this.clock.now();
      const others = [
        ...(await Promise.all(members.sessions.map((id) => this.session(trx, community.id, id)))),
        ...(await Promise.all(members.runs.map((id) => this.verification(trx, community.id, id)))),
      ];
      const cases = await closeErasedCases(trx, members.caseIds, erasedBy, erasedAt);
      const found = merged([subjectFound, ...others], cases, members.caseIds.length);
      const dataKeys = await this.keys.destroyAll(found.owners, trx, 'erasure');
      const tombstone: Tombstone = {
        subject: subject.kind,
        subjectId: subject.id,
        communityId: community.id,
        erasedAt: erasedAt.toISOString(),
        erasedBy,
        dataKeys: dataKeys.sort(),
        runs: found.runs,
        deleted: found.deleted,
        digests: found.sealed.map(digest).sort(),
      };
      await trx(TOMBSTONES).insert({
        ...where,
        tombstone: JSON.stringify(tombstone),
        erased_at: erasedAt,
      });
      // audited in the same transaction: who erased what, never what it held
      await appendAudit(trx, {
        at: erasedAt,
        actor: erasedBy,
        action: 'data.erased',
        communityId: community.id,
        subject,
        details: { dataKeys: dataKeys.length, runs: found.runs, deleted: found.deleted },
      });
      const scope = { tenantId: community.tenantId, communityId: community.id };
      const event = eventEnvelope('E_IDV_DATA_ERASED', scope, {
        subject: subject.kind,
        subjectId: subject.id,
        runs: found.runs,
        dataKeys: dataKeys.length,
        erasedAt: tombstone.erasedAt,
      });
      await addEvents(trx, [event]);
      return { tombstone, events: [event] };
    });
  }

  /** A session, its images and its runs, deleted; what held their keys. */
  private async session(
    trx: Knex.Transaction,
    communityId: string,
    id: string,
  ): Promise<Deleted | undefined> {
    const session = (await trx('docverify.sessions')
      .where({ id, community_id: communityId })
      .forUpdate()
      .first('id', 'request_sealed', 'run_id')) as Record<string, unknown> | undefined;
    if (!session) return undefined;
    const images = (await trx('docverify.session_images')
      .where({ session_id: id })
      .delete()
      .returning('image_sealed')) as Record<string, unknown>[];
    const runs = await this.deleteRuns(trx, (q) =>
      q.where({ session_id: id }).orWhere({ id: session.run_id ?? null }),
    );
    await trx('docverify.sessions').where({ id }).delete();
    return {
      owners: [sessionKeyOwner(id), ...runs.ids.map(runKeyOwner)],
      runs: runs.ids,
      deleted: { sessions: 1, images: images.length, runs: runs.ids.length },
      sealed: [
        ...sealedOf(session, ['request_sealed']),
        ...images.flatMap((r) => sealedOf(r, ['image_sealed'])),
        ...runs.sealed,
      ],
    };
  }

  /** A kept /verify result and an async run of that id (one or both), deleted. */
  private async verification(
    trx: Knex.Transaction,
    communityId: string,
    id: string,
  ): Promise<Deleted | undefined> {
    const kept = (await trx('docverify.verifications')
      .where({ id, community_id: communityId })
      .delete()
      .returning('result_sealed')) as Record<string, unknown>[];
    // a session's run is erased with its session, not alone
    const runs = await this.deleteRuns(trx, (q) =>
      q.where({ id, community_id: communityId }).whereNull('session_id'),
    );
    if (kept.length === 0 && runs.ids.length === 0) return undefined;
    const owners: KeyOwner[] = [verificationKeyOwner(id), runKeyOwner(id)];
    return {
      owners,
      runs: runs.ids,
      deleted: { verifications: kept.length, runs: runs.ids.length },
      sealed: [...kept.flatMap((r) => sealedOf(r, ['result_sealed'])), ...runs.sealed],
    };
  }

  private async deleteRuns(trx: Knex.Transaction, which: (q: Knex.QueryBuilder) => void) {
    const rows = (await trx('docverify.verification_runs')
      .where(which)
      .delete()
      .returning(['id', 'request_sealed', 'result_sealed'])) as Record<string, unknown>[];
    return {
      ids: rows.map((r) => r.id as string).sort(),
      sealed: rows.flatMap((r) => sealedOf(r, ['request_sealed', 'result_sealed'])),
    };
  }
}
