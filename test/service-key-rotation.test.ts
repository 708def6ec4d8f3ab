// Service key rotation with overlap, over real HTTP on every service: after DELETE
// /servicekey/{keyId}, a caller that cached the old public key keeps working through the grace
// (credential headers, an encrypted /verify and its answer, an encrypted event; the callback it
// causes is signed with the new key alone), a caller with the new key works at once, /publickeys
// names both, and a second replica on the same database follows within its refresh.
import { expect } from 'chai';
import { startDocverifyGateway } from '../services/docverify-gateway/src/start.ts';
import {
  CachingCaller,
  publishedKeys,
  resetServiceKey,
  v1kVerifies,
} from '@idv/testing/serviceKeyCallers';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';
import { eventually } from '@idv/testing/eventually';

const SERVICES = ['oauth', 'docverify', 'webhooks'] as const;
type Service = (typeof SERVICES)[number];
const DEFAULT_GRACE_MS = 48 * 3600 * 1000;

describe('service key rotation with overlap', function () {
  this.timeout(90_000);
  let world: VerifyWorld;
  let replica: Awaited<ReturnType<typeof startDocverifyGateway>>;
  const base = (service: Service) => world.platform.services[service].url;
  const oldKey = {} as Record<Service, string>;
  const newKey = {} as Record<Service, string>;
  // callers that fetched the keys before the reset and never fetch them again
  const cached = {} as Record<Service, CachingCaller>;
  let replicaCaller: CachingCaller;

  before(async () => {
    world = await startVerifyWorld({ name: 'keyrotation', dispatcher: true });
    replica = await startDocverifyGateway(world.platform.env);
    await world.subscribe('/rotation', ['E_IDV_DOCUMENT_VALIDATE']);
    const { system } = world.platform.licences;
    for (const service of SERVICES) {
      cached[service] = await CachingCaller.at(base(service), system);
      oldKey[service] = cached[service].servicePublicKey;
    }
    replicaCaller = await CachingCaller.at(replica.server.url, system);
    expect(replicaCaller.servicePublicKey).to.equal(oldKey.docverify);
    for (const service of SERVICES) newKey[service] = await resetServiceKey(base(service), system);
  });
  after(async () => {
    await replica?.stop();
    await world?.stop();
  });

  for (const service of SERVICES) {
    it(`${service}: credential headers made with the old key still pass (the answer names the current key), and so do the new key's`, async () => {
      expect(newKey[service]).not.to.equal(oldKey[service]);
      const res = await cached[service].call('GET', '/servicekeys');
      expect(res.status).to.equal(200);
      expect(res.headers.get('service-key-current')).to.equal(newKey[service]);
      const until = Date.parse(res.headers.get('service-key-accepted-until') ?? '');
      expect(until).to.be.closeTo(Date.now() + DEFAULT_GRACE_MS, 120_000);
      expect(((await res.json()) as { keyId: string }[])[0]?.keyId).to.equal(newKey[service]);

      const fresh = await CachingCaller.at(base(service), world.platform.licences.system);
      expect(fresh.servicePublicKey).to.equal(newKey[service]);
      const current = await fresh.call('GET', '/servicekeys');
      expect(current.status).to.equal(200);
      expect(current.headers.get('service-key-current')).to.equal(null);
    });

    it(`${service}: /publickeys names the current key and the previous one with its expiry`, async () => {
      const keys = await publishedKeys(base(service));
      expect(keys.publicKey).to.equal(newKey[service]);
      expect(keys.previousKeys.map((p) => p.publicKey)).to.deep.equal([oldKey[service]]);
      const until = Date.parse(keys.previousKeys[0]!.acceptedUntil);
      expect(until).to.be.closeTo(Date.now() + DEFAULT_GRACE_MS, 120_000);
      const health = (await (await fetch(`${base(service)}/healthz`)).json()) as {
        publicKey: string;
      };
      expect(health.publicKey).to.equal(newKey[service]);
    });
  }

  it('webhooks: /.well-known names the current key and the previous one', async () => {
    const body = await (await fetch(`${base('webhooks')}/.well-known`)).json();
    expect(body).to.have.property('public_key', newKey.webhooks);
    expect(body)
      .to.have.property('previous_public_keys')
      .that.deep.includes({
        public_key: oldKey.webhooks,
        accepted_until: (await publishedKeys(base('webhooks'))).previousKeys[0]!.acceptedUntil,
      });
  });

  it('docverify: an encrypted /verify made with the old key is answered under the old shared key', async () => {
    const caller = new CachingCaller(
      base('docverify'),
      oldKey.docverify,
      world.platform.licences.service,
    );
    const res = await caller.call('POST', '/verify', caller.sealed(world.verifyBody()));
    expect(res.status).to.equal(200);
    const answer = (await res.json()) as {
      data: string;
      publicKey: string;
      currentPublicKey?: string;
    };
    expect(answer.publicKey).to.equal(oldKey.docverify);
    expect(answer.currentPublicKey).to.equal(newKey.docverify);
    const result = caller.open<{ status: string; verificationId: string }>(answer.data);
    expect(result.verificationId).to.be.a('string');
    expect(result.status).to.be.a('string');
  });

  it('webhooks: an event encrypted with the old key is taken, and its callback verifies with the new key only', async () => {
    // the dispatcher (its own process in production) follows the reset within its 5 s refresh
    const dispatcherKeys = world.dispatcher!.runtime.serviceKeys;
    await eventually(
      'the dispatcher to follow the reset',
      async () => (await dispatcherKeys.currentKey()).key.keyId === newKey.webhooks,
      { timeoutMs: 10_000, intervalMs: 200 },
    );
    const { community, licences } = world.platform;
    const caller = new CachingCaller(base('webhooks'), oldKey.webhooks, licences.service);
    const path = `/tenant/${community.tenantId}/community/${community.id}/event/E_IDV_DOCUMENT_VALIDATE`;
    const data = { dvcID: 'kyc', docType: 'dl', status: 'verified' };
    const res = await caller.call('PUT', path, caller.sealed(data));
    expect(res.status).to.equal(202);
    const { eventId } = (await res.json()) as { eventId: string };

    const callback = await eventually('the callback delivered', () =>
      world.sink!.received.find((r) => r.body.includes(eventId)),
    );
    const header = (name: string) => String(callback.headers[name]);
    const content = `${header('webhook-id')}.${header('webhook-timestamp')}.${callback.body}`;
    const signature = header('webhook-signature');
    expect(v1kVerifies(signature, content, newKey.webhooks), 'current key').to.equal(true);
    // a replaced key never signs: one that leaked cannot vouch for callbacks during its grace
    expect(v1kVerifies(signature, content, oldKey.webhooks), 'previous key').to.equal(false);
    expect(signature.split(' ').filter((e) => e.startsWith('v1k,'))).to.have.length(1);
  });

  it('a second replica learns of the reset within its refresh and accepts both keys', async () => {
    const keys = await eventually(
      'the replica to publish the new key',
      async () => {
        const published = await publishedKeys(replica.server.url);
        return published.publicKey === newKey.docverify ? published : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 200 },
    );
    expect(keys.previousKeys.map((p) => p.publicKey)).to.deep.equal([oldKey.docverify]);

    const old = await replicaCaller.call('GET', '/servicekeys');
    expect(old.status).to.equal(200);
    expect(old.headers.get('service-key-current')).to.equal(newKey.docverify);
    const fresh = await CachingCaller.at(replica.server.url, world.platform.licences.system);
    expect((await fresh.call('GET', '/servicekeys')).status).to.equal(200);
  });
});
