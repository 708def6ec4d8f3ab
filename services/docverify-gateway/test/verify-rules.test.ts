// POST /verify refuses every broken rule of spec 2.2 with a 400 naming the field, an image over
// the limits with a 422 and one over its community's image budget with a 429, finds the config by
// dvcID in the licence's communities, and answers 503 when no connector worker is there.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { LicenceStore, TenantStore } from '@idv/platform';
import { IdvClient } from '@idv/client';
import { documentImage, hugePngHeader, png } from '@idv/samples/captureImages';
import { EOI, jpegSegment, pngHeaderOnly, SOI, sof0 } from '@idv/samples/craftedImages';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

const IMG = Buffer.from('FACE:testy').toString('base64');
const ADMIN = new URL('../../admin-cli/src/main.ts', import.meta.url).pathname;

function request(
  verifications: string[],
  document: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    dvcID: 'kyc',
    verifications,
    document: { id: 'doc-1', type: 'dl', ...document },
    ...extra,
  };
}

const broken: [string, Record<string, unknown>, string][] = [
  [
    'no dvcID',
    {
      verifications: ['face_compare'],
      document: { id: 'd', type: 'dl', image1: IMG, image2: IMG },
    },
    '/dvcID',
  ],
  ['an unknown kind', request(['palm_read'], {}), '/verifications/0'],
  ['no verifications', request([], {}), '/verifications'],
  [
    'no document id',
    {
      dvcID: 'kyc',
      verifications: ['face_compare'],
      document: { type: 'dl', image1: IMG, image2: IMG },
    },
    '/document/id',
  ],
  [
    'no document type',
    {
      dvcID: 'kyc',
      verifications: ['face_compare'],
      document: { id: 'd', image1: IMG, image2: IMG },
    },
    '/document/type',
  ],
  [
    'a number where a string goes',
    request(['dl_verify'], { documentType: 'DL', country: 'USA', firstName: 7 }),
    '/document/firstName',
  ],
  [
    'dl_verify without documentType',
    request(['dl_verify'], { country: 'USA' }),
    '/document/documentType',
  ],
  [
    'dl_verify without country',
    request(['dl_verify'], { documentType: 'DL' }),
    '/document/country',
  ],
  [
    'face_liveness with a bad purpose',
    request(['face_liveness'], { liveId: IMG, purpose: 'fun' }),
    '/document/purpose',
  ],
  [
    'face_liveness with a bad operating system',
    request(['face_liveness'], { metaHeaders: { operatingSystem: 'BEOS' } }),
    '/document/metaHeaders/operatingSystem',
  ],
  ['face_compare with one image', request(['face_compare'], { image1: IMG }), '/document/image2'],
  [
    'face_compare with liveId but no image2',
    request(['face_compare'], { liveId: IMG, image1: IMG }),
    '/document/image2',
  ],
  [
    'face_compare with a registration purpose',
    request(['face_compare'], { image1: IMG, image2: IMG, purpose: 'registration' }),
    '/document/purpose',
  ],
  [
    'ssn_verify with firstName but no lastName',
    request(['ssn_verify'], { firstName: 'Testy', ssn: '000-00-0000' }),
    '/document/lastName',
  ],
  ['ssn_verify with a bad dob', request(['ssn_verify'], { dob: '1990.01.02' }), '/document/dob'],
  [
    'ssn_verify with an impossible dob',
    request(['ssn_verify'], { dob: '1990-02-31' }),
    '/document/dob',
  ],
  [
    'person_verify without firstName',
    request(['person_verify'], { lastName: 'McTestface', dob: '19900102' }),
    '/document/firstName',
  ],
  [
    'person_verify with a dashed dob',
    request(['person_verify'], { firstName: 'Testy', lastName: 'McTestface', dob: '1990-01-02' }),
    '/document/dob',
  ],
  [
    'dl_authenticate with type ppt',
    request(['dl_authenticate'], { type: 'ppt', front_image: IMG }),
    '/document/type',
  ],
  [
    'ppt_authenticate with type dl',
    request(['ppt_authenticate'], { front_image: IMG }),
    '/document/type',
  ],
  [
    'idcard_authenticate with type DL',
    request(['idcard_authenticate'], { type: 'DL', front_image: IMG }),
    '/document/type',
  ],
  [
    'a presigned URL that is no URI',
    request(['document_liveness'], { imageUrl: 'not a url' }),
    '/document/imageUrl',
  ],
  [
    'an image that is not base64',
    request(['document_liveness'], { image: '<svg/>' }),
    '/document/image',
  ],
  [
    'event_info with a number',
    request(['document_liveness'], { image: IMG }, { event_info: { ipAddress: 10 } }),
    '/event_info/ipAddress',
  ],
  [
    'event_info with an unknown member',
    request(['document_liveness'], { image: IMG }, { event_info: { mood: 'ok' } }),
    '/event_info',
  ],
  [
    'an unknown document member',
    request(['document_liveness'], { image: IMG, shoeSize: '9' }),
    '/document',
  ],
];

