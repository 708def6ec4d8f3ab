// Public surface of libs/service-runtime: how every service process starts (config, logger,
// metrics, stores, health), serves its routes plus the common ones, and stops.
export { commonRoutes, type CommonRouteOptions } from './commonRoutes.ts';
export { healthRoutes, runChecks, type HealthCheck } from './health.ts';
export {
  createProcessRuntime,
  createServiceRuntime,
  backingServiceUnavailable,
  type ProcessRuntime,
  type ProcessRuntimeOptions,
  type ProcessSettings,
  type ServiceRuntime,
  type RuntimeOptions,
  type PlatformSettings,
} from './runtime.ts';
export {
  serve,
  serveHealth,
  type ServeOptions,
  type Started,
  type StartedService,
} from './serve.ts';
export { buildVersion } from './version.ts';
export { runService } from './runService.ts';
