// A short-lived cache for the reads every POST /verify makes (its config, its verifiers): a write
// through this process clears it at once; a write made by another replica shows within ttlMs.

interface Entry<V> {
  value: Promise<V>;
  until: number;
}

export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly capacity = 10_000,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * The cached value of `key`, else `load()`; callers asking at once share one load. A value
   * `keep` refuses (e.g. a miss, so a row made on another replica is found at once) is not kept.
   */
  get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const now = this.clock();
    this.dropExpired(now);
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    // deleted first, so that the map's order stays the order of expiry
    this.entries.delete(key);
    const value = load();
    if (this.entries.size >= this.capacity) this.entries.clear();
    const entry = { value, until: now + this.ttlMs };
    this.entries.set(key, entry);
    const forget = () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    // a failed read is not kept either: the next request tries again
    value.then((loaded) => (keep(loaded) ? undefined : forget()), forget);
    return value;
  }

  /**
   * Entries sit in insertion order, which is expiry order: expired ones (verifier secrets among
   * them) leave memory at the next read instead of lingering until their key is asked again.
   */
  private dropExpired(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.until > now) return;
      this.entries.delete(key);
    }
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Drops everything, reads still running included (their callers asked before the write, later
   * ones read again): called by every write of the store that owns the cache.
   */
  clear(): void {
    this.entries.clear();
  }
}

/** Cached values are shared by concurrent requests: frozen, so none can change another's. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
