// Faults between the gateway and the providers, seen through POST /verify: a failing provider
// opens its verifier's breaker and /verify fails over until it closes again; a worker killed
// with SIGKILL under load leaves no request hanging past the gateway's timeout.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { IdvClient } from '@idv/client';
import {
  startConnectorWorker,
  type RunningWorker,
} from '../services/connector-worker/src/start.ts';
import { startSandbox, type RunningSandbox } from '../services/provider-sandbox/src/start.ts';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { eventually } from '@idv/testing/eventually';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

const face = Buffer.from('FACE:testy').toString('base64');
const request = (dvcID: string) => ({
  dvcID,
  verifications: ['face_compare'],
  document: { id: 'doc-1', type: 'dl', image1: face, image2: face },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('connector faults through /verify', function () {
  this.timeout(120_000);
  const prefix = `test.faults.${randomBytes(4).toString('hex')}`;
  let platform: RunningPlatform;
  let sandbox: RunningSandbox;
  let admin: IdvClient;
  let caller: IdvClient;
  let workerEnv: Record<string, string>;

  const setUp = async (tag: string, connectorUrl: string) => {
    const c = platform.community.id;
    const res = await admin.request('PUT', `/verifier/community/${c}`, {
      name: tag,
      tag,
      type: 'face_compare_b',
      connectorUrl,
      config: { apiKey: 'sandbox-key' },
    });
    expect(res.status).to.equal(200);
  };
  const config = async (tag: string, verifiers: string[]) => {
    const res = await admin.request(
      'PUT',
      `/verificationConfig/community/${platform.community.id}`,
      {
        tenantId: platform.community.tenantId,
        tag,
        face_compare: verifiers.map((verifier) => ({ verifier })),
      },
    );
    expect(res.status).to.equal(200);
  };

  before(async () => {
    sandbox = await startSandbox(0);
    platform = await startPlatform({
      CONNECTOR_QUEUE_PREFIX: prefix,
      VERIFY_DEADLINE_MS: '3000',
    });
    workerEnv = {
      AMQP_URL: platform.env.AMQP_URL!,
      MASTER_KEY: platform.env.MASTER_KEY!,
      LOG_LEVEL: 'silent',
      CONNECTOR_QUEUE_PREFIX: prefix,
      CONNECTOR_TYPE: 'face_compare_b',
      PROVIDER_HTTP_TIMEOUT_MS: '1000',
      BREAKER_TIMEOUT_MS: '1500',
      BREAKER_VOLUME_THRESHOLD: '3',
      BREAKER_RESET_MS: '1500',
    };
    admin = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.service,
    });
    caller = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.community,
    });
    await setUp('flaky', `${sandbox.url}/s/flaky`);
    await setUp('steady', sandbox.url);
    await config('failover', ['flaky', 'steady']);
    await config('single', ['steady']);
  });
  after(async () => {
    await platform?.stop();
    await sandbox?.close();
    await deleteQueues(platform.env.AMQP_URL!, [`${prefix}.face_compare_b`]);
  });

  describe('a failing provider', () => {
    let worker: RunningWorker;
    before(async () => {
      worker = await startConnectorWorker(workerEnv);
      await worker.broker.waitUntilConnected(10_000);
    });
    after(async () => worker?.stop());

    const breakerState = async () => {
      const text = await worker.registry.getSingleMetricAsString('connector_breaker_state');
      const line = text
        .split('\n')
        .find((l) => l.includes('verifier="') && !l.startsWith('#') && l.includes(flakyId));
      return line ? Number(line.split(' ').pop()) : undefined;
    };
    let flakyId = '';

    it('opens the breaker after the volume threshold, fails over meanwhile, and closes after the reset', async () => {
      flakyId = (
        await admin.request<{ id: string }>(
          'GET',
          `/verifier/community/${platform.community.id}/flaky`,
        )
      ).body.id;
      await fetch(`${sandbox.url}/_admin/faults/flaky`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 503 }),
      });
      for (let i = 0; i < 6; i++) {
        const res = await caller.encryptedRequest<{
          certifications: { verifier: string; verified: boolean }[];
        }>('POST', '/verify', request('failover'));
        expect(res.status).to.equal(200);
        expect(res.body.certifications[0]).to.include({ verifier: 'steady', verified: true });
      }
      expect(await breakerState()).to.equal(2);
      const callsWhileOpen = (
        (await (await fetch(`${sandbox.url}/_admin/calls/flaky`)).json()) as { calls: number }
      ).calls;
      await caller.encryptedRequest('POST', '/verify', request('failover'));
      const callsAfter = (
        (await (await fetch(`${sandbox.url}/_admin/calls/flaky`)).json()) as { calls: number }
      ).calls;
      expect(callsAfter, 'an open breaker fails fast without calling the provider').to.equal(
        callsWhileOpen,
      );

      await fetch(`${sandbox.url}/_admin/faults/flaky`, { method: 'DELETE' });
      // BREAKER_RESET_MS (1.5 s) on, the breaker lets a trial call through
      await eventually(
        'the breaker half-open after its reset',
        async () => (await breakerState()) === 1,
      );
      const res = await caller.encryptedRequest<{ certifications: { verifier: string }[] }>(
        'POST',
        '/verify',
        request('failover'),
      );
      expect(res.body.certifications[0]).to.include({ verifier: 'flaky' });
      expect(await breakerState()).to.equal(0);
    });
  });

  describe('a worker killed under load', () => {
    const children: ChildProcess[] = [];
    const startChild = () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'services/connector-worker/src/main.ts'],
        { env: { ...process.env, ...workerEnv }, stdio: 'ignore' },
      );
      children.push(child);
      return child;
    };
    after(() => children.forEach((c) => c.kill('SIGKILL')));

    it('ends every one of 200 requests with a result or a clear 503 within the gateway timeout', async () => {
      const first = startChild();
      const deadline = Date.now() + 20_000;
      while ((await caller.encryptedRequest('POST', '/verify', request('single'))).status !== 200) {
        if (Date.now() > deadline) throw new Error('the worker never answered');
        await sleep(200);
      }
      const outcomes: { status: number; ms: number }[] = [];
      let next = 0;
      const run = async () => {
        while (next < 200) {
          next += 1;
          const started = Date.now();
          const res = await caller.encryptedRequest('POST', '/verify', request('single'));
          outcomes.push({ status: res.status, ms: Date.now() - started });
          // as callers should: a 503 says when to come back (the gateway sheds a backed-up queue)
          if (res.status === 503) await sleep(1000 * Number(res.headers.get('retry-after') ?? 1));
        }
      };
      const load = Promise.all(Array.from({ length: 16 }, run));
      await eventually('60 requests answered before the kill', () => outcomes.length >= 60);
      first.kill('SIGKILL');
      startChild();
      await load;
      expect(outcomes).to.have.length(200);
      const statuses = new Set(outcomes.map((o) => o.status));
      expect(
        [...statuses].every((s) => s === 200 || s === 503),
        [...statuses].join(),
      ).to.equal(true);
      expect(Math.max(...outcomes.map((o) => o.ms))).to.be.below(3000 + 5000);
      expect(outcomes.filter((o) => o.status === 200).length).to.be.greaterThan(150);
    });
  });
});
