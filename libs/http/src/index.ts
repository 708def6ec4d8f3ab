// Public surface of libs/http.
export {
  HttpError,
  BadRequest,
  Unauthorized,
  Forbidden,
  NotFound,
  MethodNotAllowed,
  Conflict,
  Gone,
  PayloadTooLarge,
  UnsupportedMediaType,
  TooManyRequests,
  Unavailable,
  errorBody,
  type ErrorBody,
} from './errors.ts';
export { toHttpError, type UnavailabilityTest } from './errorMapping.ts';
export { createHttpApp, requestLog, type HttpAppOptions } from './app.ts';
export {
  allowedMethods,
  COMMON_TAG,
  securityOf,
  type Route,
  type RouteDoc,
  type HttpMethod,
  type OpenApiSecurity,
} from './routes.ts';
export { openApiDocument, type OpenApiInfo, type ExternalOperation } from './openapi.ts';
export { startHttpServer, type RunningServer } from './server.ts';
export { Lifecycle } from './lifecycle.ts';
export { parseBody, parseJsonBytes } from './parseBody.ts';
