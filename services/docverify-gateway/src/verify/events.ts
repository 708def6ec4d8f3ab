// After a verification: one event per family of kinds, with statuses and no raw PII. They go
// through the outbox (docverify.event_outbox), stored with the result before the caller's answer.
import {
  eventEnvelope,
  type EventEnvelope,
  type EventName,
  type VerificationKind,
  type VerifyResult,
} from '@idv/contracts';
import type { VerificationConfigRecord } from '../verificationConfigs/verificationConfigStore.ts';

const FAMILY: Record<VerificationKind | 'data_comparison', EventName> = {
  dl_verify: 'E_IDV_DOCUMENT_VALIDATE',
  dl_authenticate: 'E_IDV_DOCUMENT_VALIDATE',
  ppt_authenticate: 'E_IDV_DOCUMENT_VALIDATE',
  idcard_authenticate: 'E_IDV_DOCUMENT_VALIDATE',
  document_liveness: 'E_IDV_DOCUMENT_VALIDATE',
  data_comparison: 'E_IDV_DOCUMENT_VALIDATE',
  face_liveness: 'E_IDV_FACE_VALIDATE',
  face_compare: 'E_IDV_FACE_VALIDATE',
  ssn_verify: 'E_IDV_PERSON_VALIDATE',
  person_verify: 'E_IDV_PERSON_VALIDATE',
};

/**
 * One event per family of kinds the verification ran, with statuses and no raw PII. A human
 * review's certification has its own events (E_IDV_REVIEW_DECIDED): it joins no family.
 */
export function verificationEvents(
  config: Pick<VerificationConfigRecord, 'tenantId' | 'communityId'>,
  result: VerifyResult,
): EventEnvelope[] {
  const byEvent = new Map<EventName, VerifyResult['certifications']>();
  for (const c of result.certifications)
    if (c.kind !== 'human_review')
      byEvent.set(FAMILY[c.kind], [...(byEvent.get(FAMILY[c.kind]) ?? []), c]);
  const ts = Date.now();
  return [...byEvent].map(([eventName, certifications]) => {
    const data: Record<string, unknown> = {
      verificationId: result.verificationId,
      dvcID: result.dvcID,
      status: certifications.every((c) => c.verified) ? 'verified' : 'not_verified',
      verifications: certifications.map((c) => c.kind),
      statuses: Object.fromEntries(certifications.map((c) => [c.kind, c.status])),
    };
    if (eventName === 'E_IDV_DOCUMENT_VALIDATE') data.docType = result.docType;
    return eventEnvelope(eventName, config, data, { ts });
  });
}
