// The sandbox's routes: a route answers one method and path (exact, or with `:name` segments). The
// table finds exact paths in a Map and tries the few parameterised ones after.
import type { IncomingHttpHeaders } from 'node:http';
import type { ParsedUrlQuery } from 'node:querystring';
import { decodedSegment } from './requestError.ts';

const undecodableParam = (part: string) => `Failed to decode param '${part}'`;

/** What a route sees of a request. */
export interface Call {
  method: string;
  /** the path the route matched: fault prefixes and query stripped */
  path: string;
  /** the request target as the caller sent it, prefixes and query included (SigV4 signs it) */
  url: string;
  params: Record<string, string>;
  query: ParsedUrlQuery;
  /** lower-case names */
  headers: IncomingHttpHeaders;
  /** parsed JSON, a Buffer (octet-stream, or anything for a `raw` route), a form, or undefined */
  body: unknown;
}

/** What a route answers. A string body is sent as it is, anything else as JSON. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface Route {
  method: string;
  path: string;
  /** `raw`: the body as bytes whatever its type; `form`: url-encoded forms are read too */
  body?: 'raw' | 'form';
  handle(call: Call): Answer | Promise<Answer>;
}

export const NOT_FOUND: Answer = {
  status: 404,
  body: { error: 'not_found', message: 'no such provider route' },
};

export interface Found {
  route: Route;
  params: Record<string, string>;
}

interface ParameterisedRoute {
  method: string;
  segments: string[];
  route: Route;
}

export class RouteTable {
  private readonly exact = new Map<string, Route>();
  private readonly parameterised: ParameterisedRoute[] = [];

  constructor(routes: Iterable<Route>) {
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      if (!route.path.includes('/:')) {
        if (this.exact.has(key)) throw new Error(`route ${key} is defined twice`);
        this.exact.set(key, route);
      } else
        this.parameterised.push({ method: route.method, segments: route.path.split('/'), route });
    }
  }

  /**
   * The route for a request and its decoded parameters. Paths match as they did under Express:
   * case-insensitive, one trailing slash ignored, HEAD answered by the GET route.
   */
  find(method: string, path: string): Found | undefined {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const route = this.exact.get(`${wanted} ${trimmed.toLowerCase()}`);
    if (route) return { route, params: {} };
    const parts = trimmed.split('/');
    for (const candidate of this.parameterised) {
      if (candidate.method === wanted && fits(candidate.segments, parts))
        return { route: candidate.route, params: paramsOf(candidate.segments, parts) };
    }
    return undefined;
  }
}

function fits(segments: string[], parts: string[]): boolean {
  return (
    segments.length === parts.length &&
    segments.every((segment, i) =>
      segment.startsWith(':') ? parts[i] !== '' : segment === parts[i]?.toLowerCase(),
    )
  );
}

function paramsOf(segments: string[], parts: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  segments.forEach((segment, i) => {
    if (!segment.startsWith(':')) return;
    params[segment.slice(1)] = decodedSegment(parts[i] ?? '', undecodableParam);
  });
  return params;
}
