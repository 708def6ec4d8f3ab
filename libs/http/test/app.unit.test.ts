// The app factory's edges through a real listening server: limits, ids, error mapping.
import { expect } from 'chai';
import { Writable } from 'node:stream';
import {
  createHttpApp,
  startHttpServer,
  Unavailable,
  BadRequest,
  type RunningServer,
} from '../src/index.ts';
import { createLogger, createMetricsRegistry } from '@idv/observability';

describe('http: app factory', () => {
  let server: RunningServer;
  const lines: string[] = [];

  before(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = createHttpApp({
      logger: createLogger({ service: 'test', destination }),
      registry: createMetricsRegistry('test'),
      bodyLimit: '1kb',
      unavailable: [
        (err) => ((err as Error).message === 'db down' ? 'the database is unavailable' : undefined),
      ],
      routes: [
        { method: 'POST', path: '/echo', handler: (req, res) => res.json(req.body) },
        {
          method: 'GET',
          path: '/boom',
          handler: () => {
            throw new Error('secret internals');
          },
        },
        {
          method: 'GET',
          path: '/down',
          handler: async () => {
            throw new Error('db down');
          },
        },
        {
          method: 'GET',
          path: '/busy',
          handler: () => {
            throw new Unavailable('broker down');
          },
        },
        {
          method: 'GET',
          path: '/bad',
          handler: () => {
            throw new BadRequest('body is invalid', [{ path: '/name', message: 'is required' }]);
          },
        },
      ],
    });
    server = await startHttpServer(app, 0, '127.0.0.1');
  });
  after(async () => server?.stop());

  const post = (body: string, type = 'application/json') =>
    fetch(`${server.url}/echo`, { method: 'POST', headers: { 'content-type': type }, body });

  it('parses JSON and echoes the request id it was given', async () => {
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-123' },
      body: '{"a":1}',
    });
    expect(res.headers.get('x-request-id')).to.equal('req-123');
    expect(await res.json()).to.deep.equal({ a: 1 });
  });

  const cases: [string, () => Promise<Response>, number, RegExp][] = [
    ['a body over the limit', () => post(JSON.stringify({ a: 'x'.repeat(2000) })), 413, /limit/],
    ['invalid JSON', () => post('{"a":'), 400, /not valid JSON/],
    [
      'an unexpected error, without its internals',
      () => fetch(`${server.url}/boom`),
      500,
      /^unexpected error/,
    ],
    ['a backing service down', () => fetch(`${server.url}/down`), 503, /database is unavailable/],
    ['a thrown Unavailable', () => fetch(`${server.url}/busy`), 503, /broker down/],
    ['a thrown BadRequest', () => fetch(`${server.url}/bad`), 400, /body is invalid/],
  ];
  for (const [name, request, status, message] of cases) {
    it(`answers ${name} with ${status} and the error body`, async () => {
      const res = await request();
      expect(res.status).to.equal(status);
      const body = (await res.json()) as { statusCode: number; error: string; message: string };
      expect(body.statusCode).to.equal(status);
      expect(body.error).to.be.a('string');
      expect(body.message).to.match(message);
    });
  }

  it('lists validation details and keeps internals in the log only', async () => {
    const body = (await (await fetch(`${server.url}/bad`)).json()) as { details: unknown };
    expect(body.details).to.deep.equal([{ path: '/name', message: 'is required' }]);
    expect(lines.join('')).to.contain('secret internals');
  });
});
