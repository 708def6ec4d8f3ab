// Issue 14, finding 2: a licence for a community NAMED like another community's id must not reach
// that other community. Paths of docverify and webhooks carry community ids, matched by id only.
import { expect } from 'chai';
import { IdvClient } from '@idv/client';
import { LicenceStore, type Community } from '@idv/platform';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

describe('security: a community named like another community id reaches nothing of it', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;
  let victim: Community;
  let sibling: Community;
  let attacker: IdvClient;
  let attackerOfWebhooks: IdvClient;

  /** A community of `tenantId` named `name`, stored as before names were checked, and a licence. */
  async function impostor(tenantId: string, name: string): Promise<string> {
    const [row] = (await platform.database
      .db('platform.communities')
      .insert({ tenant_id: tenantId, name })
      .returning('id')) as { id: string }[];
    const store = new LicenceStore(platform.database.db);
    return (await store.create({ level: 'service', communityIds: [row!.id] })).licenseKey;
  }

  before(async () => {
    platform = await startPlatform();
    // the victim: another tenant's community with a verifier, a config and a webhook
    victim = platform.otherCommunity;
    const system = (service: 'docverify' | 'webhooks') =>
      new IdvClient({
        baseUrl: platform.services[service].url,
        licenseKey: platform.licences.system,
      });
    const verifier = await system('docverify').request('PUT', `/verifier/community/${victim.id}`, {
      name: 'Victim provider',
      tag: 'victim-provider',
      type: 'identity_data',
      connectorUrl: 'https://provider.example',
      config: { apiKey: 'victim-secret-key' },
    });
    const config = await system('docverify').request(
      'PUT',
      `/verificationConfig/community/${victim.id}`,
      {
        tenantId: victim.tenantId,
        tag: 'victim-kyc',
        ssn_verify: [{ verifier: 'victim-provider' }],
      },
    );
    expect([verifier.status, config.status]).to.deep.equal([200, 200]);
    const attackerKey = await impostor(platform.community.tenantId, victim.id);
    attacker = new IdvClient({ baseUrl: platform.services.docverify.url, licenseKey: attackerKey });

    // webhooks check the tenant too: this impostor sits in its victim's own tenant
    sibling = platform.community;
    const webhook = await system('webhooks').request(
      'PUT',
      `/tenant/${sibling.tenantId}/community/${sibling.id}/webhook`,
      {
        name: 'victim callbacks',
        eventNames: ['E_IDV_DOCUMENT_VALIDATE'],
        api: { type: 'POST', url: 'https://callbacks.example/hook', authType: 'none' },
        successCodes: [200],
      },
    );
    expect(webhook.status).to.equal(200);
    attackerOfWebhooks = new IdvClient({
      baseUrl: platform.services.webhooks.url,
      licenseKey: await impostor(sibling.tenantId, sibling.id),
    });
  });
  after(async () => platform?.stop());

  const docverify: [string, string, string, unknown?][] = [
    ['lists the verifiers', 'GET', '/verifier/community/{c}'],
    ['reads a verifier', 'GET', '/verifier/community/{c}/victim-provider'],
    ['patches a verifier', 'PATCH', '/verifier/community/{c}/victim-provider', { name: 'mine' }],
    ['deletes a verifier', 'DELETE', '/verifier/community/{c}/victim-provider'],
    ['lists the configs', 'GET', '/verificationConfig/community/{c}'],
    ['patches a config', 'PATCH', '/verificationConfig/community/{c}/victim-kyc', { name: 'x' }],
  ];
  for (const [what, method, path, body] of docverify) {
    it(`docverify: the impostor's licence ${what} of the victim community: 403`, async () => {
      const res = await attacker.request(method, path.replace('{c}', victim.id), body);
      expect(res.status, JSON.stringify(res.body)).to.equal(403);
    });
  }

  it('docverify: the victim verifier is untouched and its secret never shown', async () => {
    const system = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.system,
    });
    const res = await system.request<{ name: string }>(
      'GET',
      `/verifier/community/${victim.id}/victim-provider`,
    );
    expect(res.body.name).to.equal('Victim provider');
  });

  const webhooks: [string, string, string, unknown?][] = [
    ['fetches the webhooks', 'POST', '/webhooks/fetch', {}],
    [
      'publishes an event',
      'PUT',
      '/event/E_IDV_DOCUMENT_VALIDATE',
      { dvcID: 'kyc', docType: 'dl', status: 'verified' },
    ],
    [
      'creates a webhook',
      'PUT',
      '/webhook',
      {
        name: 'x',
        eventNames: ['E_IDV_DOCUMENT_VALIDATE'],
        api: { type: 'POST', url: 'https://attacker.example/', authType: 'none' },
        successCodes: [200],
      },
    ],
  ];
  for (const [what, method, path, body] of webhooks) {
    it(`webhooks: the impostor's licence ${what} of a sibling community: 403`, async () => {
      const base = `/tenant/${sibling.tenantId}/community/${sibling.id}`;
      const res = await attackerOfWebhooks.request(method, base + path, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(403);
    });
  }
});
