// Bugs the security suites found, each pinned by the exact request that triggered it, kept as
// regression tests now that they are fixed.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { newCaller, seal, shared } from '@idv/testing/independentClient';
import { verifierBody, webhookBody } from './support/fixtures.ts';
import { isErrorBody, startSecurityWorld, type SecurityWorld } from './support/world.ts';

describe('security: regressions of the bugs the suites found', function () {
  this.timeout(60_000);
  let world: SecurityWorld;
  before(async () => {
    world = await startSecurityWorld();
  });
  after(async () => world?.stop());

  const send = async (
    service: 'oauth' | 'docverify' | 'webhooks',
    method: string,
    path: string,
    body?: unknown,
  ) => {
    const res = await fetch(world.platform.services[service].url + path, {
      method,
      headers: { ...(await world.headers(service, 'system')), 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    expect(res.status, text).to.be.within(400, 499);
    expect(isErrorBody(JSON.parse(text), res.status), text).to.equal(true);
  };

  // fixed: a path parameter with malformed percent-encoding (`%`, `%ZZ`, `%C0%AF`) is 500: the router's URIError (status 400) is not mapped by libs/http errorMapping
  it('malformed percent-encoding in a path parameter is 400, not 500', async () => {
    await send('docverify', 'GET', '/verifier/community/%');
    await send('docverify', 'POST', '/ecdsa_helper/%C0%AF', {});
    await send('webhooks', 'DELETE', '/servicekey/%ZZ');
    await send('oauth', 'GET', '/community/%C0%AF/v1/jwks');
  });

  // fixed: a NUL character in a path parameter reaches PostgreSQL ("invalid byte sequence for encoding UTF8: 0x00") and is 500
  it('NUL in a path parameter is 400/404, not 500', async () => {
    const c = world.platform.community;
    await send('docverify', 'GET', '/verificationConfig/community/%00/x');
    await send('docverify', 'GET', `/verifier/community/${c.id}/%00`);
    await send('webhooks', 'PUT', `/tenant/${c.tenantId}/community/%00/webhook`, webhookBody());
  });

  // fixed: a NUL character in a JSON body string stored in a text column (verifier name, webhook name) is 500
  it('NUL in a body string is 400, not 500', async () => {
    const c = world.platform.community;
    await send('docverify', 'PUT', `/verifier/community/${c.id}`, {
      ...verifierBody(),
      name: 'a\u0000b',
    });
    await send('webhooks', 'PUT', `/tenant/${c.tenantId}/community/${c.id}/webhook`, {
      ...webhookBody(),
      name: 'a\u0000b',
    });
  });

  // fixed: POST /verify whose decrypted request has verifications [{}, {"toString":0}] is 500 (ajv uniqueItems calls fast-deep-equal, which calls the own toString)
  it('an own toString member inside verifications is 400, not 500', async () => {
    const inner: unknown = JSON.parse(
      '{"dvcID":"x","verifications":[{},{"toString":0}],"document":0}',
    );
    const sealed = await world.encrypted('docverify', world.licences.system, inner);
    const res = await fetch(`${world.platform.services.docverify.url}/verify`, {
      method: 'POST',
      headers: { ...sealed.headers, 'content-type': 'application/json' },
      body: sealed.body,
    });
    expect(res.status).to.equal(400);
  });

  // fixed: an unknown path under an oauth issuer (e.g. /community/{c}/v1/interaction/../eam-context) is 404 text/plain "Not Found", not the error body
  it('an unknown path under an issuer answers the error body', async () => {
    const res = await fetch(
      `${world.platform.services.oauth.url}/community/${world.platform.community.name}/v1/eam-context`,
    );
    expect(res.status).to.equal(404);
    expect(isErrorBody(JSON.parse(await res.text()), 404)).to.equal(true);
  });

  // fixed: a requestid whose (validly encrypted) JSON has a uuid containing NUL is 500 on every service: the replay log insert fails in PostgreSQL
  it('a uuid with NUL inside the requestid is 401, not 500', async () => {
    for (const service of ['oauth', 'docverify', 'webhooks'] as const) {
      const caller = newCaller();
      const key = shared(caller, await world.publicKey(service));
      const requestId = {
        appid: 'a',
        uuid: `x\u0000${randomUUID()}`,
        ts: Math.floor(Date.now() / 1000),
      };
      const res = await fetch(`${world.platform.services[service].url}/servicekeys`, {
        headers: {
          publickey: caller.publicKey,
          licensekey: seal(key, world.licences.system),
          requestid: seal(key, JSON.stringify(requestId)),
        },
      });
      expect(res.status, service).to.equal(401);
    }
  });
});
