// Authorisation matrix: every secured operation of every service (read from /openapi.json) x every
// caller (each licence level, another tenant's licence, broken or no credentials) x the path's
// community (ours, another tenant's) and tenant, generated from ONE access table; and every
// operation an operator's bearer token is a credential of x every operator role of the community,
// an operator of another community, an unknown or malformed token and none, from the operator
// table (support/operatorAccess.ts), on real review cases. The routes only an operator may call
// (the review steps) refuse every licence as unauthenticated.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Community } from '@idv/platform';
import {
  fixtures,
  verifierBody,
  configBody,
  verifyRequest,
  webhookBody,
} from './support/fixtures.ts';
import type { Fixtures } from './support/fixtures.ts';
import {
  expectedFor,
  grantOperators,
  OPERATOR_ACCESS,
  OPERATOR_CALLERS,
  operatorHeaders,
  operatorTargets,
} from './support/operatorAccess.ts';
import { startOperatorWorld, type OperatorWorld } from './support/operatorWorld.ts';
import { CALLERS, isErrorBody, operations, type Caller, type Operation } from './support/world.ts';

type Rule = 'system-only' | 'manager' | 'any-licence' | 'license-header';
type Outcome = '2xx' | 401 | 403 | 404;
interface Ctx {
  community: Community;
  fx: Fixtures;
}
type Access =
  | {
      rule: Rule;
      /** what an allowed caller gets: 2xx, or 404 where the path names a placeholder that never exists */
      allowed: '2xx' | 404;
      body?: (ctx: Ctx) => unknown;
      encrypted?: boolean;
    }
  /** an operator's bearer token only: no licence is a credential of it (401, so no body needed) */
  | { rule: 'operator-only'; body?: never; encrypted?: never };

/** THE table: the access rule of every secured operation (keyed by method and OpenAPI path). */
const ACCESS: Record<string, Access> = {
  'GET /environment': { rule: 'license-header', allowed: '2xx' },
  'GET /servicekeys': { rule: 'system-only', allowed: '2xx' },
  // no key is in a grace here: ending it ends none, so the rule is all this checks
  'POST /servicekeys/end-grace': { rule: 'system-only', allowed: '2xx' },
  // keyId is not the current key: the reset itself is covered by service-endpoints.test.ts
  'DELETE /servicekey/{keyId}': { rule: 'system-only', allowed: 404 },
  'GET /community/{community}/v1/interaction/{uid}/eam-context': { rule: 'manager', allowed: 404 },
  'PUT /verifier/community/{communityId}': {
    rule: 'manager',
    allowed: '2xx',
    body: () => verifierBody(),
  },
  'GET /verifier/community/{communityId}': { rule: 'manager', allowed: '2xx' },
  'GET /verifier/community/{communityId}/{idOrTag}': { rule: 'manager', allowed: '2xx' },
  'PATCH /verifier/community/{communityId}/{idOrTag}': {
    rule: 'manager',
    allowed: '2xx',
    body: () => ({ name: 'Renamed' }),
  },
  'DELETE /verifier/community/{communityId}/{idOrTag}': { rule: 'manager', allowed: '2xx' },
  'PUT /verificationConfig/community/{communityId}': {
    rule: 'manager',
    allowed: '2xx',
    body: async ({ community, fx }) => configBody(community, await fx.verifier(community)),
  },
  'GET /verificationConfig/community/{communityId}': { rule: 'manager', allowed: '2xx' },
  'GET /verificationConfig/community/{communityId}/{idOrTag}': { rule: 'manager', allowed: '2xx' },
  'PATCH /verificationConfig/community/{communityId}/{idOrTag}': {
    rule: 'manager',
    allowed: '2xx',
    body: () => ({ name: 'Renamed' }),
  },
  'DELETE /verificationConfig/community/{communityId}/{idOrTag}': {
    rule: 'manager',
    allowed: '2xx',
  },
  // no config of that dvcID exists: any licence gets as far as the lookup
  'POST /verify': {
    rule: 'any-licence',
    allowed: 404,
    encrypted: true,
    body: () => verifyRequest('no-such-config'),
  },
  'GET /verification/{verificationId}': { rule: 'any-licence', allowed: 404 },
  // sessions: no config or session of that name exists, so any licence gets as far as the lookup
  'POST /document_share_session/create': {
    rule: 'any-licence',
    allowed: 404,
    encrypted: true,
    body: () => ({ dvcID: 'no-such-config', sessionRequest: {} }),
  },
  'POST /document_share_session/result': {
    rule: 'any-licence',
    allowed: 404,
    encrypted: true,
    body: () => ({ dvcID: 'no-such-config', sessionId: randomUUID() }),
  },
  'POST /document_share_session/cancel': {
    rule: 'any-licence',
    allowed: 404,
    encrypted: true,
    body: () => ({ dvcID: 'no-such-config', sessionId: randomUUID() }),
  },
  'GET /sessions/community/{communityId}': { rule: 'manager', allowed: '2xx' },
  'GET /sessions/community/{communityId}/{sessionId}': { rule: 'manager', allowed: 404 },
  // nothing of that id exists, so an allowed caller gets as far as the lookup (an admin operator's
  // token is the other credential it takes: a request without Authorization is a licence's)
  'POST /erasure/community/{communityId}': {
    rule: 'manager',
    allowed: 404,
    body: () => ({ verificationId: randomUUID() }),
  },
  // review cases (an operator's token also reads them); no case of that id exists
  'GET /review/reasons': { rule: 'any-licence', allowed: '2xx' },
  'GET /review/community/{communityId}/cases': { rule: 'manager', allowed: '2xx' },
  'GET /review/community/{communityId}/cases/{caseId}': { rule: 'manager', allowed: 404 },
  'GET /review/community/{communityId}/cases/{caseId}/data': { rule: 'manager', allowed: 404 },
  'GET /review/community/{communityId}/cases/{caseId}/images/{name}': {
    rule: 'manager',
    allowed: 404,
  },
  'POST /review/community/{communityId}/cases/{caseId}/claim': { rule: 'operator-only' },
  'POST /review/community/{communityId}/cases/{caseId}/release': { rule: 'operator-only' },
  'POST /review/community/{communityId}/cases/{caseId}/notes': { rule: 'operator-only' },
  'POST /review/community/{communityId}/cases/{caseId}/decision': { rule: 'operator-only' },
  'PUT /tenant/{tenantId}/community/{communityId}/webhook': {
    rule: 'manager',
    allowed: '2xx',
    body: () => webhookBody(),
  },
  'PATCH /tenant/{tenantId}/community/{communityId}/webhook/{webhookId}': {
    rule: 'manager',
    allowed: '2xx',
    body: () => ({ name: 'Renamed' }),
  },
  'DELETE /tenant/{tenantId}/community/{communityId}/webhook/{webhookId}': {
    rule: 'manager',
    allowed: '2xx',
  },
  'POST /tenant/{tenantId}/community/{communityId}/webhooks/fetch': {
    rule: 'manager',
    allowed: '2xx',
    body: () => ({}),
  },
  'GET /tenant/{tenantId}/community/{communityId}/webhook/{webhookId}/deliveries': {
    rule: 'manager',
    allowed: '2xx',
  },
  'GET /tenant/{tenantId}/community/{communityId}/webhook/{webhookId}/delivery/{deliveryId}': {
    rule: 'manager',
    allowed: 404,
  },
  'POST /tenant/{tenantId}/community/{communityId}/webhook/{webhookId}/delivery/{deliveryId}/redeliver':
    { rule: 'manager', allowed: 404, body: () => ({}) },
  'PUT /tenant/{tenantId}/community/{communityId}/event/{eventName}': {
    rule: 'manager',
    allowed: '2xx',
    body: () => ({ dvcID: 'kyc-basic', docType: 'drivers_license', status: 'verified' }),
  },
};

