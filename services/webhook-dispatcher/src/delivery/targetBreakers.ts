// Per webhook: an opossum breaker that stops calling its receiver while it keeps failing, and the
// slots of callbackSlots.ts (the webhook's own, its community's share of the origin, the origin's).
// Per webhook, not per origin: tenants' receivers often share a host (one SaaS), and a breaker or
// cap per origin let one tenant's failing endpoint hold back every other tenant's callbacks there.
// The caps are ours, not opossum's `capacity`: opossum counts its semaphore rejections as failures
// and would open the breaker of a webhook that is merely busy.
import { EventEmitter } from 'node:events';
import CircuitBreaker from 'opossum';
import { CallbackSlots, type CallbackTarget, type SlotLimits } from './callbackSlots.ts';
import { TargetBusy } from './targetBusy.ts';
import { MAX_BUSY_PAUSE_MS } from './targetSlots.ts';

export { TargetBusy, type CallbackTarget };

export interface TargetResponse {
  status: number;
  headers: Record<string, string | undefined>;
}

/** A 5xx answer counts against the webhook's health but is still an answer. */
export class ServerErrorAnswer extends Error {
  constructor(readonly response: TargetResponse) {
    super(`status ${response.status}`);
  }
}

export type BreakerState = 'closed' | 'half_open' | 'open';

export interface TargetBreakerOptions {
  slots: SlotLimits;
  callTimeoutMs: number;
  resetTimeoutMs: number;
}

type Send = () => Promise<TargetResponse>;

interface Entry {
  breaker: CircuitBreaker<[Send], TargetResponse>;
  /** the URL the breaker judges: a webhook given another URL starts with a fresh breaker */
  url: string;
  inFlight: number;
  usedAt: number;
}

/** one bucket of opossum's rolling window, turned by one timer for every breaker */
const BUCKET_MS = 1000;
/** the calls a breaker judges before it may open, when its webhook's slots allow that many */
const VOLUME_THRESHOLD = 10;

/**
 * The rolling window and the volume a webhook's breaker judges. A receiver that accepts the
 * connection and never answers ends each call only at the call timeout, and holds every slot of
 * its webhook meanwhile: with a 10 s window, a 10 s timeout and 8 slots, at most 8 calls (all
 * failed) ended in any window, below the 10 opossum waited for, so the breaker of a hanging
 * receiver never opened. The window spans two timeouts and the longest busy pause (its jitter too), so each slot ends at least
 * one call in it, and the volume is at most the slots.
 */
export function breakerWindow(
  webhookSlots: number,
  callTimeoutMs: number,
): { buckets: number; volumeThreshold: number } {
  const windowMs = Math.max(10 * BUCKET_MS, 2 * callTimeoutMs + 1.2 * MAX_BUSY_PAUSE_MS);
  return {
    buckets: Math.ceil(windowMs / BUCKET_MS),
    volumeThreshold: Math.max(1, Math.min(VOLUME_THRESHOLD, webhookSlots)),
  };
}
/** A breaker and slots unused this long are dropped (deleted webhooks, origins no longer called). */
const IDLE_MS = 10 * 60_000;

export class TargetBreakers {
  /** by webhook id */
  private readonly breakers = new Map<string, Entry>();
  private readonly slots: CallbackSlots;
  /** one timer turns every breaker's window (opossum's default is two timers per breaker) */
  private readonly rotation = new EventEmitter();
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly options: TargetBreakerOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.slots = new CallbackSlots(options.slots, now);
    this.rotation.setMaxListeners(0);
    let ticks = 0;
    this.ticker = setInterval(() => {
      this.rotation.emit('rotate');
      if (++ticks % 60 === 0) this.forgetIdle();
    }, BUCKET_MS).unref();
  }

  private entryFor(target: CallbackTarget): Entry {
    const known = this.breakers.get(target.webhookId);
    if (known?.url === target.url) return known;
    known?.breaker.shutdown();
    const { buckets, volumeThreshold } = breakerWindow(
      this.options.slots.webhook,
      this.options.callTimeoutMs,
    );
    const breaker = new CircuitBreaker(
      async (send: Send) => {
        const response = await send();
        if (response.status >= 500) throw new ServerErrorAnswer(response);
        return response;
      },
      {
        timeout: this.options.callTimeoutMs,
        resetTimeout: this.options.resetTimeoutMs,
        errorThresholdPercentage: 50,
        volumeThreshold,
        rollingCountTimeout: buckets * BUCKET_MS,
        rollingCountBuckets: buckets,
        rotateBucketController: this.rotation,
        enableSnapshots: false,
      },
    );
    const entry: Entry = { breaker, url: target.url, inFlight: 0, usedAt: this.now() };
    this.breakers.set(target.webhookId, entry);
    return entry;
  }

  private refused(): TargetBusy {
    const pauseMs = Math.min(this.options.resetTimeoutMs, 5000);
    return new TargetBusy('breaker open', pauseMs, 'breaker_open');
  }

  /**
   * Sends through the webhook's breaker; TargetBusy when it is open, or when a slot it needs is
   * taken for longer than a short wait.
   */
  async call(target: CallbackTarget, send: Send): Promise<TargetResponse> {
    const entry = this.entryFor(target);
    entry.usedAt = this.now();
    // an open breaker refuses before any slot is taken: it costs the others nothing
    if (entry.breaker.opened) throw this.refused();
    await this.slots.acquire(target);
    entry.inFlight += 1;
    const started = performance.now();
    let took: number | undefined;
    try {
      const response = await entry.breaker.fire(send);
      took = performance.now() - started;
      return response;
    } catch (err) {
      if ((err as { code?: string }).code === 'EOPENBREAKER') throw this.refused();
      took = performance.now() - started;
      if (err instanceof ServerErrorAnswer) return err.response;
      throw err;
    } finally {
      entry.inFlight -= 1;
      entry.usedAt = this.now();
      // a call the open breaker refused took no time at the target: it says nothing of its speed
      this.slots.release(target, took);
    }
  }

  /** How many breakers are in each state: the only breaker figures /metrics shows. */
  counts(): Record<BreakerState, number> {
    const counts: Record<BreakerState, number> = { closed: 0, half_open: 0, open: 0 };
    for (const { breaker } of this.breakers.values())
      counts[breaker.opened ? 'open' : breaker.halfOpen ? 'half_open' : 'closed'] += 1;
    return counts;
  }

  private forgetIdle(): void {
    const before = this.now() - IDLE_MS;
    for (const [webhookId, entry] of this.breakers)
      if (entry.inFlight === 0 && entry.usedAt < before) {
        entry.breaker.shutdown();
        this.breakers.delete(webhookId);
      }
    this.slots.forgetIdle(IDLE_MS);
  }

  shutdown(): void {
    clearInterval(this.ticker);
    for (const { breaker } of this.breakers.values()) breaker.shutdown();
    this.breakers.clear();
  }
}
