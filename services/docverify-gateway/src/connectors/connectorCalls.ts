// Connector calls counted in memory per (community, verifier, kind, connector type) and minute, and
// added to PostgreSQL every `everyMs` and at shutdown: a call costs a Map update, never a query.
// A flush that fails gives its counts back for the next one, up to MAX_ROWS rows kept.
import type { Logger } from '@idv/observability';
import {
  addCall,
  addCounts,
  emptyCounts,
  minuteKeyOf,
  type ConnectorCall,
} from './connectorCallStats.ts';
import type { ConnectorMinuteStore, MinuteRow } from './connectorMinuteStore.ts';

/** Rows kept while PostgreSQL cannot take them (a long outage drops the calls beyond, logged). */
const MAX_ROWS = 10_000;

const idOf = (row: MinuteRow['key']) =>
  [row.communityId, row.minute.getTime(), row.verifierTag, row.kind, row.connectorType].join('\n');

export class ConnectorCalls {
  private pending = new Map<string, MinuteRow>();
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  /** calls not counted since the last flush: MAX_ROWS rows were waiting */
  private dropped = 0;

  constructor(
    private readonly store: ConnectorMinuteStore,
    private readonly logger: Logger,
  ) {}

  record(call: ConnectorCall): void {
    const key = minuteKeyOf(call);
    const id = idOf(key);
    let row = this.pending.get(id);
    if (!row) {
      if (this.pending.size >= MAX_ROWS) {
        this.dropped += 1;
        return;
      }
      row = { key, counts: emptyCounts() };
      this.pending.set(id, row);
    }
    addCall(row.counts, call);
  }

  /** Adds what was counted since the last flush; flushes run one after the other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushNow());
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    if (this.dropped > 0) {
      this.logger.warn(
        { dropped: this.dropped },
        'connector calls not counted: too many minutes waiting for PostgreSQL',
      );
      this.dropped = 0;
    }
    const taken = this.pending;
    if (taken.size === 0) return;
    this.pending = new Map();
    try {
      await this.store.add([...taken.values()]);
    } catch (err) {
      for (const [id, row] of taken) {
        const kept = this.pending.get(id);
        if (kept) addCounts(kept.counts, row.counts);
        else if (this.pending.size < MAX_ROWS) this.pending.set(id, row);
      }
      this.logger.warn(
        { rows: taken.size, reason: (err as Error).message },
        'connector minutes not flushed; kept for the next flush',
      );
    }
  }

  start(everyMs: number): void {
    this.timer = setInterval(() => void this.flush(), everyMs);
    this.timer.unref();
  }

  /** Stops the timer and adds what is left (the lifecycle's stop, before the pool closes). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
