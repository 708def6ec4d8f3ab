// A service's endpoints as a declared table; the factory adds 405-with-Allow and 404 from it.
import type { TSchema } from '@sinclair/typebox';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: HttpMethod;
  /** express path pattern, e.g. /servicekey/:keyId */
  path: string;
  /** the path carries a credential (a capture link's token): the access log writes the pattern */
  secretPath?: boolean;
  /** middleware run before the handler, e.g. the credential check declared for this endpoint */
  guards?: RequestHandler[];
  /** whether a JSON body is parsed; defaults to true for POST, PUT and PATCH */
  jsonBody?: boolean;
  handler: (req: Request, res: Response) => unknown;
  /** what /openapi.json says of it; the schemas are the ones the handler validates with */
  doc?: RouteDoc;
  /** the group /docs lists it under; the path's first segment when absent */
  tag?: string;
}

/** The group of the endpoints every service has (/healthz, /sd, /docs...). */
export const COMMON_TAG = 'common endpoints';

export interface RouteDoc {
  summary: string;
  body?: TSchema;
  response?: TSchema;
  /** status of the success answer; 200 when absent */
  success?: number;
  /** other success answers a request option selects, e.g. 202 for `Prefer: respond-async` */
  alternatives?: { status: number; when: string; response?: TSchema }[];
  /** the error statuses it can answer besides 400/401/403/404/500 as they apply */
  errors?: number[];
}

/** Guards declare which credentials they check so the OpenAPI document can say so. */
export type OpenApiSecurity = 'credentials' | 'license' | 'operator' | 'credentials_or_operator';

export function securityOf(route: Route): OpenApiSecurity | undefined {
  for (const guard of route.guards ?? []) {
    const security = (guard as { openapiSecurity?: OpenApiSecurity }).openapiSecurity;
    if (security) return security;
  }
  return undefined;
}

export function allowedMethods(routes: Route[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? [];
    methods.push(route.method);
    if (route.method === 'GET') methods.push('HEAD');
    byPath.set(route.path, methods);
  }
  return byPath;
}

/** Wraps a handler so a returned promise's rejection reaches the error middleware. */
export function asMiddleware(handler: Route['handler']): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    Promise.resolve()
      .then(() => handler(req, res))
      .catch(next);
  };
}
