// A transactional outbox for events: a service stores the events it owes before it answers its
// caller, then publishes them and forgets each one the broker confirmed. What a crash or a broker
// outage left behind, a relay publishes later (every replica runs one; SKIP LOCKED shares the rows).
// An event may so be published twice, always under its own eventId, which consumers de-duplicate on.
import type { Knex } from 'knex';
import { Batcher } from './batcher.ts';

export interface OutboxLog {
  warn(details: object, message: string): void;
}

export interface OutboxOptions {
  /** how often the relay looks for events left behind; default 1000 ms */
  relayEveryMs?: number;
  /** rows younger than this are still being published by the request that stored them */
  graceMs?: number;
  /** at most this many events per relay pass; default 200 */
  batch?: number;
  /** published events leave the table in one DELETE at most this often; default 100 ms */
  clearEveryMs?: number;
}

/** An event as its outbox row: what storeEvents writes, and what a batched statement inserts. */
export function outboxRow<E extends { eventId: string }>(
  event: E,
): { event_id: string; envelope: E } {
  return { event_id: event.eventId, envelope: event };
}

/**
 * The one writer of an outbox's rows: stores `events` in `table` through `trx` (the transaction of
 * the change they announce), so they are published once it commits, even if the process dies.
 */
export async function storeEvents<E extends { eventId: string }>(
  trx: Knex,
  table: string,
  events: readonly E[],
): Promise<void> {
  if (events.length === 0) return;
  await trx(table).insert(
    events.map((event) => ({ ...outboxRow(event), envelope: JSON.stringify(event) })),
  );
}

/** The table an outbox needs, for a service's migration. */
export async function createOutboxTable(knex: Knex, schema: string, table: string): Promise<void> {
  await knex.schema.withSchema(schema).createTable(table, (t) => {
    t.uuid('event_id').primary();
    t.jsonb('envelope').notNullable().comment('the event as it will be published; no raw PII');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at']);
  });
}

export class EventOutbox<E extends { eventId: string }> {
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  private relaying: Promise<unknown> = Promise.resolve();
  private readonly relayEveryMs: number;
  private readonly graceMs: number;
  private readonly batch: number;
  /**
   * The published events of the requests of the last clearEveryMs leave the table in one DELETE:
   * one statement per request was a third of /verify's statements, for rows nobody reads but the
   * relay, which leaves them graceMs before it looks (bench/results/history.md).
   */
  private readonly clearing: Batcher<string[]>;

  constructor(
    private readonly db: Knex,
    /** schema-qualified, e.g. docverify.event_outbox */
    private readonly table: string,
    private readonly publish: (event: E) => Promise<void>,
    private readonly log: OutboxLog,
    options: OutboxOptions = {},
  ) {
    this.relayEveryMs = options.relayEveryMs ?? 1000;
    this.graceMs = options.graceMs ?? 5000;
    this.batch = options.batch ?? 200;
    this.clearing = new Batcher(
      async (confirmed) => {
        await this.db(this.table).whereIn('event_id', confirmed.flat()).delete();
      },
      { intervalMs: options.clearEveryMs ?? 100 },
    );
  }

  /** Stores the events; once this resolves they will be published even if this process dies. */
  add(events: E[], trx: Knex = this.db): Promise<void> {
    return storeEvents(trx, this.table, events);
  }

  /** Publishes now; each confirmed event leaves the outbox, the others wait for the relay. */
  async flush(events: E[]): Promise<void> {
    const confirmed = await this.publishAll(events);
    if (confirmed.length === 0) return;
    const cleared = this.clearing.submit(confirmed);
    // stopping: nothing waits for the interval any more
    if (this.stopping) void this.clearing.drain();
    await cleared.catch((err: Error) => {
      // they stay and go out again later under the same eventId
      this.log.warn({ reason: err.message }, 'published events not cleared from the outbox');
    });
  }

  /** One pass over what was left behind; returns how many events it published. */
  relayOnce(): Promise<number> {
    const pass = this.relaying.then(() =>
      this.db.transaction(async (trx) => {
        const rows = (await trx(this.table)
          .select('event_id', 'envelope')
          .where(
            'created_at',
            '<',
            trx.raw(`now() - (? * interval '1 millisecond')`, [this.graceMs]),
          )
          .orderBy('created_at')
          .limit(this.batch)
          .forUpdate()
          .skipLocked()) as { event_id: string; envelope: E | string }[];
        const events = rows.map((row) =>
          typeof row.envelope === 'string' ? (JSON.parse(row.envelope) as E) : row.envelope,
        );
        const confirmed = await this.publishAll(events);
        if (confirmed.length > 0) await trx(this.table).whereIn('event_id', confirmed).delete();
        return confirmed.length;
      }),
    );
    this.relaying = pass.catch(() => undefined);
    return pass;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.relayOnce().catch((err: Error) => {
        this.log.warn({ reason: err.message }, 'outbox relay pass failed; retrying');
      });
    }, this.relayEveryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.relaying;
    // published events still waiting for their DELETE would go out again from the next relay
    await this.clearing.drain();
  }

  private async publishAll(events: E[]): Promise<string[]> {
    const outcomes = await Promise.allSettled(events.map((event) => this.publish(event)));
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed)
      this.log.warn(
        { reason: (failed.reason as Error).message },
        'events kept in the outbox until the broker takes them',
      );
    return events.filter((_, i) => outcomes[i]!.status === 'fulfilled').map((e) => e.eventId);
  }
}
