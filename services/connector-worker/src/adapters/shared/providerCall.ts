// Provider HTTP calls shared by the adapters: abort signal wired in, and every failure sorted into
// "the provider refused the input" (ProviderRejected) or "the provider failed" (ProviderFailure).
import { isAxiosError, type AxiosRequestConfig } from 'axios';
import { ProviderRejected, type AdapterInput } from '../types.ts';

/** The provider is down, slow, answering 5xx or nonsense: counts against its breaker. */
export class ProviderFailure extends Error {
  override readonly name = 'ProviderFailure';
  constructor(
    message: string,
    readonly code = 'provider_error',
  ) {
    super(message);
  }
}

/** 408 and 429 are the provider's trouble, not the caller's. */
const RETRYABLE_4XX = new Set([408, 425, 429]);

function classify(err: unknown, what: string): Error {
  if (!isAxiosError(err)) return err instanceof Error ? err : new ProviderFailure(String(err));
  // the SSRF guard refused the address: passed on as it is, a refusal rather than a failure
  const cause = (err as { cause?: unknown }).cause;
  if (
    err.code === 'EBLOCKEDTARGET' ||
    (cause as { code?: unknown } | undefined)?.code === 'EBLOCKEDTARGET'
  ) {
    return cause instanceof Error ? cause : err;
  }
  const status = err.response?.status;
  if (status !== undefined && status >= 400 && status < 500 && !RETRYABLE_4XX.has(status)) {
    return new ProviderRejected(`${what} refused the request with ${status}`, status);
  }
  if (status !== undefined && status < 400) {
    return new ProviderFailure(`${what} answered a body that is not JSON`, 'provider_malformed');
  }
  if (status !== undefined)
    return new ProviderFailure(`${what} answered ${status}`, 'provider_5xx');
  if (err.code === 'ECONNABORTED' || err.code === 'ETIMEDOUT' || err.code === 'ERR_CANCELED') {
    return new ProviderFailure(`${what} did not answer in time`, 'provider_timeout');
  }
  return new ProviderFailure(
    `${what} unreachable (${err.code ?? 'network error'})`,
    'provider_unreachable',
  );
}

/** Sends one request and resolves with the parsed JSON body (an object or array). */
export async function callProvider(
  input: Pick<AdapterInput, 'http' | 'signal'>,
  what: string,
  request: AxiosRequestConfig,
): Promise<unknown> {
  try {
    const response = await input.http.request({
      ...request,
      signal: input.signal,
      responseType: request.responseType ?? 'json',
      // axios silently hands back a string when a JSON answer does not parse.
      transitional: { silentJSONParsing: false, forcedJSONParsing: true },
    });
    return response.data;
  } catch (err) {
    throw classify(err, what);
  }
}

/** The answer must be an object with these members, else it is a malformed answer (a failure). */
export function expectAnswer<K extends string>(
  body: unknown,
  what: string,
  members: readonly K[],
): Record<K, unknown> & Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ProviderFailure(`${what} answered a malformed body`, 'provider_malformed');
  }
  const record = body as Record<string, unknown>;
  const missing = members.filter((m) => !(m in record));
  if (missing.length > 0) {
    throw new ProviderFailure(`${what} answer lacks ${missing.join(', ')}`, 'provider_malformed');
  }
  return record as Record<K, unknown> & Record<string, unknown>;
}

/** `configured` when set, else the conventional path under the verifier's connectorUrl. */
export function endpoint(connectorUrl: string, configured: unknown, path: string): string {
  if (typeof configured === 'string' && configured !== '') return configured;
  return connectorUrl.replace(/\/+$/, '') + path;
}
