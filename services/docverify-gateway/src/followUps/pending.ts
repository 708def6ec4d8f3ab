// Pending outcomes followed to the end: a run whose connector answered "not final yet" for a kind
// stays 'pending' with its other certifications held (sealed); the follow-up's final answer for
// that kind comes through settlePendingKind, which re-signs the certification, recomputes the
// status and, when nothing is pending any more, completes the run, its session and their events.
//
// SEAM for the follow-up transport (docverify.followups, POST /connector-callback/{verifierId}):
// call settlePendingKind(deps, runId, kind, reply) with the connector's final answer of that kind.
import type { ConnectorReply, VerificationKind, VerifyResult } from '@idv/contracts';
import type { ServiceKey } from '@idv/platform';
import type { VerificationConfigStore } from '../verificationConfigs/verificationConfigStore.ts';
import type { RunStore } from '../runs/runStore.ts';
import { recordRunResult, type RecordDeps } from '../runs/recordRun.ts';
import {
  certify,
  compareWithDocument,
  overallStatus,
  proofSigner,
} from '../verify/runVerification.ts';
import type { VerifyRequest } from '@idv/contracts';

export interface SettleDeps extends RecordDeps {
  runs: RunStore;
  configs: VerificationConfigStore;
  serviceKey: () => Promise<ServiceKey>;
}

/** The final answer of one pending kind, as a connector reply carries it. */
export type FinalReply = Pick<ConnectorReply, 'outcome' | 'authority' | 'result'>;

/**
 * 'review': the final answer left the run waiting for a human review; 'failed': a resubmission's
 * run its case no longer awaits (recordRun.ts).
 */
export type Settled = 'completed' | 'pending' | 'review' | 'failed' | 'not_pending';

/** Concurrent follow-ups of one run (two kinds at once) retry on the changed pending set. */
const MAX_TRIES = 5;

export async function settlePendingKind(
  deps: SettleDeps,
  runId: string,
  kind: VerificationKind,
  reply: FinalReply,
): Promise<Settled> {
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const run = await deps.runs.get(runId);
    const pending = run?.status === 'pending' ? run.pending : null;
    const waiting = pending?.[kind];
    const held = waiting ? await deps.runs.heldResult(runId) : undefined;
    if (!run || !pending || !waiting || !held) return 'not_pending';
    const [config] = await deps.configs.find([run.communityId], run.configId);
    const key = await deps.serviceKey();
    const proof = proofSigner(key, runId, held.dvcID);
    const settled = certify(kind, { reply, verifier: { tag: waiting.verifier } }, proof);
    let certifications = held.certifications
      .filter((c) => c.kind !== 'data_comparison')
      .map((c) => (c.kind === kind ? settled : c));
    // the document data a follow-up brings is compared like a direct answer's (async runs only:
    // their request, with the names the caller sent, is held until the run ends)
    const request = run.kind === 'async_verify' ? await deps.runs.request(runId) : undefined;
    const comparison =
      config && request
        ? compareWithDocument(config, request as VerifyRequest, certifications, proof)
        : held.certifications.find((c) => c.kind === 'data_comparison');
    if (comparison) certifications = [...certifications, comparison];
    const result: VerifyResult = { ...held, status: overallStatus(certifications), certifications };
    const runConfig = config ?? {
      tenantId: run.tenantId,
      communityId: run.communityId,
      settings: {},
    };
    const outcome = await recordRunResult(deps, run, runConfig, result, ['pending'], pending);
    if (outcome) return outcome;
  }
  throw new Error(`run ${runId}: its pending kinds kept changing; retry the follow-up`);
}
