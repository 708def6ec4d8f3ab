// Errors of the domain, free of any transport: domain code throws these, and libs/http maps each
// to its status and error body in one place (toHttpError), as a worker or CLI may map them its way.

/** A field or rule of the input is wrong; `details` names each field and what is wrong with it. */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    message: string,
    readonly details?: { path: string; message: string }[],
  ) {
    super(message);
  }
}

/** The thing asked for does not exist (or is not visible to the caller). */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/** The change collides with what exists (a duplicate tag, a name in use). */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
}

/** The thing asked for existed but has ended for good (an expired or finished session). */
export class GoneError extends Error {
  override readonly name = 'GoneError';
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The caller is known but may not do this. */
export class NotAllowedError extends Error {
  override readonly name = 'NotAllowedError';
}

/** Something the work needs cannot serve now; `retryAfterSeconds` says when a retry may succeed. */
export class UnavailableError extends Error {
  override readonly name = 'UnavailableError';
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
  ) {
    super(message);
  }
}

export type DomainError =
  InputError | NotFoundError | GoneError | ConflictError | NotAllowedError | UnavailableError;