describe('docverify gateway: POST /verify validation', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;
  let client: IdvClient;

  before(async () => {
    platform = await startPlatform({
      VERIFY_DEADLINE_MS: '500',
      CONNECTOR_QUEUE_PREFIX: `test.absent.${randomBytes(4).toString('hex')}`,
    });
    const base = platform.services.docverify.url;
    const admin = new IdvClient({ baseUrl: base, licenseKey: platform.licences.system });
    const c = platform.community.id;
    await admin.request('PUT', `/verifier/community/${c}`, {
      name: 'Faces',
      tag: 'faces',
      type: 'face_cloud',
      connectorUrl: 'http://127.0.0.1:9/none',
      config: {},
    });
    const cfg = await admin.request('PUT', `/verificationConfig/community/${c}`, {
      tenantId: platform.community.tenantId,
      tag: 'kyc',
      face_compare: [{ verifier: 'faces' }],
    });
    expect(cfg.status).to.equal(200);
    client = new IdvClient({ baseUrl: base, licenseKey: platform.licences.community });
  });
  after(async () => platform?.stop());

  for (const [name, body, field] of broken) {
    it(`400 for ${name}, naming ${field}`, async () => {
      const res = await client.encryptedRequest<{
        statusCode: number;
        message: string;
        details: { path: string }[];
      }>('POST', '/verify', body);
      expect(res.status).to.equal(400);
      expect(res.body.details.map((d) => d.path)).to.include(field);
    });
  }

  it('400 for a body that is not encrypted JSON', async () => {
    expect(
      (await client.request('POST', '/verify', { data: 'bm90IGVuY3J5cHRlZA==' })).status,
    ).to.equal(400);
    expect((await client.request('POST', '/verify', {})).status).to.equal(400);
    expect(
      (await client.request('POST', '/verify', { data: await client.encryptJson('[1,2') })).status,
    ).to.equal(400);
  });

  it('422 for an image over the pixel or decoded-byte limit, naming it, sync or async; other bytes go on', async () => {
    const bomb = hugePngHeader(20_000, 20_000).toString('base64');
    for (const prefer of [{}, { Prefer: 'respond-async' }]) {
      const res = await client.encryptedRequest<{
        statusCode: number;
        message: string;
        details: { path: string; message: string }[];
      }>('POST', '/verify', request(['face_compare'], { image1: IMG, image2: bomb }), prefer);
      expect(res.status).to.equal(422);
      expect(res.body.details).to.deep.equal([
        {
          path: '/document/image2',
          message: 'the image is 20000x20000 pixels, over the limit of 50 megapixels',
        },
      ]);
    }
    // 16-bit RGBA: 30 megapixels, under the pixel cap, 240 MB of samples over the byte cap
    const deep = pngHeaderOnly({ width: 6000, height: 5000, bitDepth: 16, colourType: 6 }).toString(
      'base64',
    );
    const res = await client.encryptedRequest<{ details: { path: string; message: string }[] }>(
      'POST',
      '/verify',
      request(['face_compare'], { image1: deep, image2: IMG }),
    );
    expect(res.status).to.equal(422);
    expect(res.body.details[0]?.path).to.equal('/document/image1');
    expect(res.body.details[0]?.message).to.match(/decodes to 240 MB/);
    // a JPEG whose frame header comes after 240 KB of EXIF segments, past what is read first
    const exif = Array.from({ length: 4 }, () => jpegSegment(0xe1, Buffer.alloc(60_000, 0x41)));
    const late = Buffer.concat([SOI, ...exif, sof0(10_000, 10_000), EOI]).toString('base64');
    const lateRes = await client.encryptedRequest<{ details: { path: string; message: string }[] }>(
      'POST',
      '/verify',
      request(['face_compare'], { image1: IMG, image2: late }),
    );
    expect(lateRes.status).to.equal(422);
    expect(lateRes.body.details).to.deep.equal([
      {
        path: '/document/image2',
        message: 'the image is 10000x10000 pixels, over the limit of 50 megapixels',
      },
    ]);
    // an image within the limits, or bytes of no image format the platform reads, is not judged here
    const fine = await client.encryptedRequest(
      'POST',
      '/verify',
      request(['face_compare'], {
        image1: IMG,
        image2: (await png(documentImage(640, 480, 3))).toString('base64'),
      }),
    );
    expect(fine.status).to.equal(503); // no connector worker on this suite's queues
  });

  it("429 with Retry-After past its community's image budget, sync or async, other communities unaffected; the admin CLI sizes a budget", async function () {
    this.timeout(90_000); // two admin CLI processes
    const db = platform.database.db;
    const admin = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.system,
    });
    /** a community of its own with the config kyc and a service licence's client */
    const community = async () => {
      const tenants = new TenantStore(db);
      const tenant = await tenants.createTenant(`budget-${randomBytes(3).toString('hex')}`);
      const made = await tenants.createCommunity(
        tenant.id,
        `budget-${randomBytes(3).toString('hex')}`,
      );
      await admin.request('PUT', `/verifier/community/${made.id}`, {
        name: 'Faces',
        tag: 'faces',
        type: 'face_cloud',
        connectorUrl: 'http://127.0.0.1:9/none',
        config: {},
      });
      await admin.request('PUT', `/verificationConfig/community/${made.id}`, {
        tenantId: tenant.id,
        tag: 'kyc',
        face_compare: [{ verifier: 'faces' }],
      });
      const { licenseKey } = await new LicenceStore(db).create({
        level: 'service',
        communityIds: [made.id],
      });
      const caller = new IdvClient({ baseUrl: platform.services.docverify.url, licenseKey });
      return { id: made.id, caller };
    };
    const run = (env: Record<string, string>, ...args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', ADMIN, ...args], {
        env: { ...process.env, ...platform.env, ...env },
      }).then(({ stdout }) => JSON.parse(stdout) as Record<string, unknown>);
    const [small, other] = [await community(), await community()];
    const set = await run(
      {},
      'ratelimit',
      'set',
      '--images',
      small.id,
      '--rps',
      '0.01',
      '--burst',
      '100',
    );
    expect(set).to.deep.include({ scope: 'images', id: small.id, rps: 0.01, burst: 100 });
    // 20 megapixels of RGBA: 80 MB to decode (the header is all the gateway reads)
    const photo = pngHeaderOnly({ width: 5000, height: 4000, bitDepth: 8, colourType: 6 });
    const body = request(['face_compare'], { image1: IMG, image2: photo.toString('base64') });
    const send = (caller: IdvClient, prefer = {}) =>
      caller.encryptedRequest<{ statusCode: number; message: string }>(
        'POST',
        '/verify',
        body,
        prefer,
      );
    // within the budget: on to the connector (none on this suite's queues: 503)
    expect((await send(small.caller)).status).to.equal(503);
    for (const prefer of [{}, { Prefer: 'respond-async' }]) {
      const refused = await send(small.caller, prefer);
      expect(refused.status).to.equal(429);
      // 80 MB asked, 20 left: 60 at 0.01 MB a second
      expect(Number(refused.headers.get('retry-after'))).to.be.within(5990, 6000);
      expect(refused.body).to.include({ statusCode: 429 });
      expect(refused.body.message).to.contain(`image budget of community ${small.id} is spent`);
    }
    // the same image behind 300 KB of whitespace (which base64 decoders skip) costs the same
    const spaced = request(['face_compare'], {
      image1: IMG,
      image2: ' '.repeat(300_000) + photo.toString('base64'),
    });
    expect((await small.caller.encryptedRequest('POST', '/verify', spaced)).status).to.equal(429);
    // a request refused for its own fault is refused as such, before the budget is asked
    const unconfigured = request(['document_liveness'], { image: photo.toString('base64') });
    expect((await small.caller.encryptedRequest('POST', '/verify', unconfigured)).status).to.equal(
      400,
    );
    // another community's budget is its own; images of no format the gateway reads cost nothing
    expect((await send(other.caller)).status).to.equal(503);
    const text = request(['face_compare'], { image1: IMG, image2: IMG });
    expect((await small.caller.encryptedRequest('POST', '/verify', text)).status).to.equal(503);
    const shown = await run({}, 'ratelimit', 'show', '--images', small.id);
    expect(shown).to.deep.include({ scope: 'images', rps: 0.01, burst: 100, source: 'operator' });
    const missing = await run({}, 'ratelimit', 'set', '--images', randomUUID(), '--rps', '1').catch(
      (err: { stderr: string }) => err.stderr,
    );
    expect(missing).to.match(/community .* not found/);
  });

  it('404 for a dvcID outside the licence community, 400 for a kind the config lacks', async () => {
    const other = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.serviceElsewhere,
    });
    const ok = request(['face_compare'], { image1: IMG, image2: IMG });
    expect((await other.encryptedRequest('POST', '/verify', ok)).status).to.equal(404);
    const lacking = request(['document_liveness'], { image: IMG });
    const res = await client.encryptedRequest<{ message: string }>('POST', '/verify', lacking);
    expect(res.status).to.equal(400);
    expect(res.body.message).to.match(/no verifier for document_liveness/);
  });

  it('503 with the error body when no connector worker answers', async () => {
    const res = await client.encryptedRequest<{ statusCode: number; message: string }>(
      'POST',
      '/verify',
      request(['face_compare'], { image1: IMG, image2: IMG }),
    );
    expect(res.status).to.equal(503);
    expect(res.body).to.include({ statusCode: 503 });
    expect(res.body.message).to.match(/face_compare/);
  });

  it('401 without credentials', async () => {
    const res = await fetch(`${platform.services.docverify.url}/verify`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).to.equal(401);
  });
});
