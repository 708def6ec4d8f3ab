// Public surface of libs/service-runtime: how every service process starts (config, logger,
// metrics, stores, health), serves its routes plus the common ones, and stops.
export { commonRoutes, type CommonRouteOptions, type HealthCheck } from './commonRoutes.ts';
export {
  createServiceRuntime,
  backingServiceUnavailable,
  type ServiceRuntime,
  type RuntimeOptions,
  type PlatformSettings,
} from './runtime.ts';
export {
  serve,
  startHttpService,
  type ServeOptions,
  type HttpServiceSpec,
  type StartedService,
} from './serve.ts';
export { buildVersion } from './version.ts';
export { runService } from './runService.ts';
