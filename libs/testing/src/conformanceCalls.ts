// A valid call of every operation the three services document, for the OpenAPI conformance test:
// who calls, the path parameters, the query and the body. Keyed by "METHOD /openapi/path"; the
// same key serves every service that has the operation.
import { generateKeyPair } from '@idv/crypto';
import { DOCVERIFY, OAUTH, WEBHOOKS } from './conformanceCallsByService.ts';
import { REVIEW } from './conformanceCallsReview.ts';
import type { Caller, ConformanceWorld, Service } from './conformanceWorld.ts';

export interface ValidCall {
  /** whose credential headers go with it; 'license' is the plain license header */
  caller?: Caller | 'license';
  params?: Record<string, string>;
  query?: string;
  headers?: Record<string, string>;
  /** a JSON body, sent as it is */
  body?: unknown;
  /** a JSON payload sent as {data: encrypt(payload)} under the caller's shared key */
  encrypted?: unknown;
  /** a form-encoded body */
  form?: Record<string, string>;
  /** a raw body of this media type (an image upload) */
  raw?: { bytes: Buffer; type: string };
}

export interface CallRule {
  valid(w: ConformanceWorld, service: Service): Promise<ValidCall>;
  /** a licence below the operation's level rule: it must answer 403 */
  lowLevel?: Caller;
  /** false: the last path parameter names no resource (an unknown value is not a 404) */
  unknown?: false;
  /** a form body breaking the protocol (JSON bodies are broken generically): 400 */
  badForm?: Record<string, string>;
  /** what the call without its credentials answers, when not 401 */
  bareStatus?: number;
  /** the further success statuses documented (e.g. 202), each with the headers that select it */
  variants?: Record<number, Record<string, string>>;
}

const keyPair = generateKeyPair();
const other = generateKeyPair();

const plain: ValidCall = {};

const COMMON: Record<string, CallRule> = {
  'GET /healthz': { valid: async () => plain },
  'GET /publickeys': { valid: async () => plain },
  'GET /sd': { valid: async () => plain },
  'GET /metrics': { valid: async () => plain },
  'GET /openapi.json': { valid: async () => plain },
  'GET /docs': { valid: async () => plain },
  'GET /docs/{asset}': { valid: async () => ({ params: { asset: 'swagger-ui.css' } }) },
  'GET /.well-known': { valid: async () => plain },
  'GET /environment': { valid: async () => ({ caller: 'license' }) },
  'GET /servicekeys': { valid: async () => ({ caller: 'system' }), lowLevel: 'service' },
  'POST /servicekeys/end-grace': { valid: async () => ({ caller: 'system' }), lowLevel: 'service' },
  'DELETE /servicekey/{keyId}': {
    valid: async (w, service) => {
      const res = await fetch(`${w.url(service)}/publickeys`);
      const { publicKey } = (await res.json()) as { publicKey: string };
      return { caller: 'system', params: { keyId: encodeURIComponent(publicKey) } };
    },
    lowLevel: 'service',
  },
  'POST /ecdsa_helper/{method}': {
    valid: async (_w, service) => ({ params: { method: 'encrypt' }, body: helperBody(service) }),
    unknown: false,
  },
  // the specs' default method is encrypt: the path without one
  'POST /ecdsa_helper': {
    valid: async (_w, service) => ({ body: helperBody(service) }),
    unknown: false,
  },
};

function helperBody(service: Service) {
  return {
    [service === 'oauth' ? 'dataStr' : 'data']: 'hello',
    publicKey: other.publicKey,
    privateKey: keyPair.privateKey,
  };
}

export const CALLS: Record<Service, Record<string, CallRule>> = {
  oauth: { ...COMMON, ...OAUTH },
  docverify: { ...COMMON, ...DOCVERIFY, ...REVIEW },
  webhooks: { ...COMMON, ...WEBHOOKS },
};
