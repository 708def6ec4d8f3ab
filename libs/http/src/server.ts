// Listening and graceful shutdown: stop accepting, let in-flight requests finish, then force.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** stops accepting, waits for in-flight requests up to timeoutMs, then closes the rest */
  stop(timeoutMs?: number): Promise<void>;
}

export async function startHttpServer(
  app: Express,
  port: number,
  host = '0.0.0.0',
): Promise<RunningServer> {
  const server = createServer(app);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    stop: (timeoutMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
        // keep-alive connections turn idle as their in-flight requests finish: close them then
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        force.unref();
        sweep.unref();
        server.close(() => {
          clearTimeout(force);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
