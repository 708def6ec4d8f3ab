// EAM: an id_token_hint from the community's external IdP (a local fake issuing RS256) is kept
// server-side and read back by a service through the ECDSA headers; never shown to the browser.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { IdvClient } from '@idv/client';
import { LicenceStore } from '@idv/platform';
import { createOauthClient, setExternalIdp } from '../src/admin.ts';
import { startOauthUnderTest, type OauthUnderTest } from './support.ts';

const REDIRECT = 'https://rp.example.test/callback';

describe('EAM context from an external identity provider', () => {
  let oauth: OauthUnderTest;
  let idp: Server;
  let idpKey: CryptoKey;
  let clientId: string;
  let licence: string;

  before(async () => {
    oauth = await startOauthUnderTest();
    const keys = await generateKeyPair('RS256');
    idpKey = keys.privateKey;
    const jwks = { keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'idp-1', alg: 'RS256' }] };
    idp = createServer((_req, res) =>
      res.setHeader('content-type', 'application/json').end(JSON.stringify(jwks)),
    );
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    const ctx = { db: oauth.database.db, keyring: oauth.keyring };
    await setExternalIdp(ctx, oauth.community.name, {
      issuer: 'https://login.idp.example.test/tenant-1/v2.0',
      audience: 'eam-app',
      jwksUri: `http://127.0.0.1:${(idp.address() as AddressInfo).port}/keys`,
    });
    clientId = (
      await createOauthClient(ctx, {
        community: oauth.community.name,
        redirectUris: [REDIRECT],
        grantTypes: [],
      })
    ).client_id;
    licence = (
      await new LicenceStore(oauth.database.db).create({
        level: 'service',
        communityIds: [oauth.community.id],
      })
    ).licenseKey;
  });
  after(async () => {
    idp?.close();
    await oauth?.stop();
  });

  const hint = (claims: Record<string, unknown>, audience = 'eam-app') =>
    new SignJWT({ oid: 'oid-testy-0000', tid: 'tid-example-0000', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'idp-1' })
      .setIssuer('https://login.idp.example.test/tenant-1/v2.0')
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(idpKey);

  const authorize = async (idTokenHint: string) => {
    const url = new URL(`${oauth.issuer(oauth.community)}/v1/authorize`);
    for (const [k, v] of Object.entries({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
      id_token_hint: idTokenHint,
    })) {
      url.searchParams.set(k, v);
    }
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).to.equal(303);
    return new URL(res.headers.get('location')!, oauth.url);
  };

  const service = () => new IdvClient({ baseUrl: oauth.url, licenseKey: licence });

  it('keeps oid and tid server-side and gives them to a service with valid headers', async () => {
    const location = await authorize(await hint({}));
    const uid = location.pathname.split('/').pop()!;
    expect(location.pathname).to.match(/\/v1\/interaction\//);
    expect(location.href).not.to.contain('oid-testy');
    const path = `/community/${oauth.community.name}/v1/interaction/${uid}/eam-context`;
    const answer = await service().request('GET', path);
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.equal({ oid: 'oid-testy-0000', tid: 'tid-example-0000' });

    const bare = await fetch(`${oauth.url}${path}`);
    expect(bare.status).to.equal(401);
  });

  it('keeps one context per IdP token: the same hint sent again adds no row', async () => {
    const db = oauth.database.db;
    const rows = () =>
      db('oauth.eam_contexts')
        .where({ community_id: oauth.community.id })
        .count<{ count: string }[]>('* as count');
    const token = await hint({ oid: 'oid-testy-replayed' });
    const before = Number((await rows())[0]!.count);
    const first = await authorize(token);
    for (let i = 0; i < 5; i++) await authorize(token);
    expect(Number((await rows())[0]!.count)).to.equal(before + 1);
    // and every interaction it opened still reads the person's context
    const uid = first.pathname.split('/').pop()!;
    const answer = await service().request(
      'GET',
      `/community/${oauth.community.name}/v1/interaction/${uid}/eam-context`,
    );
    expect(answer.body).to.deep.equal({ oid: 'oid-testy-replayed', tid: 'tid-example-0000' });
    // another token of the same person is another row
    await authorize(await hint({ oid: 'oid-testy-replayed', nonce: 'another' }));
    expect(Number((await rows())[0]!.count)).to.equal(before + 2);
  });

  it('answers 404 for an unknown interaction uid', async () => {
    const path = `/community/${oauth.community.name}/v1/interaction/no-such-uid/eam-context`;
    expect((await service().request('GET', path)).status).to.equal(404);
  });

  it('rejects a hint for another audience with an error at the redirect_uri', async () => {
    const location = await authorize(await hint({}, 'someone-else'));
    expect(location.origin + location.pathname).to.equal(REDIRECT);
    expect(location.searchParams.get('error')).to.equal('invalid_request');
  });
});
