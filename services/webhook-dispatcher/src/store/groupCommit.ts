// Group commit: items submitted while a write is running go together in the next write, so a
// burst of deliveries costs a few multi-row statements instead of one round trip (or four) each.
// Every submitter's promise settles only after the write holding its item committed.

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * A write that failed because of one row (bad data, integrity violation, deadlock) is tried again
 * item by item, so one bad row cannot fail the rest; an outage (no SQLSTATE, or connection
 * classes) is not: it fails every item at once.
 */
function rowSpecific(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^(22|23|40)[0-9A-Z]{3}$/.test(code);
}

export class GroupCommit<T> {
  private waiting: Waiting<T>[] = [];
  /** one write at a time: what arrives meanwhile gathers for the next (two gained nothing) */
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    /** most items in one write (keeps statements under the bind-parameter limit) */
    private readonly maxItems: number,
  ) {}

  submit(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.writing) return;
      this.writing = true;
      // one macrotask of gathering: submitters of the same I/O turn share the write
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxItems);
      try {
        await this.write(batch.map((w) => w.item));
        for (const w of batch) w.resolve();
      } catch (err) {
        if (batch.length === 1 || !rowSpecific(err)) for (const w of batch) w.reject(err);
        else
          for (const w of batch)
            await this.write([w.item]).then(
              () => w.resolve(),
              (single: unknown) => w.reject(single),
            );
      }
    }
    this.writing = false;
  }
}
