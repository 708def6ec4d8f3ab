// Verification runs: async /verify and session processing. Each ends by one conditional UPDATE
// (from processing, or pending for a follow-up) in a transaction with its events, so a run re-run
// by another replica after a crash is stored once. The request is sealed and dropped at the end;
// the result stays sealed until retrieved (runResultPlan). Both are sealed under the run's own data
// key (keyring.ts): erasing the run destroys it.
import {
  withoutDocumentImages,
  type EventEnvelope,
  type RunStatus,
  type VerifyResult,
} from '@idv/contracts';
import type { Knex } from '@idv/db';
import { UUID, type Keyring, type KeyOwner, type SealedColumn } from '@idv/platform';
import type { Clock } from '../shared/clock.ts';
import { toRun, type PendingKinds, type RunRecord, type RunRow } from './runRecord.ts';
import { addEvents } from '../sessions/sessionStore.ts';

export type { PendingKind, PendingKinds, RunRecord } from './runRecord.ts';

const TABLE = 'docverify.verification_runs';

export type NewRun = Omit<
  RunRecord,
  'status' | 'pending' | 'failure' | 'starts' | 'createdAt' | 'endedAt'
>;

/** The run of an asynchronous /verify (and of a sync /verify parked on a pending answer). */
export function asyncVerifyRun(
  id: string,
  config: { id: string; communityId: string; tenantId: string },
  dvcID: string,
  deadline: Date,
  ownerLicenceId: string,
): NewRun {
  return {
    id,
    communityId: config.communityId,
    tenantId: config.tenantId,
    configId: config.id,
    dvcID,
    kind: 'async_verify',
    sessionId: null,
    ownerLicenceId,
    deadline,
  };
}

export interface RunOutcome {
  status: Exclude<RunStatus, 'processing'>;
  result?: VerifyResult;
  pending?: PendingKinds;
  failure?: string;
  /** how long the result is kept (final results) */
  plan?: { mode: 'until_retrieved' | 'ttl'; expiresAt: Date };
}

const resultContext = (id: string) => `run-result:${id}`;
/** whose data key seals a run's request and result */
export const runKeyOwner = (id: string): KeyOwner => ({ kind: 'run', id });

export class RunStore {
  constructor(
    private readonly db: Knex,
    private readonly keys: Keyring,
    private readonly clock: Clock,
  ) {}

  async create(run: NewRun, request: unknown, trx: Knex = this.db): Promise<void> {
    const key = await this.keys.newDataKey(runKeyOwner(run.id), trx);
    await trx(TABLE).insert({
      id: run.id,
      community_id: run.communityId,
      tenant_id: run.tenantId,
      config_id: run.configId,
      dvc_id: run.dvcID,
      kind: run.kind,
      session_id: run.sessionId,
      owner_licence_id: run.ownerLicenceId,
      status: 'processing',
      request_sealed: request === undefined ? null : key.seal(JSON.stringify(request), run.id),
      deadline: run.deadline,
      created_at: this.clock.now(),
    });
  }

  async markDispatched(id: string): Promise<void> {
    await this.db(TABLE).where({ id }).update({ dispatched_at: this.clock.now() });
  }

