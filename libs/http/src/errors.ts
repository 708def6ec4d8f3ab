// The error hierarchy handlers throw; one middleware maps them to {statusCode, error, message}.
import type { ValidationIssue } from '@idv/contracts';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
    readonly details?: ValidationIssue[] | Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = error.replace(/\s+/g, '');
  }
}

export class BadRequest extends HttpError {
  constructor(message: string, details?: ValidationIssue[]) {
    super(400, 'Bad Request', message, details);
  }
}

export class Unauthorized extends HttpError {
  constructor(message: string) {
    super(401, 'Unauthorized', message);
  }
}

export class Forbidden extends HttpError {
  constructor(message: string) {
    super(403, 'Forbidden', message);
  }
}

export class NotFound extends HttpError {
  constructor(message: string) {
    super(404, 'Not Found', message);
  }
}

export class MethodNotAllowed extends HttpError {
  constructor(method: string, path: string, allow: string[]) {
    super(405, 'Method Not Allowed', `${method} is not allowed on ${path}`, undefined, {
      Allow: allow.join(', '),
    });
  }
}

export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, 'Conflict', message);
  }
}

export class Gone extends HttpError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(410, 'Gone', message, details);
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(message: string) {
    super(413, 'Payload Too Large', message);
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor(message: string) {
    super(415, 'Unsupported Media Type', message);
  }
}

/** A rate limit was reached; `headers` say which and when to retry (Retry-After at least). */
export class TooManyRequests extends HttpError {
  constructor(message: string, retryAfterSeconds: number, headers: Record<string, string> = {}) {
    super(429, 'Too Many Requests', message, undefined, {
      ...headers,
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}

export class Unavailable extends HttpError {
  constructor(message: string, retryAfterSeconds = 5) {
    super(503, 'Service Unavailable', message, undefined, {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  details?: unknown;
}

export function errorBody(err: HttpError): ErrorBody {
  const body: ErrorBody = { statusCode: err.statusCode, error: err.error, message: err.message };
  if (err.details !== undefined) body.details = err.details;
  return body;
}
