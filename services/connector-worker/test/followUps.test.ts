// An agent_review worker following up pending answers, against the provider sandbox over a real
// broker: the job's reply says pending with the provider's reference, then the final answer comes
// on the job's answerTo queue by poll, by a callback body handed to the follow-up queue, or, when
// the deadline passes or the provider refuses the reference, as an inconclusive one.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  connectorQueue,
  ConnectorReply,
  followUpQueue,
  validate,
  type FollowUpAnswer,
  type FollowUpJob,
} from '@idv/contracts';
import { createSecretBox } from '@idv/crypto';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { eventually } from '@idv/testing/eventually';
import { startHarness, type Harness } from './harness.ts';

const image = (text: string) => Buffer.from(text).toString('base64');
const config = { apiKey: 'sandbox-key' };
/**
 * Room for an answer that must not come. A fixed wait is the only proof: the worker takes several
 * follow-ups at once and a dropped one leaves no trace, so no later follow-up's answer is surely
 * sent after the one a dropped callback would wrongly have given.
 */
const NO_ANSWER_MS = 300;

describe('connector worker: pending answers followed up', function () {
  this.timeout(30_000);
  let h: Harness;
  let answerTo: string;
  const answers: FollowUpAnswer[] = [];

  before(async () => {
    h = await startHarness({ FOLLOW_UP_FIRST_POLL_MS: '300', FOLLOW_UP_MAX_POLL_MS: '600' });
    await h.startWorker('agent_review');
    answerTo = `${h.env.CONNECTOR_QUEUE_PREFIX}.answers`;
    await h.broker.consume(answerTo, (body) => void answers.push(body as FollowUpAnswer));
  });
  after(async () => {
    await h?.stop(); // the worker's queues, follow-up ones included
    if (answerTo) await deleteQueues(h.env.AMQP_URL!, [answerTo]);
  });

  /** Sends an agent review job of a dl image with `text`, followed up when `deadlineMs` is given. */
  async function review(text: string, deadlineMs?: number) {
    const verificationId = randomUUID();
    const { jobId, body } = h.job({
      type: 'agent_review',
      kind: 'dl_authenticate',
      config,
      document: { type: 'dl', front_image: image(text) },
    });
    const job =
      deadlineMs === undefined
        ? body
        : { ...body, followUp: { verificationId, answerTo, deadline: Date.now() + deadlineMs } };
    const reply = validate(
      ConnectorReply,
      await h.broker.request(connectorQueue('agent_review', h.env.CONNECTOR_QUEUE_PREFIX), job),
    );
    if (!reply.ok || reply.value.jobId !== jobId) throw new Error('no valid reply');
    return { verificationId, reply: reply.value };
  }

  function answerFor(verificationId: string, timeoutMs = 10_000): Promise<FollowUpAnswer> {
    return eventually(
      `the follow-up answer for ${verificationId}`,
      () => answers.find((a) => a.verificationId === verificationId),
      timeoutMs,
    );
  }

  /** Hands a follow-up straight to the worker's follow-up queue, as the gateway does a callback. */
  async function handOver(reference: string, extra: Partial<FollowUpJob> = {}) {
    const followUpId = randomUUID();
    const box = createSecretBox(Buffer.from(h.env.MASTER_KEY!, 'base64'));
    const job: FollowUpJob = {
      followUpId,
      verificationId: randomUUID(),
      kind: 'dl_authenticate',
      verifier: {
        id: 'verifier-agent_review',
        tag: 'tag-agent_review',
        type: 'agent_review',
        connectorUrl: h.sandbox.url,
      },
      sealed: box.seal(JSON.stringify({ config, reference }), followUpId),
      answerTo,
      how: 'poll',
      deadline: Date.now() + 10_000,
      pollAt: Date.now(),
      attempt: 0,
      ...extra,
    };
    await h.broker.publish('', followUpQueue('agent_review', h.env.CONNECTOR_QUEUE_PREFIX), job);
    return job;
  }

  it('without a follow-up in the job, a review decided later is inconclusive, as before', async () => {
    const { reply } = await review(`DOC:testy\nREVIEW:500`);
    expect(reply.result).to.include({ status: 'inconclusive', verified: false });
    expect(reply.result?.reasons).to.deep.equal(['review_pending']);
  });

  it('replies pending with the reference, then answers the final decision by poll', async () => {
    const { verificationId, reply } = await review(`DOC:testy\nREVIEW:800`, 10_000);
    expect(reply.result).to.include({ status: 'pending', verified: false });
    expect(reply.result?.followUp).to.include({ how: 'poll' });
    expect(reply.result?.followUp?.reference).to.be.a('string');
    const answer = await answerFor(verificationId);
    expect(answer).to.include({
      via: 'poll',
      kind: 'dl_authenticate',
      verifierTag: 'tag-agent_review',
    });
    expect(answer.reply.result).to.include({ status: 'verified', verified: true });
  });

  it('answers inconclusive once the deadline passed without a decision', async () => {
    const { verificationId } = await review(`DOC:testy\nREVIEW:600000`, 1000);
    const answer = await answerFor(verificationId);
    expect(answer.via).to.equal('deadline');
    expect(answer.reply.result).to.include({ status: 'inconclusive' });
    expect(answer.reply.result.reasons).to.deep.equal(['follow_up_deadline_passed']);
  });

  it('answers inconclusive when the provider refuses the reference (it forgot the review)', async () => {
    const job = await handOver('no-such-review');
    const answer = await answerFor(job.verificationId);
    expect(answer.via).to.equal('poll');
    expect(answer.reply.result.reasons).to.deep.equal(['follow_up_reference_refused']);
  });

  it('reads a callback body; one it cannot read is dropped, the polls go on', async () => {
    const garbled = await handOver('r-1', { how: 'callback', callback: { nothing: true } });
    const decided = { reviewId: 'r-2', decision: 'rejected', reasons: ['tampering_detected'] };
    const read = await handOver('r-2', { how: 'callback', callback: decided });
    const answer = await answerFor(read.verificationId);
    expect(answer.via).to.equal('callback');
    expect(answer.reply.result).to.include({ status: 'not_verified', verified: false });
    expect(answer.reply.result.reasons).to.deep.equal(['tampering_detected']);
    await new Promise((resolve) => setTimeout(resolve, NO_ANSWER_MS));
    expect(answers.filter((a) => a.verificationId === garbled.verificationId)).to.deep.equal([]);
  });

  it("drops a callback naming another review than its follow-up's reference: it settles nothing", async () => {
    const approved = { reviewId: 'r-of-another-run', decision: 'approved', reasons: [] };
    const foreign = await handOver('r-3', { how: 'callback', callback: approved });
    const own = await handOver('r-4', {
      how: 'callback',
      callback: { ...approved, reviewId: 'r-4' },
    });
    expect((await answerFor(own.verificationId)).reply.result).to.include({ status: 'verified' });
    await new Promise((resolve) => setTimeout(resolve, NO_ANSWER_MS));
    expect(answers.filter((a) => a.verificationId === foreign.verificationId)).to.deep.equal([]);
  });
});
