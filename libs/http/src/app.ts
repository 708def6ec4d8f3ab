// The Express app every service uses: request ids, access log, metrics, body limits, the route
// table with 405/404, and one error handler producing {statusCode, error, message}.
import { randomUUID } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger, Registry } from '@idv/observability';
import { Histogram } from '@idv/observability';
import { BadRequest, errorBody, MethodNotAllowed, NotFound } from './errors.ts';
import { toHttpError, type UnavailabilityTest } from './errorMapping.ts';
import { maskCredentialShapes, normalisedPath } from './logPath.ts';
import { apiReference } from './apiReference.ts';
import { fixedBody } from './fixedBody.ts';
import { openApiDocument, type ExternalOperation, type OpenApiInfo } from './openapi.ts';
import { allowedMethods, asMiddleware, COMMON_TAG, type Route } from './routes.ts';

export interface HttpAppOptions {
  logger: Logger;
  registry: Registry;
  routes: Route[];
  bodyLimit?: string;
  trustProxy?: boolean;
  unavailable?: UnavailabilityTest[];
  /** mounts that own their whole sub-path and body parsing (oidc-provider), added before 404 */
  mounts?: { path: string; handler: express.RequestHandler }[];
  /**
   * serve GET /openapi.json generated from `routes` (and `external` operations), and the API
   * reference showing it at GET /docs
   */
  openapi?: { info: OpenApiInfo; external?: ExternalOperation[] };
  /**
   * masks a credential the path carries, for paths no `secretPath` route matched: given the path
   * decoded with one slash between segments (case as sent), it answers it masked, or unchanged
   * (then the log writes the path as sent). What looks like a token is masked in any case.
   */
  accessLogPath?: (normalisedPath: string) => string;
}

/** The documentation routes, described by the document they serve. */
function documentationRoutes(
  options: NonNullable<HttpAppOptions['openapi']>,
  routes: Route[],
): Route[] {
  const described: Route[] = [
    {
      method: 'GET',
      path: '/openapi.json',
      doc: { summary: 'this OpenAPI 3.1 document' },
      handler: () => undefined,
    },
    {
      method: 'GET',
      path: '/docs',
      doc: { summary: 'the API reference: this document in Swagger UI (HTML)' },
      handler: () => undefined,
    },
    {
      method: 'GET',
      path: '/docs/:asset',
      doc: {
        summary:
          "the API reference's script, styles and icon (versioned links, cached for good; brotli or gzip by Accept-Encoding)",
      },
      handler: () => undefined,
    },
  ];
  const document = openApiDocument(
    options.info,
    [...routes, ...described.map((route) => ({ ...route, tag: COMMON_TAG }))],
    options.external,
  );
  const json = fixedBody(async () => Buffer.from(JSON.stringify(document)));
  const reference = apiReference(options.info.title);
  const [openapi, page, asset] = described as [Route, Route, Route];
  return [
    {
      ...openapi,
      handler: (req, res) => json.send(req, res.type('application/json; charset=utf-8')),
    },
    { ...page, handler: (req, res) => reference.page(req, res) },
    { ...asset, handler: (req, res) => reference.asset(req, res) },
  ];
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * The access log's path: a secret-carrying route's pattern, else the path through the service's
 * mask and the shape mask. Never the query string.
 */
function loggedPath(req: Request, res: Response, options: HttpAppOptions): string {
  if (res.locals.secretPath === true) return String(res.locals.route);
  if (options.accessLogPath) {
    const normalised = normalisedPath(req.path);
    const masked = options.accessLogPath(normalised);
    if (masked !== normalised) return maskCredentialShapes(masked);
  }
  return maskCredentialShapes(req.path);
}

/**
 * The request's logger: its lines carry the request id. Made on first use, since most requests
 * log only their access line, which names the id itself.
 */
export function requestLog(res: Response): Logger {
  const locals = res.locals as { log?: Logger; requestId: string; baseLog: Logger };
  locals.log ??= locals.baseLog.child({ reqId: locals.requestId });
  return locals.log;
}

/** True when any string (key or value) of a parsed body holds NUL; iterative, for deep bodies. */
function holdsNul(body: unknown): boolean {
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (value && typeof value === 'object') {
      for (const [key, member] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        stack.push(member);
      }
    }
  }
  return false;
}

function refuseNul(req: Request, _res: Response, next: NextFunction): void {
  next(
    holdsNul(req.body)
      ? new BadRequest('strings in the body must not contain a NUL character')
      : undefined,
  );
}

export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? false);
  app.set('query parser', 'simple');
  // No ETags: Express would hash every JSON body for one, and encrypted answers (a fresh IV each
  // time) never match; these APIs' callers do not send If-None-Match.
  app.set('etag', false);

  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route pattern and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [options.registry],
  });

  app.use((req: Request, res: Response, next: NextFunction) => {
    const given = req.get('x-request-id');
    const reqId = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = reqId;
    res.locals.baseLog = options.logger;
    res.setHeader('x-request-id', reqId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (res.locals.route as string | undefined) ?? 'unmatched';
      duration.observe({ method: req.method, route, status_code: String(res.statusCode) }, seconds);
      // probes and scrapes would drown the access log at info
      const level = route === '/healthz' || route === '/metrics' ? 'debug' : 'info';
      options.logger[level](
        {
          reqId,
          method: req.method,
          route,
          path: loggedPath(req, res, options),
          status: res.statusCode,
          ms: Math.round(seconds * 1e4) / 10,
        },
        'request',
      );
    });
    next();
  });

  // NUL cannot be stored in PostgreSQL text: refused at the edge with a clear 400
  app.use((req: Request, _res: Response, next: NextFunction) => {
    const path = req.originalUrl.split('?')[0] ?? '';
    next(
      /%00/i.test(path) ? new BadRequest('the path must not contain a NUL character') : undefined,
    );
  });

  const routes = options.openapi
    ? [...options.routes, ...documentationRoutes(options.openapi, options.routes)]
    : options.routes;
  const json = express.json({
    limit: options.bodyLimit ?? '1mb',
    strict: true,
    type: ['application/json', 'application/*+json'],
  });
  for (const route of routes) {
    const parseBody = route.jsonBody ?? ['POST', 'PUT', 'PATCH'].includes(route.method);
    const tag = (_req: Request, res: Response, next: NextFunction) => {
      res.locals.route = route.path;
      res.locals.secretPath = route.secretPath === true;
      next();
    };
    const chain = [
      tag,
      ...(parseBody ? [json, refuseNul] : []),
      ...(route.guards ?? []),
      asMiddleware(route.handler),
    ];
    app[route.method.toLowerCase() as 'get'](route.path, ...chain);
  }
  const secretPaths = new Set(routes.filter((r) => r.secretPath).map((r) => r.path));
  for (const [path, allow] of allowedMethods(routes)) {
    app.all(path, (req: Request, res: Response) => {
      res.locals.route = path;
      res.locals.secretPath = secretPaths.has(path);
      throw new MethodNotAllowed(req.method, req.path, allow);
    });
  }
  for (const mount of options.mounts ?? []) app.use(mount.path, mount.handler);

  app.use((req: Request) => {
    throw new NotFound(`no route for ${req.method} ${req.path}`);
  });

  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const { error, unexpected } = toHttpError(err, options.unavailable ?? []);
    const log = res.locals.baseLog ? requestLog(res) : options.logger;
    if (unexpected) log.error({ err }, 'unhandled error');
    else if (error.statusCode >= 500)
      log.warn({ reason: error.message }, 'backing service unavailable');
    res.status(error.statusCode).set(error.headers).json(errorBody(error));
  });
  return app;
}
