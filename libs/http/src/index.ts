// Public surface of libs/http.
export {
  HttpError,
  BadRequest,
  Unauthorized,
  Forbidden,
  NotFound,
  MethodNotAllowed,
  Conflict,
  Unavailable,
  errorBody,
  type ErrorBody,
} from './errors.ts';
export { toHttpError, type UnavailabilityTest } from './errorMapping.ts';
export { createHttpApp, requestLog, type HttpAppOptions } from './app.ts';
export { allowedMethods, type Route, type HttpMethod } from './routes.ts';
export { startHttpServer, type RunningServer } from './server.ts';
export { Lifecycle } from './lifecycle.ts';
export { parseBody } from './parseBody.ts';
