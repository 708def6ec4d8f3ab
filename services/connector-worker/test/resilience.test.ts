// The worker under provider trouble and process trouble: breaker opening, failing fast and closing,
// timeouts that abort the HTTP call, malformed answers, poison messages, graceful shutdown, two
// replicas sharing a queue, and a worker killed mid-job whose job is redelivered and answered.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RunningWorker } from '../src/start.ts';
import { cloud } from '@idv/testing/connectors/face_cloud';
import { eventually } from '@idv/testing/eventually';
import { startHarness, type Harness } from './harness.ts';

const testy = { firstName: 'Testy', lastName: 'McTestface', dob: '19700101', ssn: '000000000' };

async function metric(worker: RunningWorker, name: string, labels: Record<string, string>) {
  const found = (await worker.registry.getSingleMetric(name)?.get())?.values.find((v) =>
    Object.entries(labels).every(([k, val]) => v.labels[k] === val),
  );
  return found?.value;
}

const until = (check: () => boolean | Promise<boolean>, ms = 10_000) =>
  eventually('the condition', check, ms);

describe('connector worker resilience', function () {
  this.timeout(30_000);
  let harness: Harness;
  let worker: RunningWorker;
  const ask = (scope: string, verifierId: string, timeoutMs = 8000) =>
    harness.ask({
      type: 'identity_data',
      kind: 'ssn_verify',
      config: { apiKey: 'sandbox-key' },
      document: testy,
      connectorUrl: `${harness.sandbox.url}/s/${scope}`,
      verifierId,
      timeoutMs,
    });

  before(async () => {
    harness = await startHarness({
      BREAKER_VOLUME_THRESHOLD: '3',
      BREAKER_RESET_MS: '800',
      PROVIDER_HTTP_TIMEOUT_MS: '300',
      BREAKER_TIMEOUT_MS: '600',
    });
    worker = await harness.startWorker('identity_data');
  });
  after(() => harness?.stop());

  it('opens the breaker of a failing verifier, fails fast, keeps others going, closes after the reset', async () => {
    harness.sandbox.faults.set('down', { status: 503 });
    for (let i = 0; i < 3; i += 1) {
      const reply = await ask('down', 'v-down');
      expect(reply).to.deep.include({ outcome: 'provider_unavailable' });
      expect(reply.error?.code).to.equal('provider_5xx');
    }
    const calls = harness.sandbox.faults.callsOf('down');
    const fast = await ask('down', 'v-down');
    expect(fast.error?.code).to.equal('breaker_open');
    expect(harness.sandbox.faults.callsOf('down')).to.equal(calls);
    expect(await metric(worker, 'connector_breaker_state', { verifier: 'v-down' })).to.equal(2);
    expect((await ask('up', 'v-up')).outcome).to.equal('completed');

    harness.sandbox.faults.clear('down');
    // BREAKER_RESET_MS (800) on, the breaker lets a trial call through
    await eventually(
      'the breaker half-open after its reset',
      async () => (await metric(worker, 'connector_breaker_state', { verifier: 'v-down' })) === 1,
    );
    expect((await ask('down', 'v-down')).outcome).to.equal('completed');
    expect(await metric(worker, 'connector_breaker_state', { verifier: 'v-down' })).to.equal(0);
    const text = await worker.registry.metrics();
    expect(text).to.match(/connector_provider_latency_seconds_count\{[^}]*result="completed"/);
  });

  const faults: [string, Record<string, unknown>, string][] = [
    ['a hanging provider times out (HTTP call aborted)', { hang: true }, 'provider_timeout'],
    ['a malformed answer is a provider failure', { malformed: true }, 'provider_malformed'],
  ];
  for (const [name, fault, code] of faults) {
    it(name, async () => {
      harness.sandbox.faults.set(code, fault);
      const reply = await ask(code, `v-${code}`);
      expect(reply.outcome).to.equal('provider_unavailable');
      expect(reply.error?.code).to.equal(code);
    });
  }

  it("sorts the cloud SDK's failures the same way (its requests go through the same client)", async () => {
    await harness.startWorker('face_cloud');
    const face = Buffer.from('FACE:testy').toString('base64');
    const askCloud = (fault: string) =>
      harness.ask({
        type: 'face_cloud',
        kind: 'face_compare',
        config: cloud,
        document: { image1: face, image2: face },
        connectorUrl: `${harness.sandbox.url}/fault/${fault}`,
        verifierId: `v-cloud-${fault}`,
      });
    // a bare 429 or 408 (no error type the SDK knows) is the service's trouble, not a refusal
    const faults = ['hang', 'status=503', 'status=429', 'status=408', 'status=400'];
    const replies = await Promise.all(faults.map((f) => askCloud(f)));
    expect(replies.map((r) => [r.outcome, r.error?.code])).to.deep.equal([
      ['provider_unavailable', 'provider_timeout'],
      ['provider_unavailable', 'provider_5xx'],
      ['provider_unavailable', 'provider_throttled'],
      ['provider_unavailable', 'provider_5xx'],
      ['invalid_request', 'provider_rejected'],
    ]);
  });

  it('dead-letters a message that is not a job and tells the caller', async () => {
    const queue = worker.queue;
    const failure = await harness.broker.request(queue, { hello: 'world' }).catch((e: Error) => e);
    expect(failure).to.be.instanceOf(Error).with.property('name', 'RpcRemoteError');
  });

  it('lets two replicas of one type share the queue', async () => {
    const second = await harness.startWorker('identity_data', { WORKER_PREFETCH: '1' });
    harness.sandbox.faults.set('shared', { latencyMs: 150 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => ask('shared', `v-shared-${i}`)));
    const done = (w: RunningWorker) => metric(w, 'connector_jobs_total', { outcome: 'completed' });
    expect(await done(second)).to.be.greaterThan(0);
    const before = (await done(worker)) ?? 0;
    expect(before).to.be.greaterThan(0);
  });

  it('finishes an in-flight job on graceful stop', async () => {
    const extra = await harness.startWorker('liveness');
    harness.sandbox.faults.set('graceful', { latencyMs: 200 });
    const pending = harness.ask({
      type: 'liveness',
      kind: 'document_liveness',
      config: { documentApiKey: 'sandbox-key' },
      document: { image: Buffer.from('DOC:testy').toString('base64') },
      connectorUrl: `${harness.sandbox.url}/s/graceful`,
    });
    await until(() => harness.sandbox.faults.callsOf('graceful') > 0);
    await extra.stop();
    expect((await pending).outcome).to.equal('completed');
  });
});

