// Starts a service's HTTP app (its own routes plus the common ones) and registers its shutdown.
import {
  createHttpApp,
  startHttpServer,
  type ExternalOperation,
  type HttpAppOptions,
  type Route,
  type RunningServer,
} from '@idv/http';
import type { ServiceName } from '@idv/platform';
import { commonRoutes, type CommonRouteOptions } from './commonRoutes.ts';
import { createServiceRuntime, type ServiceRuntime } from './runtime.ts';

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

export async function serve(
  runtime: ServiceRuntime,
  options: ServeOptions,
): Promise<RunningServer> {
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
  const app = createHttpApp({
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
  });
  const server = await startHttpServer(app, options.port, options.host);
  runtime.lifecycle.onStop('http', 0, () => server.stop(runtime.config.SHUTDOWN_TIMEOUT_MS));
  runtime.logger.info(
    { port: server.port, version: runtime.version },
    `${runtime.service} listening`,
  );
  return server;
}

export interface HttpServiceSpec extends Omit<ServeOptions, 'routes'> {
  service: ServiceName;
  /** the service's own routes, built from the shared runtime */
  routes?: (runtime: ServiceRuntime) => Route[] | Promise<Route[]>;
}

export interface StartedService {
  runtime: ServiceRuntime;
  server: RunningServer;
  stop(): Promise<void>;
}

/** Builds the runtime, the service's routes and the common ones, and listens. */
export async function startHttpService(
  spec: HttpServiceSpec,
  env: Record<string, string | undefined>,
): Promise<StartedService> {
  const runtime = await createServiceRuntime({ service: spec.service, env });
  const { routes, ...options } = spec;
  const server = await serve(runtime, { ...options, routes: (await routes?.(runtime)) ?? [] });
  return { runtime, server, stop: () => runtime.lifecycle.stop() };
}
