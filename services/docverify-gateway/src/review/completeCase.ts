// A case's final decision completes every run it held (the verification under review and the
// resubmissions' that came back) exactly as a normal completion does (recordRun.ts completeRun:
// the result kept for its caller, the session completed, the completion events), each result with
// one more certification: the review's, signed with the service key by the same proofSigner as the
// connectors' answers, its status the decision's (which decides the result's status).
import type { EventEnvelope, ReviewResult, VerifyResult } from '@idv/contracts';
import type { Knex } from '@idv/db';
import type { ServiceKey } from '@idv/platform';
import type { ReviewCaseRecord } from './reviewCaseStore.ts';
import { completeRun, type RunConfig } from '../runs/recordRun.ts';
import { overallStatus, proofSigner } from '../verify/runVerification.ts';
import type { ReviewDeps } from './deps.ts';

export interface FinalDecision {
  decision: 'approve' | 'decline';
  reasonCode: string;
  caseId: string;
  decidedAt: string;
}

/** The review's certification of `result`, without the operator's name. */
export function reviewCertification(
  key: ServiceKey,
  result: VerifyResult,
  d: FinalDecision,
): VerifyResult['certifications'][number] {
  const verified = d.decision === 'approve';
  const status = verified ? ('verified' as const) : ('not_verified' as const);
  const review: ReviewResult = { verified, status, reasons: verified ? [] : [d.reasonCode], ...d };
  const base = {
    kind: 'human_review' as const,
    verified,
    status,
    authority: 'docverify',
    verifier: 'human_review',
    result: review,
  };
  return { ...base, proof: proofSigner(key, result.verificationId, result.dvcID)(base) };
}

/** In the decision's transaction: every held run completed; the events owed once committed. */
export async function completeCase(
  deps: ReviewDeps,
  trx: Knex.Transaction,
  kase: ReviewCaseRecord,
  config: RunConfig,
  decision: FinalDecision,
): Promise<EventEnvelope[]> {
  const key = await deps.serviceKey();
  const events: EventEnvelope[] = [];
  for (const id of await deps.reviews.heldRuns(trx, kase)) {
    const run = await deps.runs.get(id);
    const held = await deps.runs.heldResult(id, trx);
    if (!run || !held) continue;
    const certifications = [...held.certifications, reviewCertification(key, held, decision)];
    const result = { ...held, certifications, status: overallStatus(certifications) };
    events.push(...((await completeRun(deps, run, config, result, ['review'], { trx })) ?? []));
  }
  return events;
}
