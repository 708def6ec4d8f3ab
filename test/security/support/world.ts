// The platform for the security suites: every licence level, another tenant's licence, the
// service public keys, and requests with the three headers built by the independent caller.
import { LicenceStore, type LicenceLevel } from '@idv/platform';
import { credentialHeaders, newCaller, seal, shared } from '@idv/testing/independentClient';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

export const SERVICES = ['oauth', 'docverify', 'webhooks'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** Who calls: a licence of a level, a foreign tenant's licence, or a broken/missing credential. */
export const CALLERS = [
  'system',
  'service',
  'service_ext',
  'community',
  'foreign',
  'expired',
  'disabled',
  'unknown',
  'none',
] as const;
export type Caller = (typeof CALLERS)[number];

export interface SecurityWorld {
  platform: RunningPlatform;
  licences: Record<Exclude<Caller, 'none'>, string>;
  publicKey(service: ServiceName): Promise<string>;
  /** the three headers for `caller` (none: no headers), fresh uuid and ts each time */
  headers(service: ServiceName, caller: Caller): Promise<Record<string, string>>;
  /** headers plus {data: encrypt(body)} under the same caller key, for POST /verify */
  encrypted(
    service: ServiceName,
    licence: string,
    body: unknown,
  ): Promise<{ headers: Record<string, string>; body: string }>;
  stop(): Promise<void>;
}

export async function startSecurityWorld(
  overrides: Record<string, string> = {},
): Promise<SecurityWorld> {
  const platform = await startPlatform(overrides);
  const store = new LicenceStore(platform.database.db);
  const create = async (level: LicenceLevel, ids: string[]) =>
    (await store.create({ level, communityIds: ids })).licenseKey;
  const licences = {
    system: platform.licences.system,
    service: platform.licences.service,
    service_ext: await create('service_ext', [platform.community.id]),
    community: platform.licences.community,
    foreign: platform.licences.serviceElsewhere,
    expired: platform.licences.expired,
    disabled: platform.licences.disabled,
    unknown: 'lk_unknown_0000000000000000',
  };
  const publicKey = async (service: ServiceName) => {
    const res = await fetch(`${platform.services[service].url}/publickeys`);
    return ((await res.json()) as { publicKey: string }).publicKey;
  };
  return {
    platform,
    licences,
    publicKey,
    async headers(service, caller) {
      if (caller === 'none') return {};
      const servicePublicKey = await publicKey(service);
      return credentialHeaders({ licenseKey: licences[caller], servicePublicKey });
    },
    async encrypted(service, licenseKey, body) {
      const servicePublicKey = await publicKey(service);
      const caller = newCaller();
      const headers = credentialHeaders({ licenseKey, servicePublicKey, caller });
      const data = seal(shared(caller, servicePublicKey), JSON.stringify(body));
      return { headers, body: JSON.stringify({ data }) };
    },
    stop: () => platform.stop(),
  };
}

/** The error body every service answers with: {statusCode, error, message[, details]}. */
export function isErrorBody(body: unknown, status: number): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return b.statusCode === status && typeof b.error === 'string' && typeof b.message === 'string';
}

/** The OAuth 2.0 error body (RFC 6749 5.2) that the issuer routes answer with. */
export function isOauthErrorBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as never)['error'] === 'string';
}

export interface Operation {
  service: ServiceName;
  method: string;
  /** OpenAPI path, with {param} placeholders */
  path: string;
  /**
   * whether it takes the three credential headers (or the plain license header), or only an
   * operator's bearer token
   */
  security: 'credentials' | 'license' | 'operator' | 'none';
  /** an operator's bearer token is a credential of it (alone or beside the licence's) */
  operatorToken: boolean;
  hasBody: boolean;
}

/** Every operation of every service, read from its /openapi.json (so new routes are covered). */
export async function operations(world: SecurityWorld): Promise<Operation[]> {
  const all: Operation[] = [];
  for (const service of SERVICES) {
    const res = await fetch(`${world.platform.services[service].url}/openapi.json`);
    const doc = (await res.json()) as {
      paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const names = (op.security ?? []).flatMap((s) => Object.keys(s));
        const security = names.includes('licensekey')
          ? 'credentials'
          : names.includes('license')
            ? 'license'
            : names.includes('operator')
              ? 'operator'
              : 'none';
        const upper = method.toUpperCase();
        all.push({
          service,
          method: upper,
          path,
          security,
          operatorToken: names.includes('operator'),
          hasBody: ['POST', 'PUT', 'PATCH'].includes(upper),
        });
      }
    }
  }
  return all;
}

export const opName = (op: Pick<Operation, 'service' | 'method' | 'path'>) =>
  `${op.service} ${op.method} ${op.path}`;
