// Sends one callback request with node:http(s) over the SSRF-guarded keep-alive agents. Plain
// node:http rather than axios: per request axios cost about as much CPU as the rest of the
// dispatcher's own work, and a callback needs none of its features (no redirects are followed,
// the answer's body is not read, every status is an answer).
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { TargetResponse } from './targetBreakers.ts';

export interface CallbackRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type SendRequest = (request: CallbackRequest) => Promise<TargetResponse>;

function flatHeaders(raw: IncomingHttpHeaders): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(raw))
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

export function callbackSender(
  agents: { httpAgent: http.Agent; httpsAgent: https.Agent },
  timeoutMs: number,
): SendRequest {
  return ({ method, url, headers, body }) =>
    new Promise<TargetResponse>((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      if (!secure && target.protocol !== 'http:')
        return reject(new Error(`unsupported protocol ${target.protocol}`));
      const request = (secure ? https : http).request(
        target,
        {
          method,
          agent: secure ? agents.httpsAgent : agents.httpAgent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        },
        (response) => {
          // the body is drained and dropped, so the connection goes back to the pool
          response.resume();
          response.on('error', () => undefined);
          resolve({ status: response.statusCode ?? 0, headers: flatHeaders(response.headers) });
        },
      );
      // the whole exchange, answer drained, within timeoutMs: a receiver that accepts and never
      // answers, or trickles a byte now and then (an idle timeout never fires on it), fails the
      // attempt as a transport error, which its webhook's breaker counts, and frees the socket
      const deadline = setTimeout(
        () => request.destroy(new Error(`timeout of ${timeoutMs}ms exceeded`)),
        timeoutMs,
      );
      request.on('close', () => clearTimeout(deadline));
      request.on('error', reject);
      request.end(body);
    });
}
