// Asks the verifiers of one kind in order through their connector workers, each job carrying the
// request's deadline. A verifier that cannot answer in time (provider failing, breaker open, its
// queue backed up past the deadline, its limits full, no worker) hands over to the next. Each call
// sent is counted by its end (connectorCalls: latency and errors per connector, for the console).
import { randomUUID } from 'node:crypto';
import { RpcTimeoutError, type Broker } from '@idv/broker';
import {
  connectorQueue,
  ConnectorReply,
  validate,
  type ConfigItem,
  type VerificationKind,
} from '@idv/contracts';
import type { SecretBox } from '@idv/crypto';
import type { Logger } from '@idv/observability';
import { outcomeOfReply, type CallOutcome, type ConnectorCall } from './connectorCallStats.ts';
import { documentForKind } from './kindImages.ts';
import type { VerifierRecord } from '../verifiers/verifierStore.ts';
import { followUpOf, type FollowUpSettings } from '../followUps/followUpTarget.ts';
import type { QueueWaits } from './queueWaits.ts';

export interface AskDeps {
  broker: Broker;
  box: SecretBox;
  logger: Logger;
  queuePrefix: string;
  queueWaits: QueueWaits;
  onFailover: (kind: VerificationKind, verifierTag: string, reason: string) => void;
  onShed: (queue: string, reason: 'backlog' | 'busy') => void;
  onQueueWait: (queue: string, seconds: number) => void;
  /** counts each call sent, by its end (connectorCalls.ts) */
  connectorCalls: { record: (call: ConnectorCall) => void };
  /** where "not final yet" answers are followed up; absent: they are taken as inconclusive */
  followUps?: FollowUpSettings;
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
  /** epoch ms by which the caller gets its answer */
  deadline: number;
  /** the verification's id, which a follow-up of a pending answer settles */
  verificationId?: string;
  /** the community's image URL hosts; empty: no list */
  imageUrlHosts?: readonly string[];
}

/** Either an answer, or no verifier could answer now and a retry may work after `retryAfterMs`. */
export type Asked = { answer: Answer } | { answer: undefined; retryAfterMs: number };

/** A job is not sent with less time left than this: it could not come back. */
const MIN_BUDGET_MS = 50;

async function askOne(
  deps: AskDeps,
  request: KindRequest,
  item: ConfigItem,
  verifier: VerifierRecord,
  queue: string,
): Promise<Answer> {
  const jobId = randomUUID();
  const document = documentForKind(request.kind, request.document);
  const sealed = deps.box.seal(JSON.stringify({ config: verifier.config, document }), jobId);
  const sentAt = Date.now();
  const followUp = followUpOf(deps.followUps, request.verificationId, request.kind, verifier);
  const job = {
    jobId,
    kind: request.kind,
    verifier: {
      id: verifier.id,
      tag: verifier.tag,
      type: verifier.type,
      connectorUrl: verifier.connectorUrl,
      ...(verifier.limits ? { limits: verifier.limits } : {}),
    },
    sealed,
    options: { returnRawData: item.returnRawData, debug: item.debug },
    deadline: request.deadline,
    sentAt,
    context: request.context,
    ...(request.imageUrlHosts?.length ? { imageUrlHosts: [...request.imageUrlHosts] } : {}),
    ...(followUp ? { followUp } : {}),
  };
  const waited = () => Date.now() - sentAt;
  const waitKey = { queue, communityId: request.context.communityId };
  const ended = (outcome: CallOutcome) =>
    deps.connectorCalls.record({
      communityId: request.context.communityId,
      verifierTag: verifier.tag,
      kind: request.kind,
      connectorType: verifier.type,
      outcome,
      ms: waited(),
      at: Date.now(),
    });
  const answer = await deps.broker
    .request(queue, job, { timeoutMs: request.deadline - sentAt })
    .catch((err: unknown) => {
      // no reply by the deadline is a timeout; anything else (broker, contract) an error
      const timedOut = err instanceof RpcTimeoutError;
      if (timedOut) deps.queueWaits.recordTimeout(waitKey, waited());
      ended(timedOut ? 'timeout' : 'error');
      throw err;
    });
  const checked = validate(ConnectorReply, answer);
  if (!checked.ok || checked.value.jobId !== jobId) {
    ended('error');
    throw new Error('the connector answered outside the contract');
  }
  const reply = checked.value;
  ended(outcomeOfReply(reply));
  deps.queueWaits.record(waitKey, reply.queuedMs, reply.latencyMs);
  deps.onQueueWait(queue, reply.queuedMs / 1000);
  const raw =
    item.returnRawData && reply.rawSealed
      ? (JSON.parse(deps.box.open(reply.rawSealed, jobId)) as unknown)
      : undefined;
  return raw === undefined ? { item, verifier, reply } : { item, verifier, reply, raw };
}

/** The first answer from a verifier that could give one in time; else when to retry. */
export async function askConnectors(deps: AskDeps, request: KindRequest): Promise<Asked> {
  let retryAfterMs = Number.POSITIVE_INFINITY;
  for (const { item, verifier } of request.items) {
    if (!verifier) {
      deps.onFailover(request.kind, item.verifier, 'verifier deleted');
      continue;
    }
    const queue = connectorQueue(verifier.type, deps.queuePrefix);
    const left = request.deadline - Date.now();
    // this community's own estimate: another's timeouts never shed its calls
    const waitKey = { queue, communityId: request.context.communityId };
    const expected = deps.queueWaits.expectedTotal(waitKey);
    if (left < MIN_BUDGET_MS || expected > left) {
      // shed: the job would still be queued or working when the caller stops waiting
      deps.onShed(queue, 'backlog');
      deps.onFailover(request.kind, verifier.tag, 'backlog');
      retryAfterMs = Math.min(retryAfterMs, deps.queueWaits.expectedWait(waitKey));
      continue;
    }
    try {
      const answer = await askOne(deps, request, item, verifier, queue);
      const { outcome, error } = answer.reply;
      if (outcome !== 'provider_unavailable' && outcome !== 'busy') return { answer };
      if (outcome === 'busy') {
        deps.onShed(queue, 'busy');
        retryAfterMs = Math.min(retryAfterMs, answer.reply.retryAfterMs ?? answer.reply.queuedMs);
      }
      deps.onFailover(request.kind, verifier.tag, error?.code ?? outcome);
    } catch (err) {
      const reason = (err as Error).name || 'error';
      deps.logger.warn(
        { kind: request.kind, verifier: verifier.tag, reason, message: (err as Error).message },
        'connector failed over',
      );
      deps.onFailover(request.kind, verifier.tag, reason);
    }
  }
  return { answer: undefined, retryAfterMs: Number.isFinite(retryAfterMs) ? retryAfterMs : 5000 };
}
