// POST /verify (face_compare through a worker and the sandbox) at concurrency 1 and 32, against an
// Express JSON echo on the same machine in the same run.
import { randomBytes } from 'node:crypto';
import express from 'express';
import { IdvClient } from '@idv/client';
import { startHttpServer } from '@idv/http';
import { startConnectorWorker } from '../services/connector-worker/src/start.ts';
import { startSandbox } from '../services/provider-sandbox/src/start.ts';
import { deleteQueues } from '../test/support/amqpCleanup.ts';
import { startPlatform } from '../test/support/platform.ts';
import { latencyNote, load, type Comparison } from './harness.ts';

const face = Buffer.from('FACE:testy').toString('base64');

async function startEcho() {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/echo', (req, res) => res.json(req.body));
  return startHttpServer(app, 0, '127.0.0.1');
}

export async function docverifyBenchmarks(): Promise<Comparison[]> {
  const prefix = `bench.${randomBytes(4).toString('hex')}`;
  const sandbox = await startSandbox(0);
  const platform = await startPlatform({ CONNECTOR_QUEUE_PREFIX: prefix, LOG_LEVEL: 'silent' });
  const worker = await startConnectorWorker({
    AMQP_URL: platform.env.AMQP_URL!,
    MASTER_KEY: platform.env.MASTER_KEY!,
    LOG_LEVEL: 'silent',
    CONNECTOR_QUEUE_PREFIX: prefix,
    CONNECTOR_TYPE: 'face_compare_b',
  });
  const echo = await startEcho();
  try {
    const base = platform.services.docverify.url;
    const admin = new IdvClient({ baseUrl: base, licenseKey: platform.licences.service });
    const c = platform.community.id;
    await admin.request('PUT', `/verifier/community/${c}`, {
      name: 'faces',
      tag: 'faces',
      type: 'face_compare_b',
      connectorUrl: sandbox.url,
      config: { apiKey: 'sandbox-key' },
    });
    await admin.request('PUT', `/verificationConfig/community/${c}`, {
      tenantId: platform.community.tenantId,
      tag: 'bench',
      face_compare: [{ verifier: 'faces' }],
    });
    const caller = new IdvClient({ baseUrl: base, licenseKey: platform.licences.community });
    const request = {
      dvcID: 'bench',
      verifications: ['face_compare'],
      document: { id: 'doc-1', type: 'dl', image1: face, image2: face },
    };
    const verify = async () => {
      const res = await caller.encryptedRequest<{ status: string }>('POST', '/verify', request);
      if (res.status !== 200 || res.body.status !== 'verified')
        throw new Error(`verify answered ${res.status}`);
    };
    const body = JSON.stringify({ data: await caller.encryptJson(request) });
    const echoOnce = async () => {
      const res = await fetch(`${echo.url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await res.text();
    };
    const comparisons: Comparison[] = [];
    for (const concurrency of [1, 32]) {
      const baseline = await load(`echo c${concurrency}`, echoOnce, concurrency);
      const candidate = await load(`/verify face_compare c${concurrency}`, verify, concurrency);
      comparisons.push({
        suite: `docverify /verify c${concurrency}`,
        baseline,
        candidate,
        note: `verify ${latencyNote(candidate)}; echo ${latencyNote(baseline)}`,
      });
    }
    return comparisons;
  } finally {
    await echo.stop();
    await worker.stop();
    await platform.stop();
    await sandbox.close();
    await deleteQueues(platform.env.AMQP_URL!, [`${prefix}.face_compare_b`]);
  }
}
