// The one axios client a worker uses for provider calls: keep-alive sockets and a per-call timeout.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import axios, { type AxiosInstance } from 'axios';
import type { SsrfGuard } from '@idv/netguard';

export interface ProviderHttp {
  http: AxiosInstance;
  close(): void;
}

/** timeoutMs stays below the breaker timeout (DESIGN 4: HTTP < breaker < RPC < gateway request). */
export function createProviderHttp(timeoutMs: number, guard: SsrfGuard): ProviderHttp {
  // every socket resolves through the guard: internal addresses are refused at connect time.
  // No socket cap: a call waiting for a socket would spend its timeout in our queue, not the
  // provider's; the worker's prefetch and each verifier's limits bound the calls instead.
  const sockets = { keepAlive: true, maxFreeSockets: 256, lookup: guard.lookup };
  const httpAgent = new HttpAgent(sockets);
  const httpsAgent = new HttpsAgent(sockets);
  const http = axios.create({
    timeout: timeoutMs,
    httpAgent,
    httpsAgent,
    maxRedirects: 0,
    // Provider answers are small; a huge one is a fault, not data.
    maxContentLength: 20 * 1024 * 1024,
    headers: { 'user-agent': 'idv-connector-worker' },
  });
  // an IP literal never reaches the lookup: checked before the request leaves
  http.interceptors.request.use((config) => {
    guard.checkUrl(http.getUri(config));
    return config;
  });
  return {
    http,
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
