// The worker's small HTTP side: GET /healthz (broker up or not) and GET /metrics for Prometheus.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Broker } from '@idv/broker';
import type { Registry } from '@idv/observability';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(
  port: number,
  registry: Registry,
  broker: Broker,
): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || (path !== '/healthz' && path !== '/metrics')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'no such route' }));
      return;
    }
    if (path === '/healthz') {
      const up = broker.status() === 'up';
      // ?ready=1 is the readiness probe: a worker without its broker takes no jobs
      const readiness = /[?&]ready=(1|true)(&|$)/.test(req.url ?? '');
      res.writeHead(readiness && !up ? 503 : 200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ status: up ? 'ok' : 'degraded', checks: { broker: up ? 'up' : 'down' } }),
      );
      return;
    }
    void registry.metrics().then((text) => {
      res.writeHead(200, { 'content-type': registry.contentType });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