describe('connector worker killed mid-job', function () {
  this.timeout(60_000);
  let harness: Harness;
  const children: ChildProcess[] = [];
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const spawnWorker = () => {
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, ...harness.env, CONNECTOR_TYPE: 'identity_data' },
      stdio: 'ignore',
    });
    children.push(child);
    return child;
  };

  before(async () => {
    harness = await startHarness();
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await harness?.stop();
  });

  it('redelivers the job to the next worker, which answers it', async () => {
    harness.sandbox.faults.set('kill', { latencyMs: 4000, times: 1 });
    const first = spawnWorker();
    // The queue exists once the child consumes; until then a request is unroutable.
    await until(async () => {
      const ping = harness.job({ type: 'identity_data', kind: 'ssn_verify', document: testy });
      const answer = await harness.broker
        .request(`${harness.env.CONNECTOR_QUEUE_PREFIX}.identity_data`, ping.body, {
          timeoutMs: 2000,
        })
        .catch(() => undefined);
      return answer !== undefined;
    }, 30_000);
    const reply = harness.ask({
      type: 'identity_data',
      kind: 'ssn_verify',
      config: { apiKey: 'sandbox-key' },
      document: testy,
      connectorUrl: `${harness.sandbox.url}/s/kill`,
      timeoutMs: 40_000,
    });
    await until(() => harness.sandbox.faults.callsOf('kill') > 0, 30_000);
    first.kill('SIGKILL');
    spawnWorker();
    const answer = await reply;
    expect(answer.outcome).to.equal('completed');
    expect(answer.result?.verified).to.equal(true);
    expect(harness.sandbox.faults.callsOf('kill')).to.equal(2);
  });
});

describe('connector worker: SSRF guard', function () {
  this.timeout(30_000);
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  it('refuses internal addresses in production unless allowed, as invalid_request', async () => {
    await harness.startWorker('identity_data', { NODE_ENV: 'production' });
    const metadata = await harness.ask({
      type: 'identity_data',
      kind: 'ssn_verify',
      config: { apiKey: 'sandbox-key' },
      document: { ssn: '000-00-0000' },
      connectorUrl: 'http://169.254.169.254/latest',
    });
    expect(metadata).to.include({ outcome: 'invalid_request' });
    expect(metadata.error?.code).to.equal('blocked_target');
    const loopback = await harness.ask({
      type: 'identity_data',
      kind: 'ssn_verify',
      config: { apiKey: 'sandbox-key' },
      document: { ssn: '000-00-0000' },
      connectorUrl: harness.sandbox.url.replace('127.0.0.1', 'localhost'),
    });
    expect(loopback).to.include({ outcome: 'invalid_request' });
    expect(loopback.error?.code).to.equal('blocked_target');
  });

  it('guards the cloud SDK the same way', async () => {
    await harness.startWorker('face_cloud', { NODE_ENV: 'production' });
    const face = Buffer.from('FACE:testy').toString('base64');
    const reply = await harness.ask({
      type: 'face_cloud',
      kind: 'face_compare',
      config: {
        awsAccessKey: 'AKIASANDBOXTESTY0000',
        awsSecretKey: 'sandbox-cloud-secret',
        awsRegion: 'eu-west-1',
      },
      document: { image1: face, image2: face },
      connectorUrl: harness.sandbox.url.replace('127.0.0.1', 'localhost'),
    });
    expect(reply).to.include({ outcome: 'invalid_request' });
    expect(reply.error?.code).to.equal('blocked_target');
  });
});
