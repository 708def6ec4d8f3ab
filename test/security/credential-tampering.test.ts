// A hostile caller's credential headers on every service: replay, stale and future ts, swapped
// publickey, truncated ciphertexts, tampered GCM tags and IVs, odd requestid JSON: 401, never a
// crash; and the encrypted /verify body tampered the same ways: 400 with the error body.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { credentialHeaders, newCaller, seal, shared } from '@idv/testing/independentClient';
import { verifyRequest } from './support/fixtures.ts';
import { isErrorBody, SERVICES, startSecurityWorld, type SecurityWorld } from './support/world.ts';

type Headers = Record<string, string>;

/** Flips one bit of the decoded byte at `index` (negative: from the end) and re-encodes. */
function flip(wire: string, index: number): string {
  const raw = Buffer.from(wire, 'base64');
  raw[(index + raw.length) % raw.length]! ^= 0x01;
  return raw.toString('base64');
}
const truncate = (wire: string, bytes: number) =>
  Buffer.from(wire, 'base64').subarray(0, bytes).toString('base64');

interface Ctx {
  licence: string;
  key: string;
  otherKey: string;
}
const now = () => Math.floor(Date.now() / 1000);

/** Each row turns valid headers into hostile ones. */
const ROWS: { name: string; make: (ctx: Ctx) => Headers }[] = [
  ...[-3600, -61, 61, 3600].map((offset) => ({
    name: `ts ${offset} s from now`,
    make: (c: Ctx) =>
      credentialHeaders({ licenseKey: c.licence, servicePublicKey: c.key, tsOffset: offset }),
  })),
  ...(['licensekey', 'requestid'] as const).flatMap((header) => [
    ...[0, 10, 16, 31, 32].map((bytes) => ({
      name: `${header} truncated to ${bytes} bytes`,
      make: (c: Ctx) => {
        const h = credentialHeaders({ licenseKey: c.licence, servicePublicKey: c.key });
        return { ...h, [header]: truncate(h[header]!, bytes) };
      },
    })),
    ...[
      ['GCM tag', -1],
      ['IV', 0],
      ['ciphertext', 17],
    ].map(([part, index]) => ({
      name: `${header} with a tampered ${part}`,
      make: (c: Ctx) => {
        const h = credentialHeaders({ licenseKey: c.licence, servicePublicKey: c.key });
        return { ...h, [header]: flip(h[header]!, index as number) };
      },
    })),
  ]),
  {
    name: "publickey swapped for another caller's",
    make: (c) => ({
      ...credentialHeaders({ licenseKey: c.licence, servicePublicKey: c.key }),
      publickey: newCaller().publicKey,
    }),
  },
  {
    name: "publickey swapped for the service's own",
    make: (c) => ({
      ...credentialHeaders({ licenseKey: c.licence, servicePublicKey: c.key }),
      publickey: c.key,
    }),
  },
  {
    name: 'headers sealed for another service',
    make: (c) => credentialHeaders({ licenseKey: c.licence, servicePublicKey: c.otherKey }),
  },
  {
    name: 'licensekey and requestid swapped',
    make: (c) => {
      const h = credentialHeaders({ licenseKey: c.licence, servicePublicKey: c.key });
      return { ...h, licensekey: h.requestid!, requestid: h.licensekey! };
    },
  },
  ...(
    [
      ['ts as a string', { appid: 'a', uuid: randomUUID(), ts: String(now()) }],
      ['ts far out of range', { appid: 'a', uuid: randomUUID(), ts: 1e300 }],
      ['ts negative', { appid: 'a', uuid: randomUUID(), ts: -1 }],
      ['uuid an object', { appid: 'a', uuid: { $ne: null }, ts: now() }],
      ['uuid empty', { appid: 'a', uuid: '', ts: now() }],
      // uuid with NUL: see known-bugs.test.ts
      ['uuid of 6,000 characters', { appid: 'a', uuid: 'u'.repeat(6000), ts: now() }],
      ['appid missing', { uuid: randomUUID(), ts: now() }],
      ['an array', [1, 2, 3]],
      ['null', null],
    ] as const
  ).map(([name, requestId]) => ({
    name: `requestid JSON: ${name}`,
    make: (c: Ctx) => {
      const caller = newCaller();
      const k = shared(caller, c.key);
      return {
        publickey: caller.publicKey,
        licensekey: seal(k, c.licence),
        requestid: seal(k, JSON.stringify(requestId)),
      };
    },
  })),
];

describe('security: tampered credentials and bodies', function () {
  this.timeout(60_000);
  let world: SecurityWorld;
  before(async () => {
    world = await startSecurityWorld();
  });
  after(async () => world?.stop());

  for (const service of SERVICES) {
    it(`${service}: every tampered credential is 401 with the error body`, async () => {
      const base = world.platform.services[service].url;
      const other = service === 'oauth' ? 'webhooks' : 'oauth';
      const ctx = {
        licence: world.licences.system,
        key: await world.publicKey(service),
        otherKey: await world.publicKey(other),
      };
      const answers: Record<string, string> = {};
      for (const row of ROWS) {
        const res = await fetch(`${base}/servicekeys`, { headers: row.make(ctx) });
        const body: unknown = await res.json();
        answers[row.name] = isErrorBody(body, res.status)
          ? String(res.status)
          : `${res.status} ${JSON.stringify(body)}`;
      }
      expect(answers).to.deep.equal(Object.fromEntries(ROWS.map((r) => [r.name, '401'])));
    });

    it(`${service}: the same requestid twice is a replay (401), even after a refusal`, async () => {
      const base = world.platform.services[service].url;
      const headers = await world.headers(service, 'system');
      expect((await fetch(`${base}/servicekeys`, { headers })).status).to.equal(200);
      const again = await fetch(`${base}/servicekeys`, { headers });
      expect(again.status).to.equal(401);
      expect(((await again.json()) as { message: string }).message).to.match(/replay/);
      // a uuid first used by a licence without the level is still spent
      const refused = await world.headers(service, 'community');
      expect((await fetch(`${base}/servicekeys`, { headers: refused })).status).to.equal(403);
      expect((await fetch(`${base}/servicekeys`, { headers: refused })).status).to.equal(401);
    });
  }

  it('POST /verify: a truncated or tampered encrypted body is 400 with the error body', async () => {
    const url = `${world.platform.services.docverify.url}/verify`;
    const variants: Record<string, (data: string) => string> = {
      'truncated to 31 bytes': (d) => truncate(d, 31),
      'truncated by one byte': (d) => truncate(d, Buffer.from(d, 'base64').length - 1),
      'tampered GCM tag': (d) => flip(d, -1),
      'tampered IV': (d) => flip(d, 0),
      'not base64': () => '!!!!',
      empty: () => '',
    };
    for (const [name, tamper] of Object.entries(variants)) {
      const sealed = await world.encrypted('docverify', world.licences.system, verifyRequest('x'));
      const { data } = JSON.parse(sealed.body) as { data: string };
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...sealed.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ data: tamper(data) }),
      });
      expect(res.status, name).to.equal(400);
      expect(isErrorBody(await res.json(), 400), name).to.equal(true);
    }
  });
});
