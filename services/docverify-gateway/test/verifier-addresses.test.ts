// Issue 14, finding 1: stored verifier secrets never follow a new address. Through the real
// gateway: a PATCH that changes connectorUrl or any address member of the config (nested, in
// arrays, added or removed) with a masked secret is 400 naming each masked secret, and nothing is
// stored; unchanged addresses keep masked secrets as before.
import { expect } from 'chai';
import { IdvClient } from '@idv/client';
import { CONFIG_MEMBER_ROLES, type ConnectorType } from '@idv/contracts';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

const MASK = '********';
const at = (name: string) => `https://provider.example/${name}`;
const ATTACKER = 'https://attacker.example/collect';

/** A config per type with every secret and every address set. */
const FULL: Partial<Record<ConnectorType, Record<string, unknown>>> = {
  license_registry: {
    primaryAuthUrl: at('pa'),
    primaryDLDVUrl: at('pv'),
    secondaryAuthUrl: at('sa'),
    secondaryDLDVUrl: at('sv'),
    valueFreeDldvPrimaryUrl: at('vp'),
    valueFreeDldvSecondaryUrl: at('vs'),
    passphrase: 'testy-passphrase',
    messageOriginatorId: 'IDV',
  },
  identity_data: { apiKey: 'testy-key', url: at('identity') },
  liveness: {
    apiKey: 'testy-key',
    url: at('face'),
    documentApiKey: 'testy-doc-key',
    documentLivenessCheckAPI: at('doc'),
  },
  face_compare_a: {
    accounts: [
      { apiKey: 'testy-key-1', url: at('a1'), urlVerify: at('a1/verify') },
      { apiKey: 'testy-key-2', url: at('a2'), urlVerify: at('a2/verify') },
    ],
    retryCount: 1,
  },
  face_compare_b: { apiKey: 'testy-key', url: at('compare') },
  agent_review: { apiKey: 'testy-key', url: at('agent') },
  auto_review: { apiKey: 'testy-key', url: at('auto') },
  people_search: {
    apName: 'idv',
    apPassword: 'testy-password',
    url: at('search'),
    verifyUrl: at('verify'),
    personSearchUrl: at('person'),
  },
  document_auth_a: {
    airAccessKey: 'testy-access',
    airSecretToken: 'testy-token',
    airAPI: at('air'),
    faceAPI: at('face'),
    faceAPIKey: 'testy-face-key',
    documentLivenessCheckAPI: at('doc'),
    scan_url: at('scan'),
    scan_cert: '{"cert":"testy"}',
    scan_key: '{"key":"testy"}',
  },
  document_auth_b: {
    clientUrl: at('token'),
    clientId: 'client',
    clientSecretKey: 'testy-secret',
    apiUrl: at('api'),
    apiKey: 'testy-key',
    faceAPIKey: 'testy-face-key',
  },
  document_auth_c: {
    license: 'testy-licence',
    clientId: 'client',
    clientSecret: 'testy-secret',
    verifierUrl: at('v1'),
    verifierUrlV2: at('v2'),
    document_share_session_enabled: false,
  },
};

/** A copy of `config` with the member at `pointer` set (or removed when value is undefined). */
function setAt(config: unknown, pointer: string, value: unknown): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
  const parts = pointer.split('/').slice(1);
  const last = parts.pop()!;
  let node = copy as Record<string, unknown>;
  for (const part of parts) node = node[part] as Record<string, unknown>;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

/** Concrete pointers of a role path in `config` ('accounts/*\/url' -> /accounts/0/url, ...). */
function pointers(config: Record<string, unknown>, path: string): string[] {
  const [head, star, tail] = path.split('/');
  if (star !== '*') return [`/${head}`];
  return (config[head!] as unknown[]).map((_, i) => `/${head}/${i}/${tail}`);
}

