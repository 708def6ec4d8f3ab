// Pending provider answers followed to the end, for types with followUps. The first answer
// "pending" leaves a FollowUpJob in one of the type's wait queues (the longest fixed TTL of
// FOLLOW_UP_WAIT_TIERS_MS that fits the wait); it comes back through the follow-up queue, is
// polled when its time has come (backoff doubling from firstPollMs to maxPollMs; rarely, as a
// safety net, when the provider calls back) and goes back to wait while still pending. A provider callback the gateway authenticated arrives on the same queue
// with its body. The final answer, or an inconclusive one once the deadline passed, is published to
// the gateway's follow-up queue (answerTo). Nothing here is kept in memory: a worker restart loses
// no follow-up.
import { randomUUID } from 'node:crypto';
import {
  PoisonMessageError,
  RequeueMessageError,
  type Broker,
  type MessageHandler,
} from '@idv/broker';
import {
  callbackReferenceMember,
  FollowUpJob,
  FollowUpSecrets,
  RESULT_BY_KIND,
  validate,
  validateConfig,
  type ConnectorJob,
  type ConnectorType,
  type FollowUpAnswer,
  type NormalisedResult,
} from '@idv/contracts';
import type { SecretBox } from '@idv/crypto';
import type { Logger } from '@idv/observability';
import type { AdapterOutput, FollowUpAdapter } from '../connectors/connector.ts';
import { inconclusive } from '../connectors/shared/normalise.ts';
import { ProviderRejected } from '../outcomes.ts';
import type { GuardedHttp } from '@idv/netguard';

export interface FollowUpSettings {
  firstPollMs: number;
  maxPollMs: number;
  /** each poll's own time limit */
  pollTimeoutMs: number;
}

export interface FollowUpDeps<T extends ConnectorType = ConnectorType> {
  type: T;
  followUp: FollowUpAdapter<T>;
  box: SecretBox;
  http: GuardedHttp;
  broker: Broker;
  /** the wait queues, one per TTL tier */
  waitQueues: readonly { tierMs: number; name: string }[];
  settings: FollowUpSettings;
  logger: Logger;
}

/** The reason of a kind settled by its deadline instead of its provider. */
export const DEADLINE_PASSED = 'follow_up_deadline_passed';
/** The reason of a kind whose provider no longer knows (refuses) the reference. */
export const REFERENCE_REFUSED = 'follow_up_reference_refused';

/** ms to the poll after `attempt` polls: doubling, capped, ±10 % so polls of a burst spread. */
function backoff(settings: FollowUpSettings, attempt: number, how: FollowUpJob['how']): number {
  if (how === 'callback') return settings.maxPollMs;
  const ms = Math.min(settings.maxPollMs, settings.firstPollMs * 2 ** attempt);
  return Math.round(ms * (0.9 + Math.random() * 0.2));
}

export class FollowUps<T extends ConnectorType = ConnectorType> {
  constructor(private readonly deps: FollowUpDeps<T>) {}

  /** Starts following up `job`'s pending answer; its first poll comes after the backoff. */
  async start(
    job: ConnectorJob,
    config: unknown,
    followUp: NonNullable<NormalisedResult['followUp']>,
  ): Promise<void> {
    const target = job.followUp;
    if (!target) return;
    const followUpId = randomUUID();
    const secrets: FollowUpSecrets = {
      config: config as Record<string, unknown>,
      reference: followUp.reference,
    };
    const first: FollowUpJob = {
      followUpId,
      verificationId: target.verificationId,
      kind: job.kind,
      verifier: {
        id: job.verifier.id,
        tag: job.verifier.tag,
        type: job.verifier.type,
        connectorUrl: job.verifier.connectorUrl,
      },
      sealed: this.deps.box.seal(JSON.stringify(secrets), followUpId),
      answerTo: target.answerTo,
      how: followUp.how,
      deadline: target.deadline,
      pollAt: Date.now() + backoff(this.deps.settings, 0, followUp.how),
      attempt: 0,
    };
    await this.wait(first);
  }

  /** The consumer of the type's follow-up queue. */
  handler(): MessageHandler {
    return async (body) => {
      const checked = validate(FollowUpJob, body);
      if (!checked.ok)
        throw new PoisonMessageError(
          `not a follow-up: ${checked.issues[0]?.path} ${checked.issues[0]?.message}`,
        );
      await this.handle(checked.value);
    };
  }

