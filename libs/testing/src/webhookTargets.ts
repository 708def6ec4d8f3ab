// Local webhook targets for fault suites and benchmarks: a healthy one that records when each event
// arrived, and bad ones that hang, reset the connection, or answer after two seconds.
import { createServer as createHttpServer, type Server } from 'node:http';
import {
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
} from 'node:net';

export interface WebhookTargets {
  /** callback URLs */
  urls: Record<'healthy' | 'hang' | 'reset' | 'slow', string>;
  /** eventId → Date.now() when the healthy target received it */
  arrivals: Map<string, number>;
  /** how often each bad target was called */
  badCalls: Record<'hang' | 'reset' | 'slow', number>;
  close(): Promise<void>;
}

async function listen<T extends Server | TcpServer>(server: T): Promise<T> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const urlOf = (server: Server | TcpServer, path: string) =>
  `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;

export async function startWebhookTargets(slowMs = 2000): Promise<WebhookTargets> {
  const arrivals = new Map<string, number>();
  const badCalls = { hang: 0, reset: 0, slow: 0 };
  const healthy = await listen(
    createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        arrivals.set((JSON.parse(body) as { eventId: string }).eventId, Date.now());
        res.writeHead(200).end('{}');
      });
    }),
  );
  const hang = await listen(
    createHttpServer(() => {
      badCalls.hang += 1; // never answers
    }),
  );
  const slow = await listen(
    createHttpServer((req, res) => {
      badCalls.slow += 1;
      req.resume();
      setTimeout(() => res.writeHead(200).end('{}'), slowMs);
    }),
  );
  const reset = await listen(
    createTcpServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => {
        badCalls.reset += 1;
        socket.resetAndDestroy();
      });
    }),
  );
  return {
    urls: {
      healthy: urlOf(healthy, '/healthy'),
      hang: urlOf(hang, '/hang'),
      reset: urlOf(reset, '/reset'),
      slow: urlOf(slow, '/slow'),
    },
    arrivals,
    badCalls,
    async close() {
      for (const server of [healthy, hang, slow]) server.closeAllConnections();
      for (const server of [healthy, hang, slow, reset])
        await new Promise((resolve) => server.close(resolve));
    },
  };
}
