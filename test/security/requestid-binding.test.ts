// A requestid may name the request it was made for (htm: method, htu: path or URL): then it is
// refused anywhere else, so a captured one cannot be spent on another endpoint. Without those
// members (the vendor's helper sends none) it works as before. Our SDK always binds.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { IdvClient } from '@idv/client';
import { generateKeyPair } from '@idv/crypto';
import { credentialHeaders, unseal } from '@idv/testing/independentClient';
import { isErrorBody, SERVICES, startSecurityWorld, type SecurityWorld } from './support/world.ts';

describe('security: a requestid bound to its request', function () {
  this.timeout(60_000);
  let world: SecurityWorld;
  before(async () => {
    world = await startSecurityWorld();
  });
  after(async () => world?.stop());

  for (const service of SERVICES) {
    describe(service, () => {
      const base = () => world.platform.services[service].url;
      const headers = async (bind: Record<string, unknown> | undefined) =>
        credentialHeaders({
          licenseKey: world.licences.system,
          servicePublicKey: await world.publicKey(service),
          ...(bind ? { requestIdExtra: bind } : {}),
        });
      const readKeys = async (bind: Record<string, unknown> | undefined) =>
        fetch(`${base()}/servicekeys`, { headers: await headers(bind) });

      it('takes a requestid without htm and htu, as the vendor helper sends it', async () => {
        expect((await readKeys(undefined)).status).to.equal(200);
      });

      it('takes one bound to this request, by path or by URL, any case of method', async () => {
        for (const bind of [
          { htm: 'GET', htu: '/servicekeys' },
          { htm: 'get', htu: `${base()}/servicekeys` },
          { htm: 'GET' },
          { htu: '/servicekeys' },
        ]) {
          const res = await readKeys(bind);
          expect(res.status, JSON.stringify(bind)).to.equal(200);
        }
      });

      it('refuses one captured from another request (a key reset used to read the key)', async () => {
        const keyId = encodeURIComponent(await world.publicKey(service));
        for (const bind of [
          { htm: 'DELETE', htu: `/servicekey/${keyId}` },
          { htm: 'POST', htu: '/servicekeys' },
          { htm: 'DELETE' },
          { htu: `/servicekey/${keyId}` },
          { htu: `${base()}/servicekeys/` },
        ]) {
          const res = await readKeys(bind);
          const text = await res.text();
          expect(res.status, `${JSON.stringify(bind)}: ${text}`).to.equal(401);
          expect(isErrorBody(JSON.parse(text), 401)).to.equal(true);
          expect(text)
            .to.match(/bound to/)
            .and.not.to.match(/keySecret/);
        }
      });

      it('refuses htm or htu that are not strings', async () => {
        for (const bind of [{ htm: 7 }, { htu: ['/servicekeys'] }]) {
          expect((await readKeys(bind)).status, JSON.stringify(bind)).to.equal(401);
        }
      });

      it('lets the SDK in, which binds every requestid it sends', async () => {
        const client = new IdvClient({ baseUrl: base(), licenseKey: world.licences.system });
        expect((await client.request('GET', '/servicekeys')).status).to.equal(200);
      });
    });
  }

  describe('the SDK', () => {
    let capture: Server;
    let seen: IncomingHttpHeaders | undefined;
    before(async () => {
      capture = createServer((req, res) => {
        seen = req.headers;
        res.setHeader('content-type', 'application/json').end('{}');
      });
      await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
    });
    after(() => new Promise<void>((resolve) => capture.close(() => resolve())));

    it('puts the method and path of each request into its requestid', async () => {
      const service = generateKeyPair();
      const client = new IdvClient({
        baseUrl: `http://127.0.0.1:${(capture.address() as AddressInfo).port}`,
        licenseKey: 'lk_testy_0000',
        servicePublicKey: service.publicKey,
      });
      await client.request('DELETE', '/servicekey/a%2Fb?force=1');
      const requestId = JSON.parse(unseal(await client.sharedKey(), String(seen?.requestid))) as {
        htm?: string;
        htu?: string;
      };
      expect(requestId).to.include({ htm: 'DELETE', htu: '/servicekey/a%2Fb' });
    });
  });
});
