// The common endpoints of every HTTP service, driven over real HTTP by a caller written from the
// DESIGN alone: the credential matrix, malformed headers, the helper, 404/405 and key reset.
import { expect } from 'chai';
import {
  credentialHeaders,
  newCaller,
  seal,
  shared,
  unseal,
  type RawCaller,
} from '@idv/testing/independentClient';
import { ecdsaVectors as vectors, type EcdsaVector as Vector } from '@idv/testing/ecdsaVectors';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

/** The vector's caller as the independent client holds one. */
const callerOf = (v: Vector): RawCaller => ({
  publicKey: v.callerPublicKey,
  privateKey: Buffer.from(v.callerPrivateKey, 'base64'),
});

const SERVICES = [
  { name: 'oauth', reset: 'no-content', helperField: 'dataStr', helperReturnsKey: false },
  { name: 'docverify', reset: 'key-array', helperField: 'data', helperReturnsKey: true },
  { name: 'webhooks', reset: 'key-array', helperField: 'data', helperReturnsKey: true },
] as const;

function expectErrorBody(body: unknown, status: number): void {
  expect(body).to.include({ statusCode: status });
  expect(body).to.have.property('error').that.is.a('string');
  expect(body).to.have.property('message').that.is.a('string');
}

describe('common endpoints on every HTTP service', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;

  before(async () => {
    platform = await startPlatform();
  });
  after(async () => platform?.stop());

  for (const svc of SERVICES) {
    describe(svc.name, () => {
      let base: string;
      let servicePublicKey: string;
      const get = (path: string, headers: Record<string, string> = {}) =>
        fetch(base + path, { headers });
      const withLicence = (
        licenseKey: string,
        extra: Partial<Parameters<typeof credentialHeaders>[0]> = {},
      ) => credentialHeaders({ licenseKey, servicePublicKey, ...extra });

      before(async () => {
        base = platform.services[svc.name].url;
        servicePublicKey = ((await (await get('/publickeys')).json()) as { publicKey: string })
          .publicKey;
      });

      it('GET /healthz reports status, the public key, code and a stamped version', async () => {
        const res = await get('/healthz');
        expect(res.status).to.equal(200);
        const body = (await res.json()) as Record<string, unknown>;
        expect(body).to.include({ publicKey: servicePublicKey, status: 'ok', code: '200' });
        expect(body.version).to.match(/^([^.]+\.)?[0-9a-z]+\.\d{10}$/);
        expect(body.checks).to.deep.equal({ database: 'up', broker: 'up' });
        expect(Buffer.from(servicePublicKey, 'base64')).to.have.length(64);
      });

      it('GET /sd lists the service directory', async () => {
        const body = (await (await get('/sd')).json()) as Record<string, string>;
        // `licenses` too: the vendor's helper drops a directory without it
        expect(body).to.have.all.keys('docuverify', 'oauth2', 'webhooks', 'events', 'licenses');
        // the licence endpoints (/environment, /servicekeys) are on every service: oauth's base
        expect(body.licenses).to.equal(body.oauth2);
      });

      it('GET /environment needs a valid license header and shows nothing secret', async () => {
        const res = await get('/environment', { license: platform.licences.service });
        expect(res.status).to.equal(200);
        const body = (await res.json()) as Record<string, unknown>;
        expect(body).to.include({ allowed_time_span: 60, curve: 'secp256k1' });
        expect(JSON.stringify(body)).not.to.contain(platform.licences.service);
        expectErrorBody(await (await get('/environment')).json(), 401);
        expect((await get('/environment', { license: 'lk_nope' })).status).to.equal(401);
      });

      const matrix: {
        name: string;
        headers: () => Record<string, string>;
        status: number;
        match?: RegExp;
      }[] = [
        {
          name: 'a system licence',
          headers: () => withLicence(platform.licences.system),
          status: 200,
        },
        {
          name: 'a service licence',
          headers: () => withLicence(platform.licences.service),
          status: 403,
          match: /level/,
        },
        {
          name: 'a community licence',
          headers: () => withLicence(platform.licences.community),
          status: 403,
        },
        { name: 'no headers', headers: () => ({}), status: 401, match: /missing header/ },
        {
          name: 'a ts 120 s old',
          headers: () => withLicence(platform.licences.system, { tsOffset: -120 }),
          status: 401,
          match: /time span/,
        },
        {
          name: 'a ts 120 s ahead',
          headers: () => withLicence(platform.licences.system, { tsOffset: 120 }),
          status: 401,
        },
        {
          name: 'an unknown licence',
          headers: () => withLicence('lk_unknown'),
          status: 401,
          match: /not known/,
        },
        {
          name: 'an expired licence',
          headers: () => withLicence(platform.licences.expired),
          status: 401,
          match: /expired/,
        },
        {
          name: 'a disabled licence',
          headers: () => withLicence(platform.licences.disabled),
          status: 401,
          match: /disabled/,
        },
      ];
      for (const row of matrix) {
        it(`GET /servicekeys with ${row.name}: ${row.status}`, async () => {
          const res = await get('/servicekeys', row.headers());
          expect(res.status).to.equal(row.status);
          const body = (await res.json()) as Record<string, unknown>;
          if (row.status === 200) {
            expect(body).to.be.an('array').with.length(1);
            expect((body as unknown as Record<string, unknown>[])[0]).to.include({
              keyId: servicePublicKey,
            });
            expect((body as unknown as Record<string, unknown>[])[0]).to.have.all.keys(
              'tag',
              'keyId',
              'keySecret',
              'type',
            );
          } else {
            expectErrorBody(body, row.status);
            if (row.match) expect(body.message).to.match(row.match);
          }
        });
      }

      it('refuses the same requestid twice (replay)', async () => {
        const headers = withLicence(platform.licences.system);
        expect((await get('/servicekeys', headers)).status).to.equal(200);
        const again = await get('/servicekeys', headers);
        expect(again.status).to.equal(401);
        expect(((await again.json()) as { message: string }).message).to.match(/replay/);
      });

      const caller = newCaller();
      const malformed: { name: string; headers: () => Record<string, string> }[] = [
        {
          name: 'publickey not base64',
          headers: () => ({
            ...withLicence(platform.licences.system),
            publickey: '!!!not-base64!!!',
          }),
        },
        {
          name: 'publickey of the wrong length',
          headers: () => ({ ...withLicence(platform.licences.system), publickey: 'AAAA' }),
        },
        {
          name: 'publickey off the curve',
          headers: () => ({
            ...withLicence(platform.licences.system),
            publickey: Buffer.alloc(64, 1).toString('base64'),
          }),
        },
        {
          name: 'licensekey garbage',
          headers: () => ({ ...withLicence(platform.licences.system), licensekey: 'garbage' }),
        },
        {
          name: 'requestid truncated',
          headers: () => {
            const h = withLicence(platform.licences.system);
            return { ...h, requestid: h.requestid!.slice(0, 30) };
          },
        },
        {
          name: 'requestid under another publickey',
          headers: () => ({
            ...withLicence(platform.licences.system),
            publickey: newCaller().publicKey,
          }),
        },
        {
          name: 'requestid with garbage JSON inside',
          headers: () => {
            const key = shared(caller, servicePublicKey);
            return {
              publickey: caller.publicKey,
              licensekey: seal(key, platform.licences.system),
              requestid: seal(key, '{not json'),
            };
          },
        },
        {
          name: 'requestid JSON without uuid',
          headers: () => {
            const key = shared(caller, servicePublicKey);
            const requestid = seal(
              key,
              JSON.stringify({ appid: 'x', ts: Math.floor(Date.now() / 1000) }),
            );
            return {
              publickey: caller.publicKey,
              licensekey: seal(key, platform.licences.system),
              requestid,
            };
          },
        },
      ];
      for (const row of malformed) {
        it(`malformed headers (${row.name}): 401 with the error body`, async () => {
          const res = await get('/servicekeys', row.headers());
          expect(res.status).to.equal(401);
          expectErrorBody(await res.json(), 401);
        });
      }

      it('POST /ecdsa_helper round-trips the interop vectors', async () => {
        const helper = (method: string, text: string, publicKey: string, privateKey: string) =>
          fetch(`${base}/ecdsa_helper/${method}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ [svc.helperField]: text, publicKey, privateKey }),
          });
        for (const v of vectors) {
          const res = await helper('decrypt', v.ciphertext, v.servicePublicKey, v.callerPrivateKey);
          expect(res.status).to.equal(200);
          const body = (await res.json()) as { data: string; publicKey?: string };
          expect(body.data).to.equal(v.plaintext);
          if (svc.helperReturnsKey) expect(body.publicKey).to.equal(v.callerPublicKey);
          const sealed = (await (
            await helper('encrypt', v.plaintext, v.servicePublicKey, v.callerPrivateKey)
          ).json()) as { data: string };
          const opened = (await (
            await helper('decrypt', sealed.data, v.servicePublicKey, v.callerPrivateKey)
          ).json()) as { data: string };
          expect(opened.data).to.equal(v.plaintext);
        }
        const bad = await helper('encrypt', 'x', 'AAAA', vectors[0]!.callerPrivateKey);
        expect(bad.status).to.equal(400);
        expectErrorBody(await bad.json(), 400);
        expect(
          (await helper('sign', 'x', vectors[0]!.servicePublicKey, vectors[0]!.callerPrivateKey))
            .status,
        ).to.equal(400);
        const missing = await fetch(`${base}/ecdsa_helper/encrypt`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(missing.status).to.equal(400);
        const notJson = await fetch(`${base}/ecdsa_helper/encrypt`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{oops',
        });
        expect(notJson.status).to.equal(400);
        expectErrorBody(await notJson.json(), 400);
      });

      it('POST /ecdsa_helper without a method encrypts (the spec: method defaults to encrypt)', async () => {
        const v = vectors[0]!;
        const body = (text: string) =>
          JSON.stringify({
            [svc.helperField]: text,
            publicKey: v.servicePublicKey,
            privateKey: v.callerPrivateKey,
          });
        const post = (path: string, text: string) =>
          fetch(`${base}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: body(text),
          });
        const sealed = await post('/ecdsa_helper', v.plaintext);
        expect(sealed.status).to.equal(200);
        const { data } = (await sealed.json()) as { data: string };
        // a fresh IV each time: the proof of encryption is that it opens to the plaintext
        expect(data).not.to.equal(v.plaintext);
        expect(unseal(shared(callerOf(v), v.servicePublicKey), data)).to.equal(v.plaintext);
        const missing = await fetch(`${base}/ecdsa_helper`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(missing.status).to.equal(400);
        expectErrorBody(await missing.json(), 400);
      });

      it('answers 405 with Allow on a known path and 404 on an unknown one', async () => {
        const res = await fetch(`${base}/healthz`, { method: 'POST' });
        expect(res.status).to.equal(405);
        expect(res.headers.get('allow')).to.equal('GET, HEAD');
        expectErrorBody(await res.json(), 405);
        const missing = await get('/no/such/path');
        expect(missing.status).to.equal(404);
        expectErrorBody(await missing.json(), 404);
      });

      it('GET /metrics exposes Prometheus metrics', async () => {
        const text = await (await get('/metrics')).text();
        expect(text).to.contain('http_request_duration_seconds');
      });

      it(`DELETE /servicekey/{keyId} needs the system licence and makes a new key (${svc.reset})`, async () => {
        const path = `/servicekey/${encodeURIComponent(servicePublicKey)}`;
        const del = (headers: Record<string, string>, p = path) =>
          fetch(base + p, { method: 'DELETE', headers });
        expect((await del(withLicence(platform.licences.service))).status).to.equal(403);
        expect(
          (await del(withLicence(platform.licences.system), '/servicekey/AAAA')).status,
        ).to.equal(404);
        const res = await del(withLicence(platform.licences.system));
        if (svc.reset === 'no-content') {
          expect(res.status).to.equal(204);
          expect(await res.text()).to.equal('');
        } else {
          expect(res.status).to.equal(200);
          const [created] = (await res.json()) as { keyId: string }[];
          expect(created?.keyId).to.be.a('string').and.not.equal(servicePublicKey);
        }
        const now = ((await (await get('/publickeys')).json()) as { publicKey: string }).publicKey;
        expect(now).not.to.equal(servicePublicKey);
        // the old key still opens credentials during its grace (service-key-rotation.test.ts)
        const old = await get('/servicekeys', withLicence(platform.licences.system));
        expect(old.status).to.equal(200);
        expect(old.headers.get('service-key-current')).to.equal(now);
        servicePublicKey = now;
        expect((await get('/servicekeys', withLicence(platform.licences.system))).status).to.equal(
          200,
        );
      });
    });
  }
});
