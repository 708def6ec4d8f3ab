// What a worker keeps per account (SDK clients, access tokens, mTLS dispatchers; keyed as
// provider/accounts.ts says): a map bounded by recency. Reading an entry makes it the newest; past
// `capacity` entries the least recently used goes, handed to `onEvict` when it holds something to
// release.

export class RecentlyUsed<V> {
  /** Map order is insertion order: an entry read is deleted and set again, so it moves last */
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly capacity: number,
    private readonly onEvict: (value: V) => void = () => undefined,
  ) {
    if (capacity < 1) throw new RangeError('capacity must be at least 1');
  }

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size <= this.capacity) return;
    const oldest = this.entries.entries().next();
    if (oldest.done) return;
    this.entries.delete(oldest.value[0]);
    this.onEvict(oldest.value[1]);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Empties the map; what it held, for the caller to release. */
  clear(): V[] {
    const held = [...this.entries.values()];
    this.entries.clear();
    return held;
  }
}
