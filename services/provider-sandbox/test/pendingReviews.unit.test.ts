// The sandbox's agent reviews decided later, over HTTP: 202 pending with a reviewId, GET pending
// until the time has come and then the fixture's decision, only for the submitting account, and
// the decision POSTed to the callbackUrl, signed with the account's key (retried until a 2xx).
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { eventually } from '@idv/testing/eventually';
import { startSink, type Sink } from '@idv/testing/webhookSink';
import { startSandbox, type RunningSandbox } from '../src/start.ts';

const image = (text: string) => Buffer.from(text).toString('base64');
const KEY = 'sandbox-reviews';

describe('provider sandbox: agent reviews decided later', function () {
  this.timeout(30_000);
  let sandbox: RunningSandbox;
  let sink: Sink;
  before(async () => {
    sandbox = await startSandbox(0);
    sink = await startSink();
  });
  after(async () => {
    await sandbox?.close();
    await sink?.close();
  });

  const submit = (body: Record<string, unknown>, key = KEY) =>
    fetch(`${sandbox.url}/review/v1/agent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ documentType: 'dl', ...body }),
    });
  const read = (reviewId: string, key = KEY) =>
    fetch(`${sandbox.url}/review/v1/agent/${reviewId}`, { headers: { 'x-api-key': key } });

  it('answers 202 pending, then GET gives the decision once its time has come', async () => {
    const res = await submit({ images: { front_image: image('DOC:testy\nREVIEW:400') } });
    expect(res.status).to.equal(202);
    const opened = (await res.json()) as { reviewId: string; decision: string; decideAt: number };
    expect(opened).to.include({ decision: 'pending' });
    expect((await (await read(opened.reviewId)).json()) as object).to.include({
      decision: 'pending',
    });
    expect((await read(opened.reviewId, 'sandbox-other')).status, 'another account').to.equal(404);
    expect((await read('no-such-review')).status).to.equal(404);
    expect((await read(opened.reviewId, 'wrong')).status).to.equal(401);
    const decided = await eventually('the review decided (REVIEW:400)', async () => {
      const review = (await (await read(opened.reviewId)).json()) as Record<string, unknown>;
      return review.decision !== 'pending' && review;
    });
    expect(decided).to.include({ reviewId: opened.reviewId, decision: 'approved' });
    expect(decided.document).to.include({ lastName: 'McTestface' });
  });

  it('POSTs the decision to the callbackUrl, signed v2 (method, path and query too), again after a failure', async () => {
    const target = '/decided?run=r-1&kind=dl';
    sink.script(target, [503, 200]);
    const res = await submit({
      images: { front_image: image('DOC:forged') },
      decideAfterMs: 100,
      callbackUrl: `${sink.url}${target}`,
    });
    const { reviewId } = (await res.json()) as { reviewId: string };
    const [first, second] = await sink.waitFor(2, target, 5000);
    expect(second!.body).to.equal(first!.body);
    const body = JSON.parse(second!.body) as Record<string, unknown>;
    expect(body).to.include({ reviewId, decision: 'rejected' });
    expect(body.reasons).to.deep.equal(['tampering_detected']);
    // scheme v2: the signature covers the method and the callback URL's path and query
    const timestamp = String(second!.headers['x-callback-timestamp']);
    const mac = createHmac('sha256', KEY)
      .update(`${timestamp}\nPOST\n${target}\n${second!.body}`)
      .digest('hex');
    expect(second!.headers['x-callback-signature']).to.equal(`v2=${mac}`);
  });

  it('a sandbox stopped before the decision calls nobody back', async () => {
    const other = await startSandbox(0);
    const res = await fetch(`${other.url}/review/v1/agent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify({
        documentType: 'dl',
        images: { front_image: image('DOC:testy') },
        decideAfterMs: 200,
        callbackUrl: `${sink.url}/after-stop`,
      }),
    });
    expect(res.status).to.equal(202);
    await other.close();
    // a marker: a review decided as late, submitted after, on the sandbox still running; its
    // decision timer is due after the stopped one's, so its callback would have come second
    const marker = await submit({
      images: { front_image: image('DOC:testy') },
      decideAfterMs: 200,
      callbackUrl: `${sink.url}/marker-after-stop`,
    });
    expect(marker.status).to.equal(202);
    await sink.waitFor(1, '/marker-after-stop');
    expect(sink.received.filter((r) => r.path === '/after-stop')).to.have.length(0);
  });

  it('without REVIEW or decideAfterMs it decides at once, as before', async () => {
    const res = await submit({ images: { front_image: image('DOC:testy') } });
    expect(res.status).to.equal(200);
    expect((await res.json()) as object).to.include({ decision: 'approved' });
  });
});
