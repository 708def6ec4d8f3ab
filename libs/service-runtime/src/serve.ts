// The last step of every start.ts: listen with the service's routes plus the common ones (serve),
// or, for a process without an API such as a connector worker, with /healthz and /metrics only
// (serveHealth). Both register the server's shutdown and answer what the process stops with.
import {
  createHttpApp,
  startHttpServer,
  type ExternalOperation,
  type HttpAppOptions,
  type Route,
  type RunningServer,
} from '@idv/http';
import { commonRoutes, type CommonRouteOptions } from './commonRoutes.ts';
import { healthRoutes } from './health.ts';
import type { ProcessRuntime, ServiceRuntime } from './runtime.ts';

export interface ServeOptions {
  port: number;
  host?: string;
  routes: Route[];
  apiVersion: string;
  variant: Pick<CommonRouteOptions, 'serviceKeyReset' | 'ecdsaHelper' | 'wellKnownPublicKey'>;
  mounts?: HttpAppOptions['mounts'];
  /** operations of the mounts, for /openapi.json */
  externalOperations?: ExternalOperation[];
  /** masks credentials a path carries in the access log (HttpAppOptions.accessLogPath) */
  accessLogPath?: HttpAppOptions['accessLogPath'];
}

/** A started process: its runtime, its listening server, and the one way to stop it. */
export interface Started<R extends ProcessRuntime = ProcessRuntime> {
  runtime: R;
  server: RunningServer;
  stop(): Promise<void>;
}

export type StartedService = Started<ServiceRuntime>;

async function listen<R extends ProcessRuntime>(
  runtime: R,
  app: HttpAppOptions,
  port: number,
  host: string | undefined,
): Promise<Started<R>> {
  const server = await startHttpServer(createHttpApp(app), port, host);
  runtime.lifecycle.onStop('http', 0, () => server.stop(runtime.shutdownTimeoutMs));
  runtime.logger.info({ port: server.port, version: runtime.version }, `${runtime.name} listening`);
  return { runtime, server, stop: () => runtime.lifecycle.stop() };
}

/** Listens with the service's routes and the common ones, /openapi.json and /docs included. */
export function serve(runtime: ServiceRuntime, options: ServeOptions): Promise<StartedService> {
  const common = commonRoutes({
    serviceKeys: runtime.serviceKeys,
    auth: runtime.auth,
    registry: runtime.registry,
    version: runtime.version,
    apiVersion: options.apiVersion,
    allowedTimeSpan: runtime.config.ALLOWED_TIME_SPAN,
    directory: runtime.directory,
    checks: runtime.checks,
    ...options.variant,
  });
  const app: HttpAppOptions = {
    logger: runtime.logger,
    registry: runtime.registry,
    routes: [...common, ...options.routes],
    bodyLimit: runtime.config.HTTP_BODY_LIMIT,
    trustProxy: runtime.config.TRUST_PROXY,
    unavailable: runtime.unavailable,
    ...(options.mounts ? { mounts: options.mounts } : {}),
    ...(options.accessLogPath ? { accessLogPath: options.accessLogPath } : {}),
    openapi: {
      info: {
        title: `${runtime.service} service`,
        version: options.apiVersion,
        description: `Build ${runtime.version}.`,
      },
      ...(options.externalOperations ? { external: options.externalOperations } : {}),
    },
  };
  return listen(runtime, app, options.port, options.host);
}

/** Listens with GET /healthz and GET /metrics only, for a process that serves no API. */
export function serveHealth<R extends ProcessRuntime>(
  runtime: R,
  options: { port: number; host?: string },
): Promise<Started<R>> {
  const app: HttpAppOptions = {
    logger: runtime.logger,
    registry: runtime.registry,
    routes: healthRoutes(runtime),
  };
  return listen(runtime, app, options.port, options.host);
}