  /** Runs whose work message the broker never confirmed (it was away): to be sent again. */
  async undispatched(createdBefore: Date, limit: number): Promise<string[]> {
    const rows = (await this.db(TABLE)
      .select('id')
      .where({ status: 'processing' })
      .whereNull('dispatched_at')
      .where('created_at', '<=', createdBefore)
      .limit(limit)) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** A gateway starts the run: counted, and only while it is still processing. */
  async start(id: string): Promise<RunRecord | undefined> {
    const [row] = (await this.db(TABLE)
      .where({ id, status: 'processing' })
      .update({ starts: this.db.raw('starts + 1') })
      .returning('*')) as RunRow[];
    return row && toRun(row);
  }

  async get(id: string, communityIds: string[] | 'all' = 'all'): Promise<RunRecord | undefined> {
    if (!UUID.test(id)) return undefined;
    const query = this.db(TABLE).where({ id });
    if (communityIds !== 'all') query.whereIn('community_id', communityIds);
    const row = (await query.first()) as RunRow | undefined;
    return row && toRun(row);
  }

  /** The async run's sealed request, opened; undefined once the run ended. */
  async request(id: string, trx: Knex = this.db): Promise<unknown> {
    const row = (await trx(TABLE).select('request_sealed').where({ id }).first()) as
      { request_sealed: string | null } | undefined;
    return row?.request_sealed
      ? (JSON.parse(await this.keys.open(row.request_sealed, id, trx)) as unknown)
      : undefined;
  }

  /**
   * Drops the images (and their links) from a run's held request once its connectors answered
   * and only follow-ups are awaited: they need no more than the data the run compares.
   */
  async dropImages(id: string, trx: Knex = this.db): Promise<void> {
    const row = (await trx(TABLE).select('request_sealed').where({ id }).first()) as
      { request_sealed: string | null } | undefined;
    if (!row?.request_sealed) return;
    const request = JSON.parse(await this.keys.open(row.request_sealed, id, trx)) as unknown;
    const kept = withoutDocumentImages(request);
    if (kept === request) return; // no image to drop (a parked sync /verify stored none)
    const key = await this.keys.keyFor(runKeyOwner(id), trx);
    await trx(TABLE)
      .where({ id })
      .update({ request_sealed: key.seal(JSON.stringify(kept), id) });
  }

  /** The result held by a pending run (what its follow-up completes) or one in review. */
  async heldResult(id: string, trx: Knex = this.db): Promise<VerifyResult | undefined> {
    const row = (await trx(TABLE).select('result_sealed').where({ id }).first()) as
      { result_sealed: string | null } | undefined;
    return row?.result_sealed
      ? (JSON.parse(
          await this.keys.open(row.result_sealed, resultContext(id), trx),
        ) as VerifyResult)
      : undefined;
  }

  /**
   * Ends (or parks as pending, or holds for review with its request) a run that is in one of
   * `from`; undefined when it is not (another replica stored it first). Events and `also` share
   * the transaction (`outer`'s when given).
   */
  async finish(
    id: string,
    from: RunStatus[],
    outcome: RunOutcome,
    events: (run: RunRecord) => EventEnvelope[],
    also?: (trx: Knex.Transaction, run: RunRecord) => Promise<void>,
    /** only while its pending kinds are still these (a concurrent follow-up changes them) */
    pendingWas?: PendingKinds,
    outer?: Knex.Transaction,
  ): Promise<{ run: RunRecord; events: EventEnvelope[] } | undefined> {
    const ended = outcome.status === 'completed' || outcome.status === 'failed';
    const key = outcome.result ? await this.keys.keyFor(runKeyOwner(id), outer) : undefined;
    const work = async (trx: Knex.Transaction) => {
      const update = trx(TABLE).where({ id }).whereIn('status', from);
      if (pendingWas) update.whereRaw('pending = ?::jsonb', [JSON.stringify(pendingWas)]);
      const [row] = (await update
        .update({
          status: outcome.status,
          result_sealed:
            outcome.result && key
              ? key.seal(JSON.stringify(outcome.result), resultContext(id))
              : null,
          result_mode: outcome.plan?.mode ?? null,
          result_expires_at: outcome.plan?.expiresAt ?? null,
          pending: outcome.pending ? JSON.stringify(outcome.pending) : null,
          failure: outcome.failure ?? null,
          ...(ended ? { request_sealed: null, ended_at: this.clock.now() } : {}),
        })
        .returning('*')) as RunRow[];
      if (!row) return undefined;
      const run = toRun(row);
      // ended with nothing kept (failed, or no result): the request went, its key goes too
      if (ended && !outcome.result) await this.keys.destroy(runKeyOwner(id), trx);
      await also?.(trx, run);
      const owed = events(run);
      await addEvents(trx, owed);
      return { run, events: owed };
    };
    return outer ? work(outer) : this.db.transaction(work);
  }

  /**
   * The final result of a completed run, if still kept; a result kept until retrieved goes with
   * this read, and `also` (its session's images) in the same transaction.
   */
  async retrieve(
    id: string,
    also?: (trx: Knex.Transaction) => Promise<void>,
  ): Promise<VerifyResult | undefined> {
    return this.db.transaction(async (trx) => {
      const row = (await trx(TABLE)
        .select('result_sealed', 'result_mode')
        .where({ id, status: 'completed' })
        .where('result_expires_at', '>', this.clock.now())
        .whereNotNull('result_sealed')
        .forUpdate()
        .first()) as { result_sealed: string; result_mode: string } | undefined;
      await also?.(trx);
      if (!row) return undefined;
      const result = JSON.parse(
        await this.keys.open(row.result_sealed, resultContext(id), trx),
      ) as VerifyResult;
      if (row.result_mode === 'until_retrieved') {
        await trx(TABLE).where({ id }).update({ result_sealed: null });
        await this.keys.destroy(runKeyOwner(id), trx);
      }
      return result;
    });
  }

  /** Runs still processing past their deadline by `graceMs`, or pending past `pendingBefore`. */
  async overdue(
    now: Date,
    graceMs: number,
    pendingBefore: Date,
    limit: number,
  ): Promise<RunRecord[]> {
    const rows = (await this.db(TABLE)
      .where((q) =>
        q
          .where({ status: 'processing' })
          .where('deadline', '<=', new Date(now.getTime() - graceMs))
          .orWhere((p) => p.where({ status: 'pending' }).where('created_at', '<=', pendingBefore)),
      )
      .limit(limit)) as RunRow[];
    return rows.map(toRun);
  }

  /** Drops every result past its retention, the run's data key destroyed; returns how many. */
  async sweepResults(now = this.clock.now()): Promise<number> {
    return this.db.transaction(async (trx) => {
      const gone = (await trx(TABLE)
        .where('result_expires_at', '<=', now)
        .whereNotNull('result_sealed')
        .update({ result_sealed: null })
        .returning('id')) as { id: string }[];
      await this.keys.destroyAll(
        gone.map((row) => runKeyOwner(row.id)),
        trx,
      );
      return gone.length;
    });
  }
}

/** The sealed columns of runs (legacySealed.ts). */
export const RUN_SEALED: SealedColumn[] = [
  {
    table: TABLE,
    column: 'request_sealed',
    key: ['id'],
    owner: (row) => runKeyOwner(String(row.id)),
    context: (row) => String(row.id),
  },
  {
    table: TABLE,
    column: 'result_sealed',
    key: ['id'],
    owner: (row) => runKeyOwner(String(row.id)),
    context: (row) => resultContext(String(row.id)),
  },
];
