// The endpoints every HTTP service serves. Where the oauth and webhooks specs disagree (service
// key reset answer, helper body field names) the service picks its spec's variant.
import type { CredentialAuth } from '@idv/auth';
import {
  EcdsaHelperDataBody,
  EcdsaHelperOauthBody,
  Environment as EnvironmentSchema,
  Health,
  PublicKeyObject,
  ServiceDirectory,
  ServiceKeyBody,
  ServiceKeyGraceEnded,
  WellKnownPublicKey,
  type Environment,
} from '@idv/contracts';
import { Type } from '@sinclair/typebox';
import { decrypt, deriveSharedKey, encrypt, publicKeyFromPrivate } from '@idv/crypto';
import { BadRequest, COMMON_TAG, NotFound, parseBody, type Route } from '@idv/http';
import type { Registry } from '@idv/observability';
import type { ServiceKeyStore } from '@idv/platform';
import { isReadinessProbe, runChecks, type HealthCheck } from './health.ts';

export interface CommonRouteOptions {
  serviceKeys: ServiceKeyStore;
  auth: CredentialAuth;
  registry: Registry;
  version: string;
  /** interface version from the service's spec, reported by /environment */
  apiVersion: string;
  allowedTimeSpan: number;
  directory: Record<string, string>;
  checks: Record<string, HealthCheck>;
  /** oauth: 204 without body; webhooks: 200 with an array holding the new key */
  serviceKeyReset: 'no-content' | 'key-array';
  /** oauth: {dataStr} in, {data} out; webhooks: {data} in, {data, publicKey} out */
  ecdsaHelper: 'dataStr' | 'data';
  /** webhooks only: GET /.well-known answering {public_key, previous_public_keys} */
  wellKnownPublicKey?: boolean;
}

const systemOnly = { levels: ['system'] as const };

/** The current key and the previous ones still accepted, as /publickeys answers them. */
async function publishedKeys(serviceKeys: ServiceKeyStore): Promise<PublicKeyObject> {
  const { current, previous } = await serviceKeys.keySet();
  return {
    publicKey: current.key.keyId,
    previousKeys: previous.map((p) => ({
      publicKey: p.key.keyId,
      acceptedUntil: p.acceptedUntil.toISOString(),
    })),
  };
}

function runHelper(method: string, text: string, publicKey: string, privateKey: string): string {
  let key: Buffer;
  try {
    key = deriveSharedKey(privateKey, publicKey);
  } catch (err) {
    throw new BadRequest(`invalid encrypt/decrypt keys: ${(err as Error).message}`);
  }
  if (method === 'encrypt') return encrypt(key, text);
  try {
    return decrypt(key, text);
  } catch (err) {
    throw new BadRequest(`cannot decrypt: ${(err as Error).message}`);
  }
}

function ecdsaHelperRoute(variant: CommonRouteOptions['ecdsaHelper'], path: string): Route {
  const withMethod = path.endsWith(':method');
  return {
    method: 'POST',
    path,
    doc: {
      summary: withMethod
        ? 'encrypts or decrypts with the shared key of the given key pair (method: encrypt or decrypt)'
        : 'encrypts with the shared key of the given key pair (the method defaults to encrypt)',
      body: variant === 'dataStr' ? EcdsaHelperOauthBody : EcdsaHelperDataBody,
    },
    handler: (req, res) => {
      const method = withMethod ? req.params.method : 'encrypt';
      if (method !== 'encrypt' && method !== 'decrypt')
        throw new BadRequest('method must be encrypt or decrypt');
      if (variant === 'dataStr') {
        const body = parseBody(EcdsaHelperOauthBody, req.body ?? {});
        res.json({ data: runHelper(method, body.dataStr, body.publicKey, body.privateKey) });
        return;
      }
      const body = parseBody(EcdsaHelperDataBody, req.body ?? {});
      const data = runHelper(method, body.data ?? '', body.publicKey, body.privateKey);
      res.json({ data, publicKey: publicKeyFromPrivate(body.privateKey) });
    },
  };
}

