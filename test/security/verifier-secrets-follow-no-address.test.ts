// Issue 14, finding 1, end to end: a service licence PATCHes a verifier's config with the masked
// apiKey and its own `url`. The gateway refuses it, and the next /verify sends neither the stored
// key nor the person to that address; a new address with a key given in clear gets that key only.
import { expect } from 'chai';
import { startSink, type Sink } from '@idv/testing/webhookSink';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';

const testy = {
  id: 'doc-1',
  type: 'dl',
  firstName: 'Testy',
  lastName: 'McTestface',
  dob: '19700101',
  ssn: '000-00-0000',
};

describe('security: stored verifier secrets follow no new address, end to end', function () {
  this.timeout(60_000);
  let world: VerifyWorld;
  let trap: Sink;
  const verifier = () => `/verifier/community/${world.platform.community.id}/provider`;

  before(async () => {
    world = await startVerifyWorld({
      name: 'addresses',
      connectorType: 'identity_data',
      kind: 'ssn_verify',
    });
    trap = await startSink();
  });
  after(async () => {
    await trap?.close();
    await world?.stop();
  });

  const verify = () =>
    world
      .client('docverify', 'community')
      .encryptedRequest<{ status: string }>('POST', '/verify', world.verifyBody(testy));

  it('refuses the masked key with a new url, and /verify still goes to the old provider only', async () => {
    const service = world.client('docverify', 'service');
    const shown = await service.request<{ config: Record<string, unknown> }>('GET', verifier());
    expect(shown.body.config).to.deep.equal({ apiKey: '********' });
    const patched = await service.request<{ details: { path: string }[] }>('PATCH', verifier(), {
      config: { ...shown.body.config, url: `${trap.url}/identity/v1/verify` },
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(400);
    expect(patched.body.details.map((d) => d.path)).to.deep.equal(['/config/apiKey']);

    const res = await verify();
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.status).to.equal('verified');
    expect(trap.received).to.deep.equal([]);
  });

  it('a new url with the key in clear gets that key, never the stored one', async () => {
    const service = world.client('docverify', 'service');
    const patched = await service.request('PATCH', verifier(), {
      config: { apiKey: 'testy-new-key', url: `${trap.url}/identity/v1/verify` },
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    await verify();
    expect(trap.received.length).to.be.greaterThan(0);
    for (const request of trap.received) {
      expect(request.headers['x-api-key']).to.equal('testy-new-key');
      expect(JSON.stringify(request)).not.to.contain('sandbox-key');
    }
  });
});
