// Well-known, verifiers and verification configs through the real gateway, as an outside caller.
import { expect } from 'chai';
import { IdvClient } from '@idv/client';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

const faceCloud = {
  name: 'Cloud faces',
  tag: 'faces-1',
  type: 'face_cloud',
  connectorUrl: 'http://127.0.0.1:8090/face-cloud',
  config: {
    awsAccessKey: 'AKIDEXAMPLE',
    awsSecretKey: 'not-a-real-secret',
    awsRegion: 'us-east-1',
  },
};

describe('docverify gateway: well-known, verifiers and configs', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;
  let system: IdvClient;
  let service: IdvClient;
  let base: string;
  let community: string;

  before(async () => {
    platform = await startPlatform();
    base = platform.services.docverify.url;
    community = platform.community.id;
    system = new IdvClient({ baseUrl: base, licenseKey: platform.licences.system });
    service = new IdvClient({ baseUrl: base, licenseKey: platform.licences.service });
  });
  after(async () => platform?.stop());

  it('GET /.well-known answers the constants of spec 2.1 without credentials', async () => {
    const res = await fetch(`${base}/.well-known`);
    expect(res.status).to.equal(200);
    const body = (await res.json()) as Record<string, unknown> & {
      journeyTypes: { value: string }[];
      livenessLevels: { value: string }[];
    };
    expect(body.journeyTypes.map((j) => j.value)).to.deep.equal([
      'KYC_WITH_FACE_COMPARISON',
      'DOCUMENT_VERIFICATION_ONLY',
    ]);
    expect(body.livenessLevels.map((j) => j.value)).to.deep.equal(['REGULAR', 'SOFT', 'HARDENED']);
    expect(body).to.deep.include({
      retryCount: { maxValue: 4, defaultValue: 2 },
      selfieRetryCount: { maxValue: 10, defaultValue: 3 },
      expireSessionInMin: 10080,
      abandonSessionInMin: 60,
      faceMatchingScore: 50,
    });
  });

  describe('verifiers', () => {
    const path = () => `/verifier/community/${community}`;

    it('answers 404 while the community has none', async () => {
      expect((await system.request('GET', path())).status).to.equal(404);
    });

    it('creates a verifier, seals its config and masks secrets for non-system licences', async () => {
      const created = await service.request<Record<string, unknown>>('PUT', path(), faceCloud);
      expect(created.status).to.equal(200);
      expect(created.body).to.include({
        tag: 'faces-1',
        type: 'face_cloud',
        communityId: community,
      });
      expect(created.body.config).to.deep.equal({ ...faceCloud.config, awsSecretKey: '********' });
      const asSystem = await system.request<{ config: unknown }>('GET', `${path()}/faces-1`);
      expect(asSystem.body.config).to.deep.equal(faceCloud.config);
      const rows = JSON.stringify(await platform.database.db('docverify.verifiers').select());
      expect(rows).not.to.contain('not-a-real-secret');
      const byId = await service.request('GET', `${path()}/${String(created.body.id)}`);
      expect(byId.status).to.equal(200);
      const list = await service.request<unknown[]>('GET', path());
      expect(list.body).to.have.length(1);
    });

    const bad: [string, Record<string, unknown>, RegExp][] = [
      ['no name', { ...faceCloud, name: undefined }, /name/],
      ['no tag', { ...faceCloud, tag: undefined }, /tag/],
      ['no type', { ...faceCloud, type: undefined }, /type/],
      ['no connectorUrl', { ...faceCloud, connectorUrl: undefined }, /connectorUrl/],
      ['no config', { ...faceCloud, config: undefined }, /config/],
      ['a tag with a space', { ...faceCloud, tag: 'has space' }, /tag/],
      [
        'a tag shaped like an id',
        { ...faceCloud, tag: '0b9a1c2d-1111-2222-3333-444455556666' },
        /tag/,
      ],
      ['an unknown type', { ...faceCloud, type: 'psychic' }, /type/],
      [
        'a connectorUrl that is no URI',
        { ...faceCloud, connectorUrl: 'not a uri' },
        /connectorUrl/,
      ],
      [
        'a config member of another type',
        { ...faceCloud, tag: 'x1', config: { apiKey: 'k' } },
        /\/config/,
      ],
      [
        'a nested config of the wrong shape',
        {
          ...faceCloud,
          tag: 'x2',
          type: 'face_compare_a',
          config: { accounts: [{ apiKey: 'k' }] },
        },
        /\/config\/accounts\/0/,
      ],
      [
        'a certPath that is a path on the worker',
        {
          ...faceCloud,
          tag: 'x3',
          type: 'license_registry',
          config: { certPath: '/etc/idv/master.key' },
        },
        /\/config\/certPath/,
      ],
      [
        'a certPath climbing out of the certificate directory',
        { ...faceCloud, tag: 'x4', type: 'license_registry', config: { certPath: '../x.p12' } },
        /\/config\/certPath/,
      ],
    ];
    for (const [name, body, field] of bad) {
      it(`refuses a create with ${name}: 400 naming the field`, async () => {
        const res = await service.request<{ message: string }>(
          'PUT',
          path(),
          JSON.parse(JSON.stringify(body)),
        );
        expect(res.status).to.equal(400);
        expect(res.body.message).to.match(field);
      });
    }

    it('refuses a duplicate tag with 409', async () => {
      expect((await service.request('PUT', path(), faceCloud)).status).to.equal(409);
    });

    it('updates name, connectorUrl and config (replacing it whole), never tag or type', async () => {
      const patched = await system.request<{ name: string; config: unknown }>(
        'PATCH',
        `${path()}/faces-1`,
        {
          name: 'Cloud faces (EU)',
          config: { awsRegion: 'eu-west-1' },
        },
      );
      expect(patched.status).to.equal(200);
      expect(patched.body).to.deep.include({
        name: 'Cloud faces (EU)',
        config: { awsRegion: 'eu-west-1' },
      });
      for (const fixed of [{ tag: 'other' }, { type: 'liveness' }]) {
        const res = await system.request('PATCH', `${path()}/faces-1`, fixed);
        expect(res.status).to.equal(400);
      }
      expect(
        (await system.request('PATCH', `${path()}/faces-1`, { config: { nope: 1 } })).status,
      ).to.equal(400);
      expect((await system.request('PATCH', `${path()}/absent`, { name: 'x' })).status).to.equal(
        404,
      );
    });

    it('keeps a masked secret sent back, and never sends stored secrets to a new connectorUrl', async () => {
      const set = await system.request('PATCH', `${path()}/faces-1`, { config: faceCloud.config });
      expect(set.status).to.equal(200);
      const shown = await service.request<{ config: Record<string, unknown> }>(
        'GET',
        `${path()}/faces-1`,
      );
      const back = await service.request('PATCH', `${path()}/faces-1`, {
        config: { ...shown.body.config, awsRegion: 'eu-west-2' },
      });
      expect(back.status).to.equal(200);
      const stored = await system.request<{ config: Record<string, unknown> }>(
        'GET',
        `${path()}/faces-1`,
      );
      expect(stored.body.config).to.deep.equal({ ...faceCloud.config, awsRegion: 'eu-west-2' });
      const moved = await service.request<{ message: string }>('PATCH', `${path()}/faces-1`, {
        connectorUrl: 'https://elsewhere.example',
      });
      expect(moved.status).to.equal(400);
      expect(moved.body.message).to.match(/connectorUrl needs the config/);
      const movedMasked = await service.request('PATCH', `${path()}/faces-1`, {
        connectorUrl: 'https://elsewhere.example',
        config: shown.body.config,
      });
      expect(movedMasked.status).to.equal(400);
      await system.request('PATCH', `${path()}/faces-1`, { config: { awsRegion: 'eu-west-1' } });
      const maskedWithoutStore = await service.request<{ details: { path: string }[] }>(
        'PATCH',
        `${path()}/faces-1`,
        {
          config: { awsSecretKey: '********' },
        },
      );
      expect(maskedWithoutStore.status).to.equal(400);
      expect(maskedWithoutStore.body.details.map((d) => d.path)).to.deep.equal([
        '/config/awsSecretKey',
      ]);
    });

    const access: [string, () => IdvClient, number][] = [
      [
        'a service licence of another community',
        () => new IdvClient({ baseUrl: base, licenseKey: platform.licences.serviceElsewhere }),
        403,
      ],
      [
        'a community licence',
        () => new IdvClient({ baseUrl: base, licenseKey: platform.licences.community }),
        403,
      ],
    ];
    for (const [name, client, status] of access) {
      it(`answers ${status} to ${name}`, async () => {
        expect((await client().request('GET', path())).status).to.equal(status);
        expect((await client().request('PUT', path(), { ...faceCloud, tag: 'z' })).status).to.equal(
          status,
        );
      });
    }
    it('answers 401 without credentials', async () => {
      expect((await fetch(`${base}${path()}`)).status).to.equal(401);
    });
  });

  describe('verification configs', () => {
    const path = () => `/verificationConfig/community/${community}`;
    /** a first-name check, then `module` with `criteria` */
    const comparing = (module: string, criteria: Record<string, unknown>) => ({
      dataComparisonAttributes: [
        { module: 'firstname check', criteria: { value: 'fuzzyMatch' } },
        { module, criteria },
      ],
    });
    const kyc = () => ({
      tenantId: platform.community.tenantId,
      tag: 'kyc',
      face_compare: [{ verifier: 'faces-1' }],
    });

    it('creates a config naming verifiers of the community, name defaulting to no-name', async () => {
      const res = await service.request<Record<string, unknown>>('PUT', path(), kyc());
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ tag: 'kyc', name: 'no-name', communityId: community });
      expect(res.body.face_compare).to.deep.equal([
        { verifier: 'faces-1', skip: false, debug: false, returnRawData: false },
      ]);
    });

    const bad: [string, () => Record<string, unknown>, RegExp][] = [
      ['no tenantId', () => ({ ...kyc(), tag: 'a', tenantId: undefined }), /tenantId/],
      [
        'another tenant',
        () => ({ ...kyc(), tag: 'b', tenantId: platform.otherCommunity.tenantId }),
        /tenant/,
      ],
      [
        'no array at all',
        () => ({ tenantId: platform.community.tenantId, tag: 'c' }),
        /at least one/,
      ],
      [
        'an unknown verifier',
        () => ({ ...kyc(), tag: 'd', face_compare: [{ verifier: 'ghost' }] }),
        /invalid/,
      ],
      [
        'a verifier of the wrong kind',
        () => ({
          ...kyc(),
          tag: 'e',
          face_compare: undefined,
          ssn_verify: [{ verifier: 'faces-1' }],
        }),
        /invalid/,
      ],
      [
        'a bad settings value',
        () => ({ ...kyc(), tag: 'f', settings: { retryCount: 9 } }),
        /retryCount/,
      ],
      [
        'fuzzyMatch for the dob check (spec 2.1: eq only)',
        () => ({ ...kyc(), tag: 'h', settings: comparing('dob check', { value: 'fuzzyMatch' }) }),
        /\/settings\/dataComparisonAttributes\/1\/criteria\/value/,
      ],
      [
        'ignoreMiddleNames for the dob check',
        () => ({
          ...kyc(),
          tag: 'i',
          settings: comparing('dob check', { value: 'eq', ignoreMiddleNames: true }),
        }),
        /\/settings\/dataComparisonAttributes\/1\/criteria\/ignoreMiddleNames/,
      ],
    ];
    for (const [name, body, message] of bad) {
      it(`refuses ${name}: 400`, async () => {
        const res = await service.request<{ message: string; details?: { path: string }[] }>(
          'PUT',
          path(),
          JSON.parse(JSON.stringify(body())),
        );
        expect(res.status).to.equal(400);
        expect(res.body.message).to.match(message);
      });
    }

    it('stores minMatchScore only with fuzzyMatch (85 unless given), never with eq', async () => {
      const settings = {
        dataComparisonAttributes: [
          { module: 'firstname check', criteria: { value: 'fuzzyMatch' } },
          { module: 'lastname check', criteria: { value: 'eq', minMatchScore: 90 } },
          { module: 'dob check', criteria: { value: 'eq', minMatchScore: 90 } },
        ],
      };
      const res = await service.request<{ settings: unknown }>('PUT', path(), {
        ...kyc(),
        tag: 'scores',
        settings,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const stored = await service.request<{ settings: { dataComparisonAttributes: unknown } }>(
        'GET',
        `${path()}/scores`,
      );
      expect(stored.body.settings.dataComparisonAttributes).to.deep.equal([
        { module: 'firstname check', criteria: { value: 'fuzzyMatch', minMatchScore: 85 } },
        { module: 'lastname check', criteria: { value: 'eq' } },
        { module: 'dob check', criteria: { value: 'eq' } },
      ]);
      const patched = await service.request('PATCH', `${path()}/scores`, {
        settings: comparing('dob check', { value: 'fuzzyMatch', minMatchScore: 90 }),
      });
      expect(patched.status).to.equal(400);
      expect((await service.request('DELETE', `${path()}/scores`)).status).to.equal(204);
    });

    it('lists every reference error with its path', async () => {
      const res = await service.request<{ details: { path: string }[] }>('PUT', path(), {
        ...kyc(),
        tag: 'g',
        face_compare: [{ verifier: 'ghost' }, { verifier: 'faces-1' }],
        ssn_verify: [{ verifier: 'faces-1' }],
      });
      expect(res.body.details.map((d) => d.path)).to.deep.equal([
        '/face_compare/0/verifier',
        '/ssn_verify/0/verifier',
      ]);
    });

    it('lists, gets, updates and deletes', async () => {
      expect((await service.request<unknown[]>('GET', path())).body).to.have.length(1);
      const got = await service.request<{ id: string }>('GET', `${path()}/kyc`);
      expect(got.status).to.equal(200);
      const patched = await service.request<Record<string, unknown>>(
        'PATCH',
        `${path()}/${got.body.id}`,
        {
          name: 'KYC',
          settings: { faceMatchingScore: 70, dataRetention: { pii_retention_off: true } },
        },
      );
      expect(patched.body).to.deep.include({
        name: 'KYC',
        // the documented defaults of the retry counts are filled in
        settings: {
          faceMatchingScore: 70,
          dataRetention: { pii_retention_off: true },
          retryCount: 2,
          selfieRetryCount: 3,
        },
      });
      expect((await service.request('PATCH', `${path()}/kyc`, { tag: 'x' })).status).to.equal(400);
      expect((await service.request('PUT', path(), kyc())).status).to.equal(409);
      expect((await service.request('DELETE', `${path()}/kyc`)).status).to.equal(204);
      expect((await service.request('GET', `${path()}/kyc`)).status).to.equal(404);
    });

    it('deletes a verifier permanently', async () => {
      const v = `/verifier/community/${community}/faces-1`;
      expect((await service.request('DELETE', v)).status).to.equal(204);
      expect((await service.request('GET', v)).status).to.equal(404);
    });
  });
});
