// Graceful shutdown: a request in flight when stop() is called still gets its answer, new
// connections are refused, and shutdown steps run in priority order.
import { expect } from 'chai';
import { createHttpApp, Lifecycle, startHttpServer } from '../src/index.ts';
import { createLogger, createMetricsRegistry } from '@idv/observability';

describe('http: graceful shutdown', () => {
  it('finishes the in-flight request and then refuses new ones', async () => {
    let release: () => void = () => undefined;
    let arrived: () => void = () => undefined;
    const inHandler = new Promise<void>((resolve) => (arrived = resolve));
    const app = createHttpApp({
      logger: createLogger({ service: 'test', level: 'silent' }),
      registry: createMetricsRegistry('test'),
      routes: [
        {
          method: 'GET',
          path: '/slow',
          handler: async (_req, res) => {
            arrived();
            await new Promise<void>((resolve) => (release = resolve));
            res.json({ done: true });
          },
        },
      ],
    });
    const server = await startHttpServer(app, 0, '127.0.0.1');
    const inFlight = fetch(`${server.url}/slow`);
    await inHandler;
    // stop() closes the listener at once: the next connection is refused
    const stopped = server.stop(5000);
    const refused = await fetch(`${server.url}/slow`).then(
      () => false,
      () => true,
    );
    release();
    const res = await inFlight;
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ done: true });
    await stopped;
    expect(refused).to.equal(true);
  });

  it('runs stop steps by priority group, carrying on past a failing step', async () => {
    const order: string[] = [];
    const lifecycle = new Lifecycle(createLogger({ service: 'test', level: 'silent' }));
    lifecycle.onStop('pool', 20, async () => order.push('pool'));
    lifecycle.onStop('http', 0, async () => order.push('http'));
    lifecycle.onStop('broken', 10, async () => {
      order.push('broken');
      throw new Error('channel already closed');
    });
    lifecycle.onStop('broker', 10, async () => order.push('broker'));
    await lifecycle.stop();
    expect(order[0]).to.equal('http');
    expect(order.slice(1, 3).sort()).to.deep.equal(['broken', 'broker']);
    expect(order[3]).to.equal('pool');
  });
});
