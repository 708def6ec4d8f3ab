// Provider HTTP calls shared by the adapters: abort signal wired in, and every HTTP failure sorted
// into the outcomes of outcomes.ts (rejected by the provider, or the provider unavailable).
import { isAxiosError, type AxiosRequestConfig } from 'axios';
import {
  outcomeOf,
  ProviderRejected,
  ProviderUnavailable,
  type JobOutcome,
} from '../../outcomes.ts';
import type { AdapterInput } from '../connector.ts';

/** 408, 425 and 429 are the provider's trouble (slow, early, throttling), not the caller's. */
const PROVIDER_TROUBLE_4XX = new Set([408, 425, 429]);

function classify(err: unknown, what: string): JobOutcome {
  if (!isAxiosError(err)) return outcomeOf(err);
  const status = err.response?.status;
  if (status === 429) return new ProviderUnavailable('provider_throttled', `${what} answered 429`);
  if (status !== undefined && status >= 400 && status < 500 && !PROVIDER_TROUBLE_4XX.has(status)) {
    return new ProviderRejected(`${what} refused the request with ${status}`, status);
  }
  if (status !== undefined && status < 400) {
    return new ProviderUnavailable(
      'provider_malformed',
      `${what} answered a body that is not JSON`,
    );
  }
  if (status !== undefined)
    return new ProviderUnavailable('provider_5xx', `${what} answered ${status}`);
  if (err.code === 'ECONNABORTED' || err.code === 'ETIMEDOUT' || err.code === 'ERR_CANCELED') {
    return new ProviderUnavailable('provider_timeout', `${what} did not answer in time`);
  }
  const blocked = outcomeOf(err);
  if (blocked.code === 'blocked_target') return blocked;
  return new ProviderUnavailable(
    'provider_unreachable',
    `${what} unreachable (${err.code ?? 'network error'})`,
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
    throw new ProviderUnavailable('provider_malformed', `${what} answered a malformed body`);
  }
  const record = body as Record<string, unknown>;
  const missing = members.filter((m) => !(m in record));
  if (missing.length > 0) {
    throw new ProviderUnavailable(
      'provider_malformed',
      `${what} answer lacks ${missing.join(', ')}`,
    );
  }
  return record as Record<K, unknown> & Record<string, unknown>;
}

/** `configured` when set, else the conventional path under the verifier's connectorUrl. */
export function endpoint(
  connectorUrl: string,
  configured: string | undefined,
  path: string,
): string {
  if (configured) return configured;
  return connectorUrl.replace(/\/+$/, '') + path;
}
