// OpenAPI 3.1 from a service's route table and the contract schemas it validates with: the
// document cannot drift from what the service registers (apiReference.ts shows it at /docs).
import { ErrorBody } from '@idv/contracts';
import type { TSchema } from '@sinclair/typebox';
import { COMMON_TAG, securityOf, type OpenApiSecurity, type Route } from './routes.ts';

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

/** Operations served outside the route table (mounted routers), documented by hand. */
export interface ExternalOperation {
  method: string;
  path: string;
  summary: string;
  /** status of the success answer (e.g. 303 for a redirect); 200 when absent */
  success?: number;
  /** every error status it answers (the mounted router's own error bodies, e.g. OAuth 2.0) */
  errors?: number[];
  /** the credentials it takes, when it takes ours (HTTP Basic client auth is not listed) */
  security?: OpenApiSecurity;
}

type Json = Record<string, unknown>;

/** A contract schema as plain JSON Schema: no $id (ajv's cache key), no TypeBox symbols. */
function plain(schema: TSchema): Json {
  return JSON.parse(
    JSON.stringify(schema, (key, value: unknown) => (key === '$id' ? undefined : value)),
  ) as Json;
}

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const pathParameters = (path: string) =>
  [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));

const SECURITY = {
  credentials: [{ publickey: [], licensekey: [], requestid: [] }],
  license: [{ license: [] }],
  operator: [{ operator: [] }],
  credentials_or_operator: [{ publickey: [], licensekey: [], requestid: [] }, { operator: [] }],
};

const errorResponse = {
  description: 'error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
};

/**
 * The error statuses a route can answer, derived from how the app handles it: 400 for a bad body,
 * path parameter or query, 401/403 from its credential guard (403 only where a licence level or
 * community rule applies) and 429 from its rate limits, 404 for what it names, 413 for a body over
 * the limit, 503 when the database or broker its guard or handler uses is away, plus what its doc
 * adds.
 */
function errorStatuses(route: Route): number[] {
  const security = securityOf(route);
  const parsesBody = route.jsonBody ?? ['POST', 'PUT', 'PATCH'].includes(route.method);
  const hasParams = route.path.includes(':');
  return [
    ...new Set([
      ...(parsesBody || hasParams || route.doc?.body ? [400] : []),
      ...(security ? [401, 429, 503] : []),
      ...(security && security !== 'license' ? [403] : []),
      404,
      ...(parsesBody ? [413] : []),
      500,
      ...(route.doc?.errors ?? []),
    ]),
  ].sort((a, b) => a - b);
}

/** The group of a path: its first segment (`/capture-api/images/:side`: capture-api). */
const tagOf = (path: string) => path.split('/').find((segment) => segment !== '') ?? COMMON_TAG;
/** A route's group: the one it names, else its path's. */
const routeTag = (route: Route) => route.tag ?? tagOf(route.path);

function operation(route: Route): Json {
  const doc = route.doc;
  const security = securityOf(route);
  const success = String(doc?.success ?? 200);
  const responses: Json = {
    [success]: doc?.response
      ? { description: 'success', content: { 'application/json': { schema: plain(doc.response) } } }
      : { description: 'success' },
  };
  for (const alt of doc?.alternatives ?? [])
    responses[String(alt.status)] = {
      description: `success when ${alt.when}`,
      ...(alt.response ? { content: { 'application/json': { schema: plain(alt.response) } } } : {}),
    };
  for (const status of errorStatuses(route)) responses[String(status)] = errorResponse;
  return {
    tags: [routeTag(route)],
    summary: doc?.summary ?? `${route.method} ${route.path}`,
    parameters: pathParameters(route.path),
    ...(doc?.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: plain(doc.body) } },
          },
        }
      : {}),
    responses,
    ...(security ? { security: SECURITY[security] } : {}),
  };
}

function externalOperation(op: ExternalOperation): Json {
  const responses: Json = { [String(op.success ?? 200)]: { description: 'success' } };
  const limited = op.security ? [429] : [];
  for (const status of [...new Set([...(op.errors ?? []), ...limited, 500])].sort((a, b) => a - b))
    responses[String(status)] = { description: 'error' };
  return {
    tags: [tagOf(op.path)],
    summary: op.summary,
    responses,
    ...(op.security ? { security: SECURITY[op.security] } : {}),
  };
}

export function openApiDocument(
  info: OpenApiInfo,
  routes: Route[],
  external: ExternalOperation[] = [],
): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route) };
  }
  for (const op of external) {
    paths[op.path] = {
      ...paths[op.path],
      [op.method.toLowerCase()]: externalOperation(op),
    };
  }
  const header = (name: string, description: string) => ({
    type: 'apiKey',
    in: 'header',
    name,
    description,
  });
  // the service's own groups in the order its routes come, the endpoints every service has last
  const tags = [
    ...new Set([...routes.map(routeTag), ...external.map((op) => tagOf(op.path))]),
  ].sort((a, b) => Number(a === COMMON_TAG) - Number(b === COMMON_TAG));
  return {
    openapi: '3.1.0',
    info,
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: { ErrorBody: plain(ErrorBody) },
      securitySchemes: {
        publickey: header('publickey', "the caller's secp256k1 public key, base64 X||Y"),
        licensekey: header('licensekey', 'the licence key, AES-256-GCM under the ECDH shared key'),
        requestid: header(
          'requestid',
          'JSON {appid, uuid, ts} (optionally htm, htu: the method and path it is bound to), AES-256-GCM under the ECDH shared key',
        ),
        license: header('license', 'the plain licence key'),
        operator: {
          type: 'http',
          scheme: 'bearer',
          description: "an operator's access token from the operators' issuer (scope `operator`)",
        },
      },
    },
  };
}