describe('docverify gateway: stored secrets never follow a new address', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;
  let system: IdvClient;
  let service: IdvClient;
  const path = () => `/verifier/community/${platform.community.id}`;

  before(async () => {
    platform = await startPlatform();
    const base = platform.services.docverify.url;
    system = new IdvClient({ baseUrl: base, licenseKey: platform.licences.system });
    service = new IdvClient({ baseUrl: base, licenseKey: platform.licences.service });
    for (const [type, config] of Object.entries(FULL)) {
      const res = await system.request('PUT', path(), {
        name: type,
        tag: type.replaceAll('_', '-'),
        type,
        connectorUrl: 'https://provider.example',
        config,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  });
  after(async () => platform?.stop());

  const stored = async (tag: string) =>
    (await system.request<{ config: unknown; connectorUrl: string }>('GET', `${path()}/${tag}`))
      .body;
  const shown = async (tag: string) =>
    (await service.request<{ config: Record<string, unknown> }>('GET', `${path()}/${tag}`)).body
      .config;

  for (const [type, full] of Object.entries(FULL) as [ConnectorType, Record<string, unknown>][]) {
    const tag = type.replaceAll('_', '-');
    const secrets = CONFIG_MEMBER_ROLES[type].secrets.flatMap((p) => pointers(full, p));
    const addresses = CONFIG_MEMBER_ROLES[type].addresses.flatMap((p) => pointers(full, p));

    it(`${type}: the masked config sent back unchanged keeps every secret`, async () => {
      const res = await service.request('PATCH', `${path()}/${tag}`, { config: await shown(tag) });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect((await stored(tag)).config).to.deep.equal(full);
    });

    for (const address of addresses) {
      for (const [change, value] of [
        ['aimed elsewhere', ATTACKER],
        ['removed', undefined],
      ] as const) {
        it(`${type}: ${address} ${change} with masked secrets is 400 naming each, nothing stored`, async () => {
          const config = setAt(await shown(tag), address, value);
          const res = await service.request<{ details: { path: string }[] }>(
            'PATCH',
            `${path()}/${tag}`,
            { config },
          );
          expect(res.status, JSON.stringify(res.body)).to.equal(400);
          expect(res.body.details.map((d) => d.path).sort()).to.deep.equal(
            secrets.map((p) => `/config${p}`).sort(),
          );
          expect((await stored(tag)).config).to.deep.equal(full);
        });
      }
    }

    it(`${type}: a changed connectorUrl with masked secrets is 400, nothing stored`, async () => {
      const res = await service.request('PATCH', `${path()}/${tag}`, {
        connectorUrl: ATTACKER,
        config: await shown(tag),
      });
      expect(res.status).to.equal(400);
      expect(await stored(tag)).to.deep.include({
        config: full,
        connectorUrl: 'https://provider.example',
      });
    });
  }

  it('face_compare_a: reordered accounts would send each key to the other provider: 400', async () => {
    const config = await shown('face-compare-a');
    const accounts = config.accounts as unknown[];
    const res = await service.request('PATCH', `${path()}/face-compare-a`, {
      config: { ...config, accounts: [...accounts].reverse() },
    });
    expect(res.status).to.equal(400);
  });

  it('an address may change when every secret comes in clear; the old ones are gone', async () => {
    const res = await service.request('PATCH', `${path()}/identity-data`, {
      config: { apiKey: 'testy-new-key', url: at('identity-v2') },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect((await stored('identity-data')).config).to.deep.equal({
      apiKey: 'testy-new-key',
      url: at('identity-v2'),
    });
    const dropped = await service.request('PATCH', `${path()}/identity-data`, {
      config: { url: at('identity-v3') },
    });
    expect(dropped.status).to.equal(200);
    expect((await stored('identity-data')).config).to.deep.equal({ url: at('identity-v3') });
  });

  it('a create with a masked secret is 400 naming it: there is nothing stored to keep', async () => {
    const res = await service.request<{ details: { path: string }[] }>('PUT', path(), {
      name: 'copied',
      tag: 'copied',
      type: 'face_compare_a',
      connectorUrl: 'https://provider.example',
      config: { accounts: [{ apiKey: MASK, url: at('x'), urlVerify: at('x/verify') }] },
    });
    expect(res.status).to.equal(400);
    expect(res.body.details.map((d) => d.path)).to.deep.equal(['/config/accounts/0/apiKey']);
  });
});