  private async handle(job: FollowUpJob): Promise<void> {
    const log = this.deps.logger.child({ verificationId: job.verificationId, kind: job.kind });
    if (job.verifier.type !== this.deps.type)
      throw new PoisonMessageError('follow-up of another type');
    if (job.callback !== undefined) {
      // the gateway bound the callback to this run's reference; a message that is not so bound settles nothing
      if (!this.namesItsReference(job))
        return void log.warn('provider callback names another reference; dropped');
      const output = this.safely(() => this.deps.followUp.fromCallback(job.callback, job), log);
      if (output && output.result.status !== 'pending')
        await this.answer(job, 'callback', output.result);
      return;
    }
    const now = Date.now();
    if (now >= job.deadline) return this.answer(job, 'deadline', inconclusive([DEADLINE_PASSED]));
    if (now < job.pollAt) return this.wait(job);
    const output = await this.poll(job).catch((err: unknown) => {
      // the provider refuses the reference (it forgot the review): asking again cannot help
      if (err instanceof ProviderRejected)
        return { result: inconclusive([REFERENCE_REFUSED]), raw: null };
      log.warn(
        { err: (err as Error).message, attempt: job.attempt },
        'follow-up poll failed; polled again later',
      );
      return undefined;
    });
    if (output && output.result.status !== 'pending')
      return this.answer(job, 'poll', output.result);
    const attempt = job.attempt + 1;
    await this.wait({
      ...job,
      attempt,
      pollAt: Date.now() + backoff(this.deps.settings, attempt, job.how),
    });
  }

  private secretsOf(job: FollowUpJob): FollowUpSecrets {
    const secrets = validate(
      FollowUpSecrets,
      JSON.parse(this.deps.box.open(job.sealed, job.followUpId)),
    );
    if (!secrets.ok) throw new PoisonMessageError('the follow-up does not open');
    return secrets.value;
  }

  /** The callback body names (in its type's callbackReference member) the follow-up's reference. */
  private namesItsReference(job: FollowUpJob): boolean {
    const member = callbackReferenceMember(job.verifier.type);
    const body = job.callback;
    const named =
      member && body && typeof body === 'object'
        ? (body as Record<string, unknown>)[member]
        : undefined;
    return typeof named === 'string' && named === this.secretsOf(job).reference;
  }

  private async poll(job: FollowUpJob): Promise<AdapterOutput> {
    const secrets = this.secretsOf(job);
    const config = validateConfig(this.deps.type, secrets.config);
    if (!config.ok) throw new PoisonMessageError('the follow-up carries no valid config');
    return this.deps.followUp.poll({
      kind: job.kind,
      connectorUrl: job.verifier.connectorUrl,
      config: config.value,
      reference: secrets.reference,
      http: this.deps.http,
      signal: AbortSignal.timeout(this.deps.settings.pollTimeoutMs),
    });
  }

  /** An adapter's parse of a callback body; undefined (logged) when it is not an answer. */
  private safely(parse: () => AdapterOutput, log: Logger): AdapterOutput | undefined {
    try {
      return parse();
    } catch (err) {
      log.warn(
        { err: (err as Error).message },
        'provider callback not understood; polling goes on',
      );
      return undefined;
    }
  }

  private async answer(
    job: FollowUpJob,
    via: FollowUpAnswer['via'],
    result: NormalisedResult,
  ): Promise<void> {
    const shaped = validate(RESULT_BY_KIND[job.kind], result);
    const final = shaped.ok ? shaped.value : inconclusive(['provider_malformed']);
    const answer: FollowUpAnswer = {
      verificationId: job.verificationId,
      kind: job.kind,
      verifierTag: job.verifier.tag,
      via,
      answeredAt: Date.now(),
      reply: { outcome: 'completed', authority: this.deps.type, result: final },
    };
    await this.publish(job.answerTo, answer);
    this.deps.logger.info(
      { verificationId: job.verificationId, kind: job.kind, via, status: final.status },
      'follow-up answered',
    );
  }

  /** Back to wait: in the longest tier that does not pass the next poll (or the deadline). */
  private wait(job: FollowUpJob): Promise<void> {
    const waitMs = Math.min(job.pollAt, job.deadline) - Date.now();
    const [shortest] = this.deps.waitQueues;
    const tier = this.deps.waitQueues.reduce(
      (best, t) => (t.tierMs <= waitMs && t.tierMs > best.tierMs ? t : best),
      shortest!,
    );
    return this.publish(tier.name, job);
  }

  /** Through the default exchange; the broker away puts the message back for later. */
  private async publish(queue: string, body: object): Promise<void> {
    try {
      await this.deps.broker.publish('', queue, body);
    } catch (err) {
      throw new RequeueMessageError(`follow-up not handed on: ${(err as Error).message}`);
    }
  }
}
