// The one axios client a worker uses for provider calls: keep-alive sockets and a per-call timeout.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import axios, { type AxiosInstance } from 'axios';

export interface ProviderHttp {
  http: AxiosInstance;
  close(): void;
}

/** timeoutMs stays below the breaker timeout (DESIGN 4: HTTP < breaker < RPC < gateway request). */
export function createProviderHttp(timeoutMs: number): ProviderHttp {
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64 });
  const http = axios.create({
    timeout: timeoutMs,
    httpAgent,
    httpsAgent,
    maxRedirects: 0,
    // Provider answers are small; a huge one is a fault, not data.
    maxContentLength: 20 * 1024 * 1024,
    headers: { 'user-agent': 'idv-connector-worker' },
  });
  return {
    http,
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
