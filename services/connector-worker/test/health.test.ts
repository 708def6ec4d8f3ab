// The worker's HTTP side, served by the service runtime like every service: GET /healthz (broker
// status, version; ?ready=1 is 503 while the broker is down), GET /metrics, and the runtime's error
// body for any other path or method. WORKER_METRICS_PORT=0 serves nothing.
import { expect } from 'chai';
import { startConnectorWorker, type RunningWorker } from '../src/start.ts';
import { startHarness, type Harness } from './harness.ts';
import { freePort } from '@idv/testing/freePort';

describe('connector worker /healthz and /metrics', function () {
  this.timeout(30_000);
  let harness: Harness;
  let worker: RunningWorker;
  let base: string;

  before(async () => {
    harness = await startHarness();
    worker = await harness.startWorker('identity_data', {
      WORKER_METRICS_PORT: String(await freePort()),
    });
    base = worker.metricsUrl ?? '';
  });
  after(async () => harness?.stop());

  it('answers /healthz with the broker up and the build version', async () => {
    for (const path of ['/healthz', '/healthz?ready=1']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).to.equal(200);
      expect(await res.json()).to.deep.equal({
        status: 'ok',
        version: worker.runtime.version,
        checks: { broker: 'up' },
      });
    }
  });

  it('exposes the provider metrics in Prometheus text', async () => {
    const res = await fetch(`${base}/metrics`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    expect(await res.text()).to.match(/^# TYPE connector_jobs_total counter$/m);
  });

  it('answers any other path 404 and another method 405, with the error body', async () => {
    const missing = await fetch(`${base}/servicekeys`);
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.include({ statusCode: 404 });
    const wrong = await fetch(`${base}/healthz`, { method: 'POST' });
    expect(wrong.status).to.equal(405);
    expect(wrong.headers.get('allow')).to.contain('GET');
  });

  it('is degraded without its broker: 200 for liveness, 503 for readiness', async () => {
    const port = await freePort();
    const alone: RunningWorker = await startConnectorWorker({
      ...harness.env,
      AMQP_URL: `amqp://guest:guest@127.0.0.1:${await freePort()}`,
      CONNECTOR_TYPE: 'identity_data',
      WORKER_METRICS_PORT: String(port),
    });
    try {
      const live = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(live.status).to.equal(200);
      expect(await live.json()).to.include({ status: 'degraded' });
      const ready = await fetch(`http://127.0.0.1:${port}/healthz?ready=1`);
      expect(ready.status).to.equal(503);
      expect(await ready.json()).to.deep.include({ checks: { broker: 'down' } });
    } finally {
      await alone.stop();
    }
  });

  it('serves nothing with WORKER_METRICS_PORT=0', async () => {
    const quiet = await harness.startWorker('identity_data', { WORKER_METRICS_PORT: '0' });
    expect(quiet.metricsUrl).to.equal(undefined);
  });
});
