// Calls a gateway for an operator with their access token (`Authorization: Bearer`): the gateway
// checks the roles again and writes its own audit rows. Its answer (status, type, bytes) is handed
// back as it came, error bodies included; a gateway that cannot be reached is a 503.
import { Unavailable } from '@idv/http';

export interface GatewayAnswer {
  status: number;
  contentType: string;
  body: Buffer;
  /** the gateway asked for a fresher sign-in (RFC 9470 `insufficient_user_authentication`) */
  stepUp: boolean;
}

export interface GatewayRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  accessToken: string;
  query?: Record<string, string>;
  body?: unknown;
  requestId?: string;
}

export type GatewayCall = (request: GatewayRequest) => Promise<GatewayAnswer>;

export function gatewayCall(baseUrl: string, timeoutMs = 15_000): GatewayCall {
  const base = baseUrl.replace(/\/$/, '');
  return async (request) => {
    const url = new URL(`${base}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {}))
      url.searchParams.set(name, value);
    let answer: Response;
    try {
      answer = await fetch(url, {
        method: request.method,
        headers: {
          authorization: `Bearer ${request.accessToken}`,
          accept: 'application/json, image/*',
          ...(request.requestId ? { 'x-request-id': request.requestId } : {}),
          ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new Unavailable(`the gateway cannot be reached: ${(err as Error).message}`);
    }
    return {
      status: answer.status,
      contentType: answer.headers.get('content-type') ?? 'application/octet-stream',
      stepUp:
        answer.status === 401 &&
        /insufficient_user_authentication/.test(answer.headers.get('www-authenticate') ?? ''),
      body: Buffer.from(await answer.arrayBuffer()),
    };
  };
}
