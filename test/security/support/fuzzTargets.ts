// What the fuzzer sends to an operation: a valid body to mutate, the path filled with real
// resources, and the check every answer must pass (no 5xx, errors in the error body).
import { randomUUID } from 'node:crypto';
import { ecdsaVectors } from '@idv/testing/ecdsaVectors';
import { configBody, verifierBody, webhookBody } from './fixtures.ts';
import { isErrorBody, isOauthErrorBody, type Operation, type SecurityWorld } from './world.ts';

const vector = ecdsaVectors[0]!;

export interface Resources {
  verifier: string;
  config: string;
  webhook: string;
}

export const isIssuerRoute = (op: Operation) => op.path.startsWith('/community/{community}/');

/** A body the operation accepts (or close to it), so mutations reach the handler's rules. */
export function validBody(
  op: Operation,
  world: SecurityWorld,
  r: Resources,
): Record<string, unknown> {
  const c = world.platform.community;
  const helperField = op.service === 'oauth' ? 'dataStr' : 'data';
  const bodies: Record<string, Record<string, unknown>> = {
    'POST /ecdsa_helper/{method}': {
      [helperField]: 'hello',
      publicKey: vector.servicePublicKey,
      privateKey: vector.callerPrivateKey,
    },
    'PUT /verifier/community/{communityId}': verifierBody(),
    'PATCH /verifier/community/{communityId}/{idOrTag}': {
      name: 'n',
      connectorUrl: 'http://127.0.0.1:9/x',
      config: { apiKey: 'k' },
    },
    'PUT /verificationConfig/community/{communityId}': configBody(c, r.verifier),
    'PATCH /verificationConfig/community/{communityId}/{idOrTag}': {
      name: 'n',
      ssn_verify: [{ verifier: r.verifier }],
      settings: {},
    },
    'POST /verify': { data: 'AAAA' },
    'PUT /tenant/{tenantId}/community/{communityId}/webhook': webhookBody(
      { username: 'u', password: 'p' },
      'basic',
    ),
    'PATCH /tenant/{tenantId}/community/{communityId}/webhook/{webhookId}': {
      name: 'n',
      disabled: true,
      retryCount: 1,
    },
    'POST /tenant/{tenantId}/community/{communityId}/webhooks/fetch': {
      pIndex: 0,
      pSize: 25,
      tags: ['a'],
    },
    'PUT /tenant/{tenantId}/community/{communityId}/event/{eventName}': {
      dvcID: 'kyc',
      docType: 'dl',
      status: 'verified',
    },
  };
  return bodies[`${op.method} ${op.path}`] ?? {};
}

/** The path with every parameter filled: real resources where they exist, `override` for one. */
export function fillPath(
  op: Operation,
  world: SecurityWorld,
  r: Resources,
  override?: { param: string; value: string },
): string {
  const c = world.platform.community;
  const values: Record<string, string> = {
    community: encodeURIComponent(c.name),
    communityId: c.id,
    tenantId: c.tenantId,
    idOrTag: op.path.startsWith('/verifier/') ? r.verifier : r.config,
    webhookId: r.webhook,
    eventName: 'E_IDV_DOCUMENT_VALIDATE',
    method: 'encrypt',
  };
  return op.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) =>
    override?.param === name ? override.value : (values[name] ?? randomUUID()),
  );
}

export const paramsOf = (op: Operation) =>
  [...op.path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);

export interface Sent {
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** the statuses that are right for this case; any non-5xx when absent */
  expect?: number[];
}

/** Sends one case; answers a description of what is wrong, or undefined. */
export async function probe(world: SecurityWorld, op: Operation, sent: Sent) {
  const url = world.platform.services[op.service].url + sent.path;
  let res: Response;
  try {
    res = await fetch(url, {
      method: op.method,
      headers: sent.headers ?? {},
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
      ...(sent.body !== undefined ? { body: sent.body } : {}),
    });
  } catch (err) {
    return `no answer (${(err as Error).name}: ${(err as Error).message})`;
  }
  const text = await res.text();
  // Node's HTTP parser answers an over-long request head itself; the app never sees it
  if (res.status === 431 && text === '') return undefined;
  if (res.status >= 500) return `${res.status} ${text.slice(0, 300)}`;
  if (sent.expect && !sent.expect.includes(res.status))
    return `${res.status} instead of ${sent.expect.join('/')}: ${text.slice(0, 200)}`;
  if (res.status < 400 || op.method === 'HEAD') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${res.status} with a body that is not JSON: ${text.slice(0, 120)}`;
  }
  if (isErrorBody(body, res.status)) return undefined;
  if (isIssuerRoute(op) && isOauthErrorBody(body)) return undefined;
  return `${res.status} without the error body: ${text.slice(0, 200)}`;
}