const MANAGERS: Caller[] = ['system', 'service', 'service_ext', 'foreign'];
type Place = 'own' | 'foreignCommunity' | 'foreignTenant';

/** The expected outcome, derived from the rule alone. */
function expected(access: Access, caller: Caller, place: Place): Outcome {
  if (['expired', 'disabled', 'unknown', 'none'].includes(caller)) return 401;
  if (access.rule === 'operator-only') return 401;
  if (access.rule === 'license-header' || access.rule === 'any-licence') return access.allowed;
  if (access.rule === 'system-only') return caller === 'system' ? access.allowed : 403;
  if (!MANAGERS.includes(caller)) return 403;
  // a system licence passes the rule; the community is then not found in that tenant
  if (place === 'foreignTenant') return caller === 'system' ? 404 : 403;
  const covers = caller === 'system' || (place === 'own') === (caller !== 'foreign');
  return covers ? access.allowed : 403;
}

function placesOf(path: string): Place[] {
  const places: Place[] = ['own'];
  if (/\{community(Id)?\}/.test(path)) places.push('foreignCommunity');
  if (path.includes('{tenantId}')) places.push('foreignTenant');
  return places;
}

async function fill(path: string, place: Place, ctx: Ctx, world: OperatorWorld) {
  const tenantId =
    place === 'foreignTenant' ? world.platform.otherCommunity.tenantId : ctx.community.tenantId;
  let filled = path
    .replace('{community}', encodeURIComponent(ctx.community.name))
    .replace('{communityId}', ctx.community.id)
    .replace('{tenantId}', tenantId)
    .replace('{keyId}', 'AAAA')
    .replace('{eventName}', 'E_IDV_DOCUMENT_VALIDATE');
  if (filled.includes('{idOrTag}')) {
    const make = path.startsWith('/verifier/') ? ctx.fx.verifier : ctx.fx.config;
    filled = filled.replace('{idOrTag}', await make(ctx.community));
  }
  if (filled.includes('{webhookId}'))
    filled = filled.replace('{webhookId}', await ctx.fx.webhook(ctx.community));
  return filled.replace(/\{[A-Za-z]+\}/g, () => randomUUID());
}

