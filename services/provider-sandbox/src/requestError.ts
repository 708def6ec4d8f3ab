// A request the sandbox cannot take (a body that does not parse, is too large or in a charset it
// does not read): answered `{error: 'invalid_request', message}` with this status, as a provider would.
export class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A path segment decoded, or the 400 that names it (`%E0` does not decode). */
export function decodedSegment(segment: string, refusal: (segment: string) => string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new RequestError(400, refusal(segment));
  }
}
