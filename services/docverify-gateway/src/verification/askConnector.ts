// Asks the verifiers of one kind in order through their connector workers; an unavailable one
// (breaker open, provider down, RPC timeout, no worker) hands over to the next.
import { randomUUID } from 'node:crypto';
import type { Broker } from '@idv/broker';
import {
  connectorQueue,
  ConnectorReply,
  validate,
  type ConfigItem,
  type VerificationKind,
} from '@idv/contracts';
import type { SecretBox } from '@idv/crypto';
import type { Logger } from '@idv/observability';
import type { VerifierRecord } from '../store/verifiers.ts';

export interface AskDeps {
  broker: Broker;
  box: SecretBox;
  logger: Logger;
  timeoutMs: number;
  queuePrefix: string;
  onFailover: (kind: VerificationKind, verifierTag: string, reason: string) => void;
}

export interface Answer {
  item: ConfigItem;
  verifier: VerifierRecord;
  reply: ConnectorReply;
  raw?: unknown;
}

export interface KindRequest {
  kind: VerificationKind;
  items: { item: ConfigItem; verifier: VerifierRecord | undefined }[];
  document: Record<string, unknown>;
  context: { tenantId: string; communityId: string; dvcID: string };
}

async function askOne(
  deps: AskDeps,
  request: KindRequest,
  item: ConfigItem,
  verifier: VerifierRecord,
): Promise<Answer> {
  const jobId = randomUUID();
  const sealed = deps.box.seal(
    JSON.stringify({ config: verifier.config, document: request.document }),
    jobId,
  );
  const job = {
    jobId,
    kind: request.kind,
    verifier: {
      id: verifier.id,
      tag: verifier.tag,
      type: verifier.type,
      connectorUrl: verifier.connectorUrl,
    },
    sealed,
    options: { returnRawData: item.returnRawData, debug: item.debug, timeoutMs: deps.timeoutMs },
    context: request.context,
  };
  const answer = await deps.broker.request(connectorQueue(verifier.type, deps.queuePrefix), job, {
    timeoutMs: deps.timeoutMs,
  });
  const checked = validate(ConnectorReply, answer);
  if (!checked.ok || checked.value.jobId !== jobId)
    throw new Error('the connector answered outside the contract');
  const reply = checked.value;
  const raw =
    item.returnRawData && reply.rawSealed
      ? (JSON.parse(deps.box.open(reply.rawSealed, jobId)) as unknown)
      : undefined;
  return raw === undefined ? { item, verifier, reply } : { item, verifier, reply, raw };
}

/** The first answer from a verifier that was available, or undefined when none was. */
export async function askConnectors(
  deps: AskDeps,
  request: KindRequest,
): Promise<Answer | undefined> {
  for (const { item, verifier } of request.items) {
    if (!verifier) {
      deps.onFailover(request.kind, item.verifier, 'verifier deleted');
      continue;
    }
    try {
      const answer = await askOne(deps, request, item, verifier);
      if (answer.reply.outcome !== 'provider_unavailable') return answer;
      deps.onFailover(
        request.kind,
        verifier.tag,
        answer.reply.error?.code ?? 'provider_unavailable',
      );
    } catch (err) {
      const reason = (err as Error).name || 'error';
      deps.logger.warn(
        { kind: request.kind, verifier: verifier.tag, reason, message: (err as Error).message },
        'connector failed over',
      );
      deps.onFailover(request.kind, verifier.tag, reason);
    }
  }
  return undefined;
}
