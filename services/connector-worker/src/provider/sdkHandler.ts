// The cloud SDK's HTTP handler (face_cloud): its signed requests go through the worker's
// GuardedHttp, so the same undici sockets, SSRF guard, timeout and answer cap. Rather than the
// SDK's own node:http handler on guarded agents: at 32 in flight against a local server it took a
// median 0.37 ms of CPU per CompareFaces against 0.45 (lower in each of eight paired rounds), and
// it makes no setsockopt calls on a reused socket. Under /verify load through the whole stack the
// gain was within the noise (the SDK's own work dominates); one client and one guard for every
// call decided it.
import { buildQueryString, type HttpHandler } from '@smithy/core/protocols';
import { HttpResponse, type HttpRequest } from '@smithy/core/transport';
import type { IncomingHttpHeaders } from 'node:http';
import type { GuardedHttp, GuardedRequest } from '@idv/netguard';

const METHODS: readonly string[] = ['GET', 'POST', 'DELETE'] satisfies GuardedRequest['method'][];

function urlOf(request: HttpRequest): string {
  const port = request.port ? `:${request.port}` : '';
  const query = buildQueryString(request.query);
  return `${request.protocol}//${request.hostname}${port}${request.path}${query ? `?${query}` : ''}`;
}

/** JSON protocols send text; a stream body (uploads) is not used by the worker's SDK calls. */
function bodyOf(body: unknown): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw new Error('the SDK sent a request body the provider client does not send (a stream?)');
}

function flatHeaders(raw: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

/** One handler for all of a worker's SDK clients; the worker closes the sockets, not a client. */
export function sdkHandler(http: GuardedHttp): HttpHandler {
  return {
    metadata: { handlerProtocol: 'http/1.1' },
    async handle(request, options) {
      if (!METHODS.includes(request.method))
        throw new Error(
          `the SDK asked for ${request.method}, which the provider client does not send`,
        );
      const signal = options?.abortSignal;
      const data = bodyOf(request.body);
      const response = await http.request({
        method: request.method as GuardedRequest['method'],
        url: urlOf(request),
        headers: request.headers,
        ...(data === undefined ? {} : { data }),
        ...(signal instanceof AbortSignal ? { signal } : {}),
      });
      return {
        response: new HttpResponse({
          statusCode: response.status,
          headers: flatHeaders(response.headers),
          body: response.body,
        }),
      };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  };
}