describe('security: authorisation matrix from one table', function () {
  this.timeout(120_000);
  let world: OperatorWorld;
  let ops: Operation[];

  before(async () => {
    world = await startOperatorWorld();
    grantOperators(world);
    ops = await operations(world);
  });
  after(async () => world?.stop());

  it('the table names every secured operation the services document', () => {
    const secured = ops.filter((op) => op.security !== 'none');
    const missing = secured.filter((op) => !ACCESS[`${op.method} ${op.path}`]);
    expect(missing.map((op) => `${op.service} ${op.method} ${op.path}`)).to.deep.equal([]);
  });

  for (const service of ['docverify', 'webhooks', 'oauth'] as const) {
    it(`${service}: every (operation, caller, place) answers as the table says`, async () => {
      const actual: Record<string, Outcome | number> = {};
      const wanted: Record<string, Outcome> = {};
      const rows = ops.filter((op) => op.service === service && ACCESS[`${op.method} ${op.path}`]);
      for (const op of rows) {
        const access = ACCESS[`${op.method} ${op.path}`]!;
        for (const place of placesOf(op.path)) {
          const community =
            place === 'foreignCommunity' ? world.platform.otherCommunity : world.platform.community;
          const ctx = { community, fx: fixtures(world) };
          for (const caller of CALLERS) {
            const row = `${op.method} ${op.path} | ${caller} | ${place}`;
            const outcome = expected(access, caller, place);
            wanted[row] = outcome;
            const path = await fill(op.path, place, ctx, world);
            const body = outcome === '2xx' || outcome === 404 ? await access.body?.(ctx) : {};
            let headers: Record<string, string>;
            let payload: string | undefined;
            if (access.rule === 'license-header') {
              headers = caller === 'none' ? {} : { license: world.licences[caller] };
            } else if (access.encrypted && caller !== 'none') {
              const sealed = await world.encrypted(service, world.licences[caller], body ?? {});
              headers = sealed.headers;
              payload = sealed.body;
            } else {
              headers = await world.headers(service, caller);
              payload = op.hasBody ? JSON.stringify(body ?? {}) : undefined;
            }
            const res = await fetch(world.platform.services[service].url + path, {
              method: op.method,
              headers: { ...headers, 'content-type': 'application/json' },
              redirect: 'manual',
              ...(payload !== undefined ? { body: payload } : {}),
            });
            const text = await res.text();
            actual[row] = res.status >= 200 && res.status < 300 ? '2xx' : res.status;
            if (res.status >= 400 && !isErrorBody(JSON.parse(text), res.status))
              actual[row] = `${res.status} without the error body` as never;
          }
        }
      }
      expect(Object.keys(wanted).length).to.be.greaterThan(0);
      expect(actual).to.deep.equal(wanted);
    });
  }

  it("the operator table names every operation an operator's token is a credential of", () => {
    const documented = ops.filter((op) => op.operatorToken).map((op) => `${op.method} ${op.path}`);
    const named = Object.keys(OPERATOR_ACCESS).map((key) => key.replace(/ \(.*\)$/, ''));
    expect([...new Set(named)].sort()).to.deep.equal(documented.sort());
  });

  it('operators: every (operation, caller) answers as the operator table says', async () => {
    const targetOf = operatorTargets(world);
    const { community } = world.platform;
    // the targets first, made together (a fresh case for each allowed call that moves one)
    const calls = Object.entries(OPERATOR_ACCESS).flatMap(([key, access]) =>
      OPERATOR_CALLERS.map((caller) => {
        const status = expectedFor(access, caller);
        return { key, access, caller, status, params: targetOf(access, status < 300) };
      }),
    );
    await Promise.all(calls.map((call) => call.params));
    const wrong: string[] = [];
    for (const { key, access, caller, status, params } of calls) {
      const given: Record<string, string> = {
        communityId: community.id,
        tenantId: community.tenantId,
        name: 'front',
        ...(await params),
      };
      const [method, path] = key.split(' ') as [string, string];
      const filled = path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => given[name]!);
      const body = access.body?.(given);
      const res = await fetch(world.platform.services[access.service].url + filled, {
        method,
        headers: {
          ...operatorHeaders(world, caller),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      const errorBody = res.status < 400 || isErrorBody(JSON.parse(text), res.status);
      if (res.status !== status || !errorBody)
        wrong.push(
          `${key} | ${caller}: ${res.status}${errorBody ? '' : ' without the error body'}, not ${status}`,
        );
    }
    expect(wrong).to.deep.equal([]);
  });
});
