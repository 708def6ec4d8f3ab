// Property-based fuzzing (fast-check) of every documented operation of the three services: bodies
// (mutated, wrong types, deep nesting, pollution keys, unicode), path parameters, credential
// headers, oversized bodies, and the oauth issuer's form bodies: never a 5xx, a hang or a
// crash, every error in the error body, and no prototype polluted in the process.
import { expect } from 'chai';
import fc from 'fast-check';
import { createOauthClient } from '../../services/oauth/src/admin.ts';
import { fixtures } from './support/fixtures.ts';
import {
  fillPath,
  isIssuerRoute,
  paramsOf,
  probe,
  validBody,
  type Resources,
  type Sent,
} from './support/fuzzTargets.ts';
import {
  hostileHeader,
  hostileJson,
  hostileSegment,
  hostileString,
  mutatedBody,
} from './support/hostile.ts';
import {
  operations,
  opName,
  startSecurityWorld,
  type Operation,
  type SecurityWorld,
} from './support/world.ts';
import { platformKeyring } from '@idv/testing/platform';

/** Runs per operation and kind: bounded for two shared cores (about 2,000 cases in all). */
const RUNS = { body: 60, inner: 60, path: 20, headers: 15, form: 40 };
/** URLSearchParams and encodeURIComponent need well-formed UTF-16 (no lone surrogates). */
const wellFormed = (s: string): string =>
  (s as unknown as { toWellFormed(): string }).toWellFormed();
const JSON_TYPE = { 'content-type': 'application/json' };
const OAUTH_PARAMS = [
  'client_id',
  'client_secret',
  'grant_type',
  'code',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'token',
  'refresh_token',
  'code_verifier',
  'proof_of_authentication_jwt',
  'id_token_hint',
  'eam_ref',
  'prompt',
];

