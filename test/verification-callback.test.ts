// Across the platform: a webhook subscribed to E_IDV_DOCUMENT_VALIDATE receives a signed callback
// after a dl_authenticate request to the docverify gateway.
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';

describe('a verification reaches a webhook', function () {
  this.timeout(60_000);
  let world: VerifyWorld;

  before(async () => {
    world = await startVerifyWorld({
      name: 'callback',
      connectorType: 'agent_review',
      kind: 'dl_authenticate',
      dispatcher: true,
    });
  });
  after(async () => world?.stop());

  it('delivers E_IDV_DOCUMENT_VALIDATE, signed, without personal data', async () => {
    const created = await world.subscribe('/idv', ['E_IDV_DOCUMENT_VALIDATE']);
    const verified = await world
      .client('docverify', 'service')
      .encryptedRequest<{ status: string }>(
        'POST',
        '/verify',
        world.verifyBody({
          id: 'doc-7',
          type: 'DL',
          front_image: Buffer.from('DOC:testy').toString('base64'),
        }),
      );
    expect(verified.status).to.equal(200);

    const [callback] = await world.sink!.waitFor(1, '/idv', 20_000);
    expect(created.secret).to.match(/^whsec_/);
    const payload = new Webhook(created.secret).verify(
      callback!.body,
      callback!.headers as Record<string, string>,
    ) as Record<string, unknown>;
    expect(JSON.stringify(payload)).to.contain('E_IDV_DOCUMENT_VALIDATE');
    expect(callback!.body).not.to.match(/McTestface|Testy|doc-7/);
  });
});
