// A local HTTP receiver for callbacks: records every request and answers as a script says.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Sink {
  url: string;
  received: Received[];
  /** answers for a path, used in order; the last repeats; default 200 */
  script(
    path: string,
    answers: (number | { status: number; headers?: Record<string, string>; body?: string })[],
  ): void;
  /** the requests (to `path`) once `count` have come, or those that came within `timeoutMs` */
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
  const received: Received[] = [];
  /** waits woken by each request that arrives */
  const arrivals = new Set<() => void>();
  const scripts = new Map<
    string,
    { status: number; headers?: Record<string, string>; body?: string }[]
  >();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        path,
        method: req.method ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      for (const wake of arrivals) wake();
      const answers = scripts.get(path) ?? [];
      const answer = (answers.length > 1 ? answers.shift() : answers[0]) ?? { status: 200 };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script(path, answers) {
      scripts.set(
        path,
        answers.map((a) => (typeof a === 'number' ? { status: a } : a)),
      );
    },
    async waitFor(count, path, timeoutMs = 15_000) {
      const matching = () => received.filter((r) => path === undefined || r.path === path);
      if (matching().length >= count) return matching();
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          arrivals.delete(onArrival);
          resolve();
        };
        const onArrival = () => {
          if (matching().length >= count) done();
        };
        const timer = setTimeout(done, timeoutMs);
        arrivals.add(onArrival);
      });
      return matching();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
