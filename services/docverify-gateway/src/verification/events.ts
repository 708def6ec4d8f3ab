// After a verification: one event per family of kinds, with statuses and no raw PII.
import { randomUUID } from 'node:crypto';
import type { Broker } from '@idv/broker';
import type { EventName, VerificationKind, VerifyResult } from '@idv/contracts';
import type { Logger } from '@idv/observability';
import type { VerificationConfigRecord } from '../store/verificationConfigs.ts';

export interface EventDeps {
  broker: Broker;
  logger: Logger;
}

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

/** A broker outage does not fail the verification the caller already has: it is logged. */
export async function publishVerificationEvents(
  deps: EventDeps,
  config: VerificationConfigRecord,
  result: VerifyResult,
): Promise<void> {
  const byEvent = new Map<EventName, VerifyResult['certifications']>();
  for (const c of result.certifications)
    byEvent.set(FAMILY[c.kind], [...(byEvent.get(FAMILY[c.kind]) ?? []), c]);
  await Promise.all(
    [...byEvent].map(async ([eventName, certifications]) => {
      const data: Record<string, unknown> = {
        verificationId: result.verificationId,
        dvcID: result.dvcID,
        status: certifications.every((c) => c.verified) ? 'verified' : 'not_verified',
        verifications: certifications.map((c) => c.kind),
        statuses: Object.fromEntries(certifications.map((c) => [c.kind, c.status])),
      };
      if (eventName === 'E_IDV_DOCUMENT_VALIDATE') data.docType = result.docType;
      try {
        await deps.broker.publishEvent({
          eventId: randomUUID(),
          eventName,
          version: 1,
          tenantId: config.tenantId,
          communityId: config.communityId,
          ts: Date.now(),
          data,
        });
      } catch (err) {
        deps.logger.warn(
          { eventName, reason: (err as Error).message },
          'verification event not published',
        );
      }
    }),
  );
}
