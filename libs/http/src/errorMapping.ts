// Maps anything thrown in a request to an HttpError: ours as they are, parser and backing-service
// failures to their 4xx/503, everything else to a 500 whose cause stays in the log.
import {
  ConflictError,
  GoneError,
  InputError,
  NotAllowedError,
  NotFoundError,
  UnavailableError,
} from '@idv/errors';
import {
  BadRequest,
  Conflict,
  Forbidden,
  Gone,
  HttpError,
  NotFound,
  Unavailable,
} from './errors.ts';

/** Errors from other layers that mean "a backing service is down now": answered 503. */
export type UnavailabilityTest = (err: unknown) => string | undefined;

const PARSER_ERRORS: Record<string, [number, string, string]> = {
  'entity.parse.failed': [400, 'Bad Request', 'body is not valid JSON'],
  'entity.too.large': [413, 'Payload Too Large', 'body is larger than the limit'],
  'encoding.unsupported': [415, 'Unsupported Media Type', 'unsupported content encoding'],
  'charset.unsupported': [415, 'Unsupported Media Type', 'unsupported charset'],
  'request.aborted': [400, 'Bad Request', 'request aborted'],
  'entity.verify.failed': [400, 'Bad Request', 'body failed verification'],
};

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
};

export function toHttpError(
  err: unknown,
  unavailable: UnavailabilityTest[],
): { error: HttpError; unexpected: boolean } {
  if (err instanceof HttpError) return { error: err, unexpected: false };
  const domain = fromDomain(err);
  if (domain) return { error: domain, unexpected: false };
  const type = (err as { type?: unknown } | undefined)?.type;
  if (typeof type === 'string' && PARSER_ERRORS[type]) {
    const [status, name, message] = PARSER_ERRORS[type];
    return { error: new HttpError(status, name, message), unexpected: false };
  }
  // errors of the HTTP layer itself (e.g. a path parameter that is not valid percent-encoding)
  // carry their own 4xx status and a message meant for the client
  const {
    status,
    expose,
    message: said,
  } = (err ?? {}) as { status?: unknown; expose?: unknown; message?: unknown };
  if (typeof status === 'number' && status >= 400 && status < 500 && expose !== false) {
    const text = typeof said === 'string' && said ? said : 'bad request';
    return {
      error: new HttpError(status, STATUS_NAMES[status] ?? 'Bad Request', text),
      unexpected: false,
    };
  }
  for (const test of unavailable) {
    const message = test(err);
    if (message) return { error: new Unavailable(message), unexpected: false };
  }
  return {
    error: new HttpError(500, 'Internal Server Error', 'unexpected error; see the service log'),
    unexpected: true,
  };
}

/** The domain's errors (@idv/errors) as the HTTP answers they stand for. */
function fromDomain(err: unknown): HttpError | undefined {
  if (err instanceof InputError) return new BadRequest(err.message, err.details);
  if (err instanceof NotFoundError) return new NotFound(err.message);
  if (err instanceof GoneError) return new Gone(err.message, err.details);
  if (err instanceof ConflictError) return new Conflict(err.message);
  if (err instanceof NotAllowedError) return new Forbidden(err.message);
  if (err instanceof UnavailableError) return new Unavailable(err.message, err.retryAfterSeconds);
  return undefined;
}