export function commonRoutes(options: CommonRouteOptions): Route[] {
  const { serviceKeys, auth } = options;
  const health = async (): Promise<Health> => {
    const { allUp, checks } = await runChecks(options.checks);
    const publicKey = serviceKeys.cachedPublicKey() ?? (await serviceKeys.currentKey()).key.keyId;
    return {
      status: allUp ? 'ok' : 'degraded',
      publicKey,
      code: allUp ? '200' : '503',
      version: options.version,
      checks: checks as Health['checks'],
    };
  };

  const routes: Route[] = [
    {
      method: 'GET',
      path: '/healthz',
      doc: {
        summary:
          'liveness and dependency status, the public key and the build version; with ?ready=1 a degraded service answers 503 (readiness probes)',
        response: Health,
        errors: [503],
      },
      handler: async (req, res) => {
        const body = await health();
        const readiness = isReadinessProbe(req.query as Record<string, unknown>);
        res.status(readiness && body.status !== 'ok' ? 503 : 200).json(body);
      },
    },
    {
      method: 'GET',
      path: '/publickeys',
      doc: {
        summary:
          "the service's current public key, and the previous keys a reset replaced that are still accepted, with the time each stops being accepted",
        response: PublicKeyObject,
      },
      handler: async (_req, res) => res.json(await publishedKeys(serviceKeys)),
    },
    {
      method: 'GET',
      path: '/sd',
      doc: { summary: 'the service directory', response: ServiceDirectory },
      handler: (_req, res) => res.json(options.directory),
    },
    {
      method: 'GET',
      path: '/environment',
      doc: {
        summary: 'time window, curve and versions (nothing secret)',
        response: EnvironmentSchema,
      },
      guards: [auth.requireLicenceHeader()],
      handler: (_req, res) => {
        const environment: Environment = {
          service: serviceKeys.service,
          allowed_time_span: options.allowedTimeSpan,
          curve: 'secp256k1',
          cipher: 'aes-256-gcm',
          versions: { api: options.apiVersion, build: options.version },
        };
        res.json(environment);
      },
    },
    {
      method: 'GET',
      path: '/servicekeys',
      doc: { summary: 'the service key (system licence)', response: Type.Array(ServiceKeyBody) },
      guards: [auth.require(systemOnly)],
      handler: async (_req, res) => res.json([(await serviceKeys.currentKey()).key]),
    },
    {
      method: 'DELETE',
      path: '/servicekey/:keyId',
      doc: {
        summary:
          'deletes the current service key and makes a new one (system licence); the replaced key stays accepted for SERVICE_KEY_GRACE_SECONDS',
        ...(options.serviceKeyReset === 'no-content'
          ? { success: 204 }
          : { response: Type.Array(ServiceKeyBody) }),
      },
      guards: [auth.require(systemOnly)],
      handler: async (req, res) => {
        const created = await serviceKeys.reset(String(req.params.keyId));
        if (!created) throw new NotFound('keyId is not the current service key');
        if (options.serviceKeyReset === 'no-content') res.status(204).end();
        else res.json([created]);
      },
    },
    {
      method: 'POST',
      path: '/servicekeys/end-grace',
      doc: {
        summary:
          'ends the grace of every previous service key at once (system licence): credentials and bodies made with them are refused from now on, here at once and on other replicas within their 5 s re-read; the current key stays',
        response: ServiceKeyGraceEnded,
      },
      guards: [auth.require(systemOnly)],
      handler: async (_req, res) => res.json(await serviceKeys.endGrace()),
    },
    ecdsaHelperRoute(options.ecdsaHelper, '/ecdsa_helper/:method'),
    // the spec's method segment defaults to encrypt: the path without it encrypts
    ecdsaHelperRoute(options.ecdsaHelper, '/ecdsa_helper'),
    {
      method: 'GET',
      path: '/metrics',
      doc: { summary: 'Prometheus metrics' },
      handler: async (_req, res) => {
        res.type(options.registry.contentType).send(await options.registry.metrics());
      },
    },
  ];
  if (options.wellKnownPublicKey) {
    routes.push({
      method: 'GET',
      path: '/.well-known',
      doc: {
        summary: 'the public key as public_key, and the previous keys still accepted',
        response: WellKnownPublicKey,
      },
      handler: async (_req, res) => {
        const { publicKey, previousKeys } = await publishedKeys(serviceKeys);
        res.json({
          public_key: publicKey,
          previous_public_keys: previousKeys.map((p) => ({
            public_key: p.publicKey,
            accepted_until: p.acceptedUntil,
          })),
        });
      },
    });
  }
  return routes.map((route) => ({ ...route, tag: COMMON_TAG }));
}
