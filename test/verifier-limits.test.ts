// A verifier's limits, set through the API, hold at the provider: /verify calls beyond
// maxConcurrent wait for a slot while their deadline allows, and the rest are answered 503 with
// Retry-After at once, never blamed on the provider.
import { expect } from 'chai';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';

describe('verifier limits through the API', function () {
  this.timeout(60_000);
  let world: VerifyWorld;
  let path: string;

  before(async () => {
    world = await startVerifyWorld({ name: 'limits', platform: { VERIFY_DEADLINE_MS: '1500' } });
    path = `/verifier/community/${world.platform.community.id}/provider`;
  });
  after(() => world?.stop());

  it('stores, shows, changes and lifts limits, refusing ones out of range', async () => {
    const admin = world.client('docverify', 'service');
    const bad = await admin.request('PATCH', path, { limits: { maxConcurrent: 0 } });
    expect(bad.status).to.equal(400);
    expect(JSON.stringify(bad.body)).to.include('/limits/maxConcurrent');
    const set = await admin.request<{ limits?: unknown }>('PATCH', path, {
      limits: { maxConcurrent: 2, maxPerSecond: 50 },
    });
    expect(set.body.limits).to.deep.equal({ maxConcurrent: 2, maxPerSecond: 50 });
    const read = await admin.request<{ limits?: unknown }>('GET', path);
    expect(read.body.limits).to.deep.equal({ maxConcurrent: 2, maxPerSecond: 50 });
    const lifted = await admin.request<{ limits?: unknown }>('PATCH', path, { limits: {} });
    expect(lifted.body).not.to.have.property('limits');
  });

  it('holds maxConcurrent at the provider and answers what cannot start in time 503 at once', async () => {
    const admin = world.client('docverify', 'service');
    world.sandbox.faults.set('limited', { latencyMs: 400 });
    const moved = await admin.request('PATCH', path, {
      connectorUrl: `${world.sandbox.url}/s/limited`,
      config: { apiKey: 'sandbox-key' },
      limits: { maxConcurrent: 1 },
    });
    expect(moved.status).to.equal(200);
    const caller = world.client('docverify', 'community');
    const verify = () => caller.encryptedRequest('POST', '/verify', world.verifyBody());
    expect((await verify()).status).to.equal(200); // the worker learns the provider's latency
    const answers = await Promise.all(Array.from({ length: 8 }, verify));
    const statuses = answers.map((a) => a.status);
    expect(world.sandbox.faults.peakOf('limited')).to.equal(1);
    expect(statuses.filter((s) => s === 200).length).to.be.at.least(2);
    expect(statuses.filter((s) => s === 503).length).to.be.at.least(3);
    expect(statuses.every((s) => s === 200 || s === 503)).to.equal(true);
    for (const refused of answers.filter((a) => a.status === 503))
      expect(Number(refused.headers.get('retry-after'))).to.be.at.least(1);
    expect(world.worker.breakers.state((moved.body as { id: string }).id)).to.equal('closed');
  });
});
