// The one guarded HTTP client for calls to addresses callers gave (providers, webhook token
// endpoints): undici over keep-alive sockets that resolve through the SSRF guard, a timeout per
// call and a cap on the answer. undici rather than axios: axios cost 0.2-0.4 ms of a connector
// worker's CPU per call, undici's request() about 0.05 (docs/connectors.md, "HTTP client").
import type { IncomingHttpHeaders } from 'node:http';
import type { SecureContext } from 'node:tls';
import { Agent, type Dispatcher } from 'undici';
import type { SsrfGuard } from './ssrfGuard.ts';

/** Answers are small (a provider's result, a token); a huge one is a fault, not data. */
export const MAX_ANSWER_BYTES = 20 * 1024 * 1024;
/** undici's code for an answer past MAX_ANSWER_BYTES */
export const ANSWER_TOO_LARGE = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';

/** Sent on every call but the user agent (the owner's). Accept as axios sent it, which providers
 *  may pick JSON by; no accept-encoding, so answers come uncompressed and nothing is inflated. */
const DEFAULT_ACCEPT = 'application/json, text/plain, */*';

export interface GuardedRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** bytes and text go as they are, with the caller's content-type; another object as JSON */
  data?: object | string;
  /** query parameters, appended to the URL's own */
  params?: Record<string, string | number | boolean>;
  /** HTTP Basic */
  auth?: { username: string; password: string };
  /** a dispatcher of this client's making (dispatcherWith), e.g. one with a client certificate */
  dispatcher?: Dispatcher;
  /** the job's: aborted by the breaker's timeout or the job's deadline */
  signal?: AbortSignal;
}

/** Any status is an answer; the caller decides what it means. */
export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A call that got no answer: no connection, a broken one, too slow, or too large. `code` is
 *  Node's or undici's (ECONNREFUSED, UND_ERR_RES_EXCEEDED_MAX_SIZE), ETIMEDOUT when it ran out of
 *  time; a refusal of the SSRF guard at connect is the cause. */
export class OutboundHttpError extends Error {
  override readonly name = 'OutboundHttpError';
  constructor(
    message: string,
    readonly code: string,
    readonly timedOut: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The call's timeout: undici's timers of the connect, the headers and each gap in the body. */
const UNDICI_TIMEOUTS = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function hasHeader(headers: Record<string, string> | undefined, name: string): boolean {
  return headers !== undefined && Object.keys(headers).some((h) => h.toLowerCase() === name);
}

function bodyOf(request: GuardedRequest, headers: Record<string, string>) {
  const { data } = request;
  if (data === undefined) return null;
  if (typeof data === 'string' || data instanceof Uint8Array) return data;
  if (!hasHeader(request.headers, 'content-type')) headers['content-type'] = 'application/json';
  return JSON.stringify(data);
}

export class GuardedHttp {
  private readonly agent: Agent;

  /**
   * timeoutMs stays below the caller's own bound (a connector worker's: DESIGN 4, HTTP < breaker
   * < RPC < gateway request); userAgent names the service calling.
   */
  constructor(
    readonly timeoutMs: number,
    private readonly guard: SsrfGuard,
    private readonly userAgent = 'idv',
  ) {
    this.agent = this.newAgent();
  }

  /**
   * Keep-alive sockets that resolve through the guard: internal addresses are refused at connect
   * time. No socket cap per origin (undici's default): a call waiting for a socket would spend its
   * timeout in our queue, not the provider's; the worker's prefetch and each verifier's limits
   * bound the calls instead. HTTP/1.1 only, as before.
   */
  private newAgent(tls: { secureContext?: SecureContext } = {}): Agent {
    return new Agent({
      allowH2: false,
      // the call's timeout for the connect, the answer's headers and each gap in its body (axios's
      // was per socket inactivity too); the breaker's timeout and the job's signal bound the whole
      // call, so there is no timer or abort controller of ours per call
      connect: { ...tls, lookup: this.guard.lookup, timeout: this.timeoutMs },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      // undici stops reading and drops the socket past it, declared length or not
      maxResponseSize: MAX_ANSWER_BYTES,
    });
  }

  /** A dispatcher of its own, same guard, timeouts and cap, for a client certificate (mTLS). */
  dispatcherWith(tls: { secureContext: SecureContext }): Dispatcher {
    return this.newAgent(tls);
  }

  /** One call and its whole answer; rejects with OutboundHttpError when there is none. */
  async request(request: GuardedRequest): Promise<GuardedResponse> {
    // an IP literal never reaches the lookup: checked before the request leaves
    this.guard.checkUrl(request.url);
    const target = new URL(request.url);
    for (const [name, value] of Object.entries(request.params ?? {}))
      target.searchParams.append(name, String(value));
    const headers: Record<string, string> = {
      'user-agent': this.userAgent,
      accept: DEFAULT_ACCEPT,
      ...request.headers,
    };
    if (request.auth) {
      const { username, password } = request.auth;
      headers.authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    }
    const body = bodyOf(request, headers);

    const signal = request.signal;
    try {
      const response = await (request.dispatcher ?? this.agent).request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: request.method,
        headers,
        body,
        ...(signal ? { signal } : {}),
      });
      const bytes = await response.body.bytes();
      return {
        status: response.statusCode,
        headers: response.headers,
        body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      };
    } catch (err) {
      // the breaker's timeout or the job's deadline: out of time as well
      if (signal?.aborted)
        throw new OutboundHttpError('the call was aborted', 'ETIMEDOUT', true, { cause: err });
      const code = (err as { code?: unknown }).code;
      const named = typeof code === 'string' ? code : 'network error';
      const message = err instanceof Error ? err.message : String(err);
      throw new OutboundHttpError(message, named, UNDICI_TIMEOUTS.has(named), { cause: err });
    }
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}
