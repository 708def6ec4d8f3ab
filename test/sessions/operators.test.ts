// Operators list a community's sessions (newest first, by status, a page at a time) and read one:
// states, attempts and ids, never the person's data, images or results; licences of level
// system/service/service_ext covering the community only. The page token never reaches a log.
import { expect } from 'chai';
import { CONSENT_TEXT_VERSION, type SessionSummary } from '@idv/contracts';
import { captureServiceLogs, type LogCapture } from '@idv/testing/logCapture';
import { startSessionWorld, type SessionWorld } from '@idv/testing/sessionWorld';

const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;

describe('sessions: operators list and read them, without personal data', function () {
  this.timeout(90_000);
  let w: SessionWorld;
  let capture: LogCapture;
  const made: { sessionId: string; token: string }[] = [];

  before(async () => {
    capture = captureServiceLogs();
    w = await startSessionWorld({ name: 'session-ops', platform: { LOG_LEVEL: 'trace' } });
    const caller = w.client('service');
    for (let i = 0; i < 5; i++) {
      const session = await caller.createSession('kyc-session', {
        userUID: `user-secret-${i}`,
        did: `did:example:secret${i}`,
        metadata: { n: i },
      });
      made.push({ sessionId: session.sessionId, token: tokenOf(session.url) });
      w.clock.advance(1000);
    }
    const page = w.page(made[4]!.token);
    await page.get('/session');
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    await page.post('/document-type', { documentType: 'DL' });
    await page.put('front', w.images.front);
    await fetch(`${w.url}/capture/${made[4]!.token}`);
    await fetch(`${w.url}/capture/${made[4]!.token}/nothing-here`);
    await caller.cancelSession('kyc-session', made[3]!.sessionId);
  });
  after(async () => {
    capture?.restore();
    await w?.stop();
  });

  const list = (
    query = '',
    licence: 'service' | 'community' | 'serviceElsewhere' | 'system' = 'service',
  ) =>
    w
      .client(licence)
      .request<{ sessions: SessionSummary[]; nextCursor: string | null; message?: string }>(
        'GET',
        `/sessions/community/${w.platform.community.id}${query}`,
      );

  it('lists newest first, a page at a time, and by status', async () => {
    const first = await list('?limit=2');
    expect(first.status).to.equal(200);
    expect(first.body.sessions.map((s) => s.sessionId)).to.deep.equal([
      made[4]!.sessionId,
      made[3]!.sessionId,
    ]);
    const second = await list(`?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.sessions.map((s) => s.sessionId)).to.deep.equal([
      made[2]!.sessionId,
      made[1]!.sessionId,
    ]);
    const last = await list(`?limit=2&cursor=${second.body.nextCursor}`);
    expect(last.body.sessions.map((s) => s.sessionId)).to.deep.equal([made[0]!.sessionId]);
    expect(last.body.nextCursor).to.equal(null);
    const cancelled = await list('?status=cancelled');
    expect(cancelled.body.sessions.map((s) => [s.sessionId, s.status])).to.deep.equal([
      [made[3]!.sessionId, 'CANCELLED'],
    ]);
    const capturing = (await list('?status=capturing')).body.sessions[0]!;
    expect(capturing).to.deep.include({
      sessionId: made[4]!.sessionId,
      attempts: { front: 1 },
      accepted: { front: true },
      documentType: 'DL',
      metadata: { n: 4 },
    });
  });

  it('shows no personal data, image or result, in the list or one session', async () => {
    const all = JSON.stringify((await list()).body);
    const one = await w
      .client('service')
      .request('GET', `/sessions/community/${w.platform.community.id}/${made[4]!.sessionId}`);
    expect(one.status).to.equal(200);
    for (const text of [all, JSON.stringify(one.body)]) {
      expect(text).not.to.match(/user-secret|did:example|image_sealed|base64/);
      for (const { token } of made) expect(text).not.to.contain(token);
    }
    expect(one.body).not.to.have.property('result');
  });

  it('refuses bad queries (400) and licences that do not manage the community (403)', async () => {
    for (const query of ['?limit=0', '?limit=101', '?status=done', '?cursor=bm9wZQ', '?other=1'])
      expect((await list(query)).status, query).to.equal(400);
    expect((await list('', 'community')).status).to.equal(403);
    expect((await list('', 'serviceElsewhere')).status).to.equal(403);
    expect((await list('', 'system')).status).to.equal(200);
    const unknown = await w
      .client('service')
      .request(
        'GET',
        `/sessions/community/${w.platform.community.id}/00000000-0000-4000-8000-000000000000`,
      );
    expect(unknown.status).to.equal(404);
  });

  it('never writes a page token to a log line (the access log masks it)', () => {
    const { lines } = capture;
    expect(lines.some((l) => l.includes('/capture/:token'))).to.equal(true);
    for (const { token } of made) expect(lines.filter((l) => l.includes(token))).to.deep.equal([]);
    expect(lines.filter((l) => /user-secret|did:example/.test(l))).to.deep.equal([]);
  });
});
