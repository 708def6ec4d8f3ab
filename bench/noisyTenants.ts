// The two tenants of the noisy-neighbour bench, each with its own tenant, community and licences,
// made as the dev setup makes them (TenantStore, LicenceStore): A, the victim, with verifiers at
// the provider sandbox, a session journey and a webhook; B, the attacker, with the same plus
// verifiers at a closed port and at a sandbox route that never answers, a basic_ocr verifier for
// image bombs, and webhooks at a hanging and a failing receiver on the same host as A's.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IdvClient } from '@idv/client';
import { CONSENT_TEXT_VERSION } from '@idv/contracts';
import type { Knex } from '@idv/db';
import {
  LicenceStore,
  RateLimitStore,
  TenantStore,
  type Community,
  type RateLimit,
} from '@idv/platform';
import { jpeg, png, selfieImage } from '@idv/samples/captureImages';
import { licenceBack, licenceFront } from '@idv/samples/idDocuments';
import { freePort } from './processes.ts';

export interface Tenant {
  community: Community;
  /** a service licence of the community: its verifiers, configs, sessions, webhooks, /verify */
  docverify: IdvClient;
  webhooks: IdvClient;
  licence: string;
}

/** A tenant, its community and a service licence of it. */
async function makeTenant(db: Knex, urls: Record<string, string>, name: string) {
  const tenants = new TenantStore(db);
  const suffix = randomBytes(3).toString('hex');
  const tenant = await tenants.createTenant(`bench-${name}-${suffix}`);
  const community = await tenants.createCommunity(tenant.id, `bench-${name}-${suffix}`);
  const licences = new LicenceStore(db);
  const made = await licences.create({ level: 'service', communityIds: [community.id] });
  const licence = made.licenseKey;
  const licenceIds = [made.licence.id];
  const client = (baseUrl: string) => new IdvClient({ baseUrl, licenseKey: licence });
  return {
    community,
    licence,
    licenceIds,
    docverify: client(urls['docverify-gateway']!),
    webhooks: client(urls['webhooks-gateway']!),
    /** another service licence of the same community (B's flood has its own bucket) */
    another: async () => {
      const made = await licences.create({ level: 'service', communityIds: [community.id] });
      licenceIds.push(made.licence.id);
      return made.licenseKey;
    },
  };
}

