// Provider HTTP calls shared by the adapters: abort signal wired in, and every HTTP failure sorted
// into the outcomes of outcomes.ts (rejected by the provider, or the provider unavailable).
import { jsonNestingIssue } from '@idv/contracts';
import {
  outcomeOf,
  ProviderRejected,
  ProviderUnavailable,
  type JobOutcome,
} from '../../outcomes.ts';
import {
  ANSWER_TOO_LARGE,
  MAX_ANSWER_BYTES,
  OutboundHttpError,
  type GuardedRequest,
  type GuardedResponse,
} from '@idv/netguard';
import type { AdapterInput } from '../connector.ts';

/** What an adapter asks: the request, and whether the answer is JSON (the default) or bytes. */
export type ProviderCall = Omit<GuardedRequest, 'signal'> & {
  responseType?: 'json' | 'arraybuffer';
};

/** 408, 425 and 429 are the provider's trouble (slow, early, throttling), not the caller's. */
const PROVIDER_TROUBLE_4XX = new Set([408, 425, 429]);

/** A call that got no answer (also the cloud SDK's, which sends through the same client). */
export function classifyCallFailure(err: unknown, what: string): JobOutcome {
  if (!(err instanceof OutboundHttpError)) return outcomeOf(err);
  if (err.timedOut)
    return new ProviderUnavailable('provider_timeout', `${what} did not answer in time`);
  if (err.code === ANSWER_TOO_LARGE)
    return new ProviderUnavailable(
      'provider_malformed',
      `${what} answered more than ${MAX_ANSWER_BYTES / (1024 * 1024)} MiB`,
    );
  const blocked = outcomeOf(err); // the guard's refusal at connect is the cause
  if (blocked.code === 'blocked_target') return blocked;
  return new ProviderUnavailable('provider_unreachable', `${what} unreachable (${err.code})`);
}

/** What an answer's status means: undefined for a 2xx, else the outcome it sorts into. */
export function statusOutcome(status: number, what: string): JobOutcome | undefined {
  if (status >= 200 && status < 300) return undefined;
  if (status === 429) return new ProviderUnavailable('provider_throttled', `${what} answered 429`);
  if (status >= 400 && status < 500 && !PROVIDER_TROUBLE_4XX.has(status))
    return new ProviderRejected(`${what} refused the request with ${status}`, status);
  // redirects are not followed: a provider's API that answers one speaks no protocol we know
  if (status < 400)
    return new ProviderUnavailable('provider_malformed', `${what} answered ${status}`);
  return new ProviderUnavailable('provider_5xx', `${what} answered ${status}`);
}

/** The answer's JSON; one nested deeper than MAX_JSON_DEPTH is malformed too (the raw answer is
 *  serialised again, and JSON.stringify recurses: a RangeError, not an outcome). */
function parsed(body: Buffer, what: string): unknown {
  if (body.length === 0) return undefined; // a 204, say, to a DELETE
  let answer: unknown;
  try {
    answer = JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new ProviderUnavailable('provider_malformed', `${what} answered a body that is not JSON`);
  }
  const deep = jsonNestingIssue(answer);
  if (deep)
    throw new ProviderUnavailable(
      'provider_malformed',
      `${what} answered JSON that ${deep.message}`,
    );
  return answer;
}

/** Who calls: the worker's client, and the job's signal (absent for a call no one job owns: a
 *  token shared by many, a clean-up after the answer; the client's own timeouts bound those). */
export type Caller = Pick<AdapterInput, 'http'> & { signal?: AbortSignal | undefined };

/** Sends one request and resolves with the answer's bytes, or its parsed JSON (an object or
 *  array, undefined when empty). */
export async function callProvider(
  input: Caller,
  what: string,
  request: ProviderCall & { responseType: 'arraybuffer' },
): Promise<Buffer>;
export async function callProvider(
  input: Caller,
  what: string,
  request: ProviderCall,
): Promise<unknown>;
export async function callProvider(
  input: Caller,
  what: string,
  { responseType, ...request }: ProviderCall,
): Promise<unknown> {
  let response: GuardedResponse;
  try {
    response = await input.http.request(
      input.signal ? { ...request, signal: input.signal } : request,
    );
  } catch (err) {
    throw classifyCallFailure(err, what);
  }
  const refusal = statusOutcome(response.status, what);
  if (refusal) throw refusal;
  return responseType === 'arraybuffer' ? response.body : parsed(response.body, what);
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