describe('security: property-based fuzzing of every endpoint', function () {
  this.timeout(240_000);
  let world: SecurityWorld;
  let ops: Operation[];
  let resources: Resources;
  let client: { client_id: string; client_secret: string };
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
  const cases: Record<string, number> = {};
  const problems: string[] = [];

  /** One property over `arb` against `op`; counts the cases and keeps the smallest failure. */
  async function fuzz<T>(
    kind: string,
    op: Operation,
    arb: fc.Arbitrary<T>,
    runs: number,
    build: (value: T) => Promise<Sent> | Sent,
  ) {
    const details = await fc.check(
      fc.asyncProperty(arb, async (value) => {
        const problem = await probe(world, op, await build(value));
        if (problem) throw new Error(problem);
      }),
      { numRuns: runs, interruptAfterTimeLimit: 20_000 },
    );
    cases[kind] = (cases[kind] ?? 0) + details.numRuns + details.numShrinks;
    if (details.failed) {
      const shown = JSON.stringify(details.counterexample)?.slice(0, 300);
      problems.push(
        `${kind} ${opName(op)} seed=${details.seed}: ${String(details.errorInstance).slice(0, 400)} <- ${shown}`,
      );
    }
  }

  const systemHeaders = (op: Operation) =>
    op.security === 'credentials' ? world.headers(op.service, 'system') : Promise.resolve({});

  before(async () => {
    world = await startSecurityWorld();
    ops = (await operations(world)).filter((op) => !['/metrics', '/docs'].includes(op.path));
    const fx = fixtures(world);
    const c = world.platform.community;
    resources = {
      verifier: await fx.verifier(c),
      config: await fx.config(c),
      webhook: await fx.webhook(c),
    };
    client = await createOauthClient(
      { db: world.platform.database.db, keyring: platformKeyring(world.platform) },
      {
        community: c.name,
        redirectUris: ['http://127.0.0.1:9/cb'],
        grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
      },
    );
  });
  beforeEach(() => {
    problems.length = 0;
  });
  after(async () => {
    const total = Object.values(cases).reduce((a, b) => a + b, 0);
    console.log(`      fuzz cases run: ${total} ${JSON.stringify(cases)}`);
    await world?.stop();
  });

  it('JSON bodies: mutated, wrong types, deep nesting, pollution keys, unicode', async () => {
    for (const op of ops.filter((o) => o.hasBody && !isIssuerRoute(o))) {
      const path = fillPath(op, world, resources);
      await fuzz(
        'body',
        op,
        mutatedBody(validBody(op, world, resources)),
        RUNS.body,
        async (body) => ({
          path,
          body,
          headers: { ...(await systemHeaders(op)), ...JSON_TYPE },
        }),
      );
    }
    expect(problems).to.deep.equal([]);
  });

  it('POST /verify: hostile JSON inside the encrypted data', async () => {
    const op = ops.find((o) => o.service === 'docverify' && o.path === '/verify')!;
    const inner = fc.oneof(
      hostileJson,
      fc.record({ dvcID: hostileString, verifications: hostileJson, document: hostileJson }),
    );
    await fuzz('inner', op, inner, RUNS.inner, async (request) => {
      const sealed = await world.encrypted('docverify', world.licences.system, request ?? null);
      return {
        path: '/verify',
        body: sealed.body,
        headers: { ...sealed.headers, ...JSON_TYPE },
        expect: [400, 404],
      };
    });
    expect(problems).to.deep.equal([]);
  });

  it('path parameters: unicode, malformed percent-encoding, dot segments, very long', async () => {
    for (const op of ops.filter((o) => paramsOf(o).length > 0)) {
      const arb = fc.tuple(fc.constantFrom(...paramsOf(op)), hostileSegment);
      await fuzz('path', op, arb, RUNS.path, async ([param, value]) => ({
        path: fillPath(op, world, resources, { param, value }),
        headers: { ...(await systemHeaders(op)), ...JSON_TYPE },
        ...(op.hasBody ? { body: JSON.stringify(validBody(op, world, resources)) } : {}),
      }));
    }
    expect(problems).to.deep.equal([]);
  });

  it('credential headers: garbage in any of the three (or the license header) is 401', async () => {
    const names = ['publickey', 'licensekey', 'requestid'] as const;
    for (const op of ops.filter((o) => o.security !== 'none')) {
      const arb = fc.tuple(
        fc.subarray([...names], { minLength: 1 }),
        fc.array(hostileHeader, { minLength: 3, maxLength: 3 }),
      );
      await fuzz('headers', op, arb, RUNS.headers, async ([broken, values]) => {
        const headers: Record<string, string> =
          op.security === 'license'
            ? { license: values[0]! }
            : await world.headers(op.service, 'system');
        if (op.security === 'credentials')
          broken.forEach((name, i) => (headers[name] = values[i]!));
        return {
          path: fillPath(op, world, resources),
          headers: { ...headers, ...JSON_TYPE },
          expect: [401],
          ...(op.hasBody ? { body: '{}' } : {}),
        };
      });
    }
    expect(problems).to.deep.equal([]);
  });

  it('oversized bodies (over HTTP_BODY_LIMIT) are 413 with the error body', async () => {
    const huge = JSON.stringify({ data: 'A'.repeat(1_100_000) });
    // redeliver takes no body: it never reads one, so its size does not matter; an image upload
    // is no JSON and has its own limit (SESSION_IMAGE_MAX_BYTES: test/sessions/bad-input.test.ts)
    const reads = (o: Operation) =>
      o.hasBody &&
      !isIssuerRoute(o) &&
      !o.path.endsWith('/redeliver') &&
      !o.path.startsWith('/capture-api/images/');
    for (const op of ops.filter(reads)) {
      await fuzz('oversized', op, fc.constant(huge), 1, async (body) => ({
        path: fillPath(op, world, resources),
        body,
        headers: { ...(await systemHeaders(op)), ...JSON_TYPE },
        expect: [413],
      }));
    }
    expect(problems).to.deep.equal([]);
  });

  it('oauth issuer routes: hostile form bodies, query strings and client credentials', async () => {
    const key = fc.oneof(
      fc.constantFrom(...OAUTH_PARAMS),
      hostileString.filter((s) => s.length < 100),
    );
    const value = fc.oneof(
      fc.constantFrom(
        client.client_id,
        'http://127.0.0.1:9/cb',
        'code',
        'openid',
        'client_credentials',
        'authorization_code',
      ),
      hostileString,
    );
    const form = fc.record({
      params: fc.dictionary(key, value, { maxKeys: 8 }),
      basic: fc.option(
        fc.tuple(
          fc.oneof(fc.constant(client.client_id), hostileString),
          fc.oneof(fc.constant(client.client_secret), hostileString),
        ),
      ),
      oversized: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    });
    for (const op of ops.filter(isIssuerRoute)) {
      await fuzz('form', op, form, RUNS.form, async ({ params, basic, oversized }) => {
        const encoded = new URLSearchParams(
          Object.entries(params).map(([k, v]): [string, string] => [wellFormed(k), wellFormed(v)]),
        ).toString();
        const body = oversized ? `${encoded}&pad=${'A'.repeat(1_100_000)}` : encoded;
        const headers: Record<string, string> = {
          'content-type': 'application/x-www-form-urlencoded',
        };
        if (basic)
          headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(wellFormed(basic[0]))}:${encodeURIComponent(wellFormed(basic[1]))}`).toString('base64')}`;
        if (op.security === 'credentials' || op.path.endsWith('eam-context'))
          Object.assign(headers, await world.headers('oauth', 'system'));
        const path = fillPath(op, world, resources);
        return op.hasBody ? { path, body, headers } : { path: `${path}?${encoded}`, headers };
      });
    }
    expect(problems).to.deep.equal([]);
  });

  it('no prototype was polluted and every service still answers', async () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).to.deep.equal(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    for (const service of ['oauth', 'docverify', 'webhooks'] as const) {
      const res = await fetch(`${world.platform.services[service].url}/healthz`);
      expect(res.status).to.equal(200);
    }
  });
});