async function put(client: IdvClient, path: string, body: object): Promise<{ _id?: string }> {
  const res = await client.request<{ _id?: string }>('PUT', path, body);
  if (res.status !== 200) throw new Error(`PUT ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Verifiers `faces`, `review`, `live` at `sandboxUrl`, the config `kyc` (face_compare) and the
 * session journey `kyc-session`. */
async function configure(tenant: Tenant, sandboxUrl: string): Promise<void> {
  const c = tenant.community;
  const verifier = (tag: string, type: string, url = sandboxUrl, config: object = {}) =>
    put(tenant.docverify, `/verifier/community/${c.id}`, {
      name: tag,
      tag,
      type,
      connectorUrl: url,
      config: { apiKey: 'sandbox-key', ...config },
    });
  await verifier('faces', 'face_compare_b');
  await verifier('review', 'auto_review');
  await verifier('live', 'liveness', sandboxUrl, { documentApiKey: 'sandbox-key' });
  const config = (tag: string, arrays: object) =>
    put(tenant.docverify, `/verificationConfig/community/${c.id}`, {
      tenantId: c.tenantId,
      tag,
      ...arrays,
    });
  await config('kyc', { face_compare: [{ verifier: 'faces' }] });
  const documents = [{ verifier: 'review' }];
  await config('kyc-session', {
    dl_authenticate: documents,
    idcard_authenticate: documents,
    ppt_authenticate: documents,
    document_liveness: [{ verifier: 'live' }],
    face_compare: [{ verifier: 'faces' }],
    face_liveness: [{ verifier: 'live' }],
  });
}

/** B's own bad verifiers and their configs: `kyc-dead`, `kyc-hang`, `kyc-ocr`. */
async function configureAttacks(b: Tenant, sandboxUrl: string): Promise<void> {
  const c = b.community;
  const verifier = (tag: string, type: string, url: string) =>
    put(b.docverify, `/verifier/community/${c.id}`, {
      name: tag,
      tag,
      type,
      connectorUrl: url,
      config: type === 'basic_ocr' ? {} : { apiKey: 'sandbox-key' },
    });
  await verifier('dead', 'face_compare_b', `http://127.0.0.1:${await freePort()}`);
  await verifier('hang', 'face_compare_b', `${sandboxUrl}/fault/hang`);
  await verifier('ocr', 'basic_ocr', sandboxUrl);
  const config = (tag: string, arrays: object) =>
    put(b.docverify, `/verificationConfig/community/${c.id}`, {
      tenantId: c.tenantId,
      tag,
      ...arrays,
    });
  await config('kyc-dead', { face_compare: [{ verifier: 'dead' }] });
  await config('kyc-hang', { face_compare: [{ verifier: 'hang' }] });
  await config('kyc-ocr', { dl_authenticate: [{ verifier: 'ocr' }] });
}

/**
 * One receiver host for both tenants' webhooks: /a records when A's events arrive, /hang never
 * answers, /fail answers 500.
 */
export async function startReceivers(): Promise<{
  server: Server;
  url: (path: string) => string;
  arrivals: Map<string, number>;
  close(): Promise<void>;
}> {
  const arrivals = new Map<string, number>();
  const server = createServer((req, res) => {
    if (req.url === '/hang') return; // never answers
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/fail') return res.writeHead(500).end('{}');
      arrivals.set((JSON.parse(body) as { eventId: string }).eventId, Date.now());
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    arrivals,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function subscribe(tenant: Tenant, url: string): Promise<void> {
  const c = tenant.community;
  await put(tenant.webhooks, `/tenant/${c.tenantId}/community/${c.id}/webhook`, {
    name: 'bench callbacks',
    eventNames: ['E_IDV_DOCUMENT_VALIDATE'],
    api: { type: 'POST', url, authType: 'none' },
    successCodes: [200, 204],
    retryCodes: [500, 503],
    retryCount: 2,
  });
}

export interface Tenants {
  a: Tenant;
  b: Tenant;
  /** B's second licence, for the flood */
  bFloodLicence: string;
}

/**
 * A and B; each of B's licences gets `bLimit` as an operator sets it (admin ratelimit set), A
 * keeps the platform's defaults.
 */
export async function makeTenants(
  db: Knex,
  urls: Record<string, string>,
  receivers: { url: (path: string) => string },
  bLimit: RateLimit,
): Promise<Tenants> {
  const a = await makeTenant(db, urls, 'a');
  const b = await makeTenant(db, urls, 'b');
  const sandboxUrl = urls['provider-sandbox']!;
  await configure(a, sandboxUrl);
  await configure(b, sandboxUrl);
  await configureAttacks(b, sandboxUrl);
  await subscribe(a, receivers.url('/a'));
  await subscribe(b, receivers.url('/hang'));
  await subscribe(b, receivers.url('/fail'));
  const bFloodLicence = await b.another();
  const limits = new RateLimitStore(db);
  for (const id of b.licenceIds) await limits.set({ scope: 'licence', id }, bLimit);
  return { a, b, bFloodLicence };
}

/** Session page calls with a page token. */
export function pageCall(docverifyUrl: string, token: string) {
  return async (method: string, path: string, body?: Uint8Array | object, type?: string) => {
    const bytes = body instanceof Uint8Array ? body : body && JSON.stringify(body);
    const res = await fetch(`${docverifyUrl}/capture-api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': type ?? 'application/json' }),
      },
      ...(bytes === undefined ? {} : { body: bytes }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    return { status: res.status, body: text, retryAfter: res.headers.get('retry-after') };
  };
}

/** A new session of `tenant`'s journey opened to the licence front upload; its page caller. */
export async function openSession(tenant: Tenant, docverifyUrl: string) {
  const created = await tenant.docverify.createSession('kyc-session', {
    tenantDNS: 'bank.example',
    communityName: tenant.community.name,
    userUID: `user-${randomBytes(4).toString('hex')}`,
  });
  const page = pageCall(docverifyUrl, new URL(created.url).pathname.split('/').at(-1)!);
  const steps = [
    await page('GET', '/session'),
    await page('POST', '/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION }),
    await page('POST', '/document-type', { documentType: 'DL' }),
  ];
  const failed = steps.find((step) => step.status !== 200);
  if (failed) throw new Error(`session step answered ${failed.status} ${failed.body}`);
  return page;
}

/** A's ordinary capture images (the sandbox knows Testy McTestface). */
export async function ordinaryImages() {
  return {
    front: await png(licenceFront(), 'DOC:testy', 'FACE:testy'),
    back: await png(await licenceBack(), 'DOC:testy'),
    selfie: await jpeg(selfieImage(), 'FACE:testy'),
  };
}
