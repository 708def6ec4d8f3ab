// Maps anything thrown in a request to an HttpError: ours as they are, parser and backing-service
// failures to their 4xx/503, everything else to a 500 whose cause stays in the log.
import { HttpError, Unavailable } from './errors.ts';

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

export function toHttpError(
  err: unknown,
  unavailable: UnavailabilityTest[],
): { error: HttpError; unexpected: boolean } {
  if (err instanceof HttpError) return { error: err, unexpected: false };
  const type = (err as { type?: unknown } | undefined)?.type;
  if (typeof type === 'string' && PARSER_ERRORS[type]) {
    const [status, name, message] = PARSER_ERRORS[type];
    return { error: new HttpError(status, name, message), unexpected: false };
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
