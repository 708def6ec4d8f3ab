// The slots one callback takes before it is sent: one of its webhook's, one of its tenant's share
// of the dispatcher (all its communities' webhooks, whatever their origins), one of its community's
// share of the receiver's origin, and one of the origin's (the bound that keeps the platform from
// hammering one host). Taken in that order within one wait and all given back when a level is full,
// so a webhook that hangs holds only its own slots, a community's webhooks together hold at most its
// share of a host that other tenants' receivers live on too, and a tenant whose receivers hang on
// many origins (a.evil.example, b.evil.example, ...) holds at most its share of the callbacks in
// flight, never all of them.
import { TargetBusy, type BusyReason } from './targetBusy.ts';
import { MAX_WAIT_MS, TargetSlots } from './targetSlots.ts';

/** Who a callback goes to, as far as slots and breakers care. */
export interface CallbackTarget {
  webhookId: string;
  /** the tenant the webhook's community belongs to */
  tenant: string;
  /** `${tenantId}/${communityId}` of the webhook */
  community: string;
  url: string;
  /** origin of `url` */
  origin: string;
}

export interface SlotLimits {
  /** in flight to one webhook */
  webhook: number;
  /** in flight from one tenant's webhooks, every community and origin together */
  tenant: number;
  /** in flight from one community's webhooks to one origin */
  communityPerOrigin: number;
  /** in flight to one origin, all communities together */
  origin: number;
}

interface Level {
  slots: TargetSlots;
  key: (target: CallbackTarget) => string;
  busy: BusyReason;
  name: string;
}

export class CallbackSlots {
  private readonly levels: Level[];

  constructor(
    limits: SlotLimits,
    private readonly now: () => number = () => performance.now(),
  ) {
    const level = (limit: number, key: Level['key'], busy: BusyReason, name: string): Level => ({
      slots: new TargetSlots(limit, now),
      key,
      busy,
      name,
    });
    this.levels = [
      level(limits.webhook, (t) => t.webhookId, 'webhook_busy', 'webhook'),
      level(limits.tenant, (t) => t.tenant, 'tenant_busy', "tenant's share"),
      level(
        limits.communityPerOrigin,
        (t) => `${t.community} ${t.origin}`,
        'community_busy',
        "community's share of the origin",
      ),
      level(limits.origin, (t) => t.origin, 'origin_busy', 'origin'),
    ];
  }

  /** Takes a slot at every level, or none and TargetBusy naming the level that is full. */
  async acquire(target: CallbackTarget): Promise<void> {
    const started = this.now();
    const taken: Level[] = [];
    for (const level of this.levels) {
      try {
        await level.slots.acquire(level.key(target), MAX_WAIT_MS - (this.now() - started));
      } catch (err) {
        for (const held of taken) held.slots.release(held.key(target), undefined);
        if (!(err instanceof TargetBusy)) throw err;
        throw new TargetBusy(`${level.name} at capacity`, err.pauseMs, level.busy);
      }
      taken.push(level);
    }
  }

  /** Gives every level's slot back, noting how long the call took (undefined: none was made). */
  release(target: CallbackTarget, tookMs: number | undefined): void {
    for (const level of this.levels) level.slots.release(level.key(target), tookMs);
  }

  forgetIdle(idleMs: number): void {
    for (const level of this.levels) level.slots.forgetIdle(idleMs);
  }
}
