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
  // every socket resolves through the guard: internal addresses are refused at connect time
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64, lookup: guard.lookup });
  const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64, lookup: guard.lookup });
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
