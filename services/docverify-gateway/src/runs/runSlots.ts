// This gateway's slots for verification runs (RUNS_PREFETCH) and what a run message from the runs
// queue gets: a retry still backing off is parked again; a run whose tenant (all its communities
// together) or community is already at its share on this gateway is deferred (parked for the
// shortest wait, no retry counted), so one tenant's backlog waits behind its own work and never
// holds the slots others need; any other run gets a slot for one try (waiting its turn when every
// slot is taken), and a try no verifier could serve parks the run until its retry, its slot free.
import { RequeueMessageError } from '@idv/broker';
import { RUN_WAIT_TIERS_MS, type VerificationRunMessage } from '@idv/contracts';
import { waitTier } from './runRetries.ts';
import type { CommunityTenants } from './communityTenants.ts';
import { processRun, type ProcessDeps } from './processRun.ts';
import type { RunQueue } from './runQueue.ts';
import type { TenantShares } from '@idv/platform/fairShare';
import type { SlotPool } from './slotPool.ts';

export interface RunSlotsDeps extends ProcessDeps {
  runQueue: RunQueue;
  shares: TenantShares;
  slotPool: SlotPool;
  communityTenants: CommunityTenants;
  onRunParked: (reason: 'fair_share' | 'retry') => void;
}

const SHORTEST_WAIT_MS = Math.min(...RUN_WAIT_TIERS_MS);

/** The handler of run messages; `signal` aborts when the gateway stops. */
export function runSlots(deps: RunSlotsDeps, signal: AbortSignal) {
  /** Parked, or back to the runs queue (nack) when the broker took no message: never lost. */
  const park = async (message: VerificationRunMessage, tierMs: number) => {
    await deps.runQueue.park(message, tierMs).catch((err: unknown) => {
      throw new RequeueMessageError(`run not parked: ${(err as Error).message}`);
    });
  };

  return async (message: VerificationRunMessage): Promise<void> => {
    const { runId } = message;
    const backingOff =
      message.notBefore === undefined
        ? undefined
        : waitTier(RUN_WAIT_TIERS_MS, message.notBefore - Date.now());
    if (backingOff !== undefined) return park(message, backingOff);
    const communityId = message.communityId ?? (await deps.runs.get(runId))?.communityId;
    if (!communityId) return; // no such run
    const owner = { tenantId: await deps.communityTenants.tenantOf(communityId), communityId };
    if (!deps.shares.take(owner)) {
      deps.onRunParked('fair_share');
      return park({ ...message, communityId }, SHORTEST_WAIT_MS);
    }
    try {
      // within its shares: a slot is its turn, however many others wait (see runPrefetch)
      await deps.slotPool.acquire();
      try {
        const tried = await processRun(deps, runId, signal);
        if ('over' in tried) return;
        deps.onRunParked('retry');
        const tier = waitTier(RUN_WAIT_TIERS_MS, tried.retryAt - Date.now()) ?? SHORTEST_WAIT_MS;
        await park({ runId, communityId, notBefore: tried.retryAt }, tier);
      } finally {
        deps.slotPool.release();
      }
    } finally {
      deps.shares.release(owner);
    }
  };
}
