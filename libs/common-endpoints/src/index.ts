// Public surface of libs/common-endpoints: the shared service runtime and common routes.
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
