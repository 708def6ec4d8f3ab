// RabbitMQ taken away for IDV_FAULTS_OUTAGE_S seconds (10 by default) while callers keep sending
// events and verifications: meanwhile clear 503s with the error body and no hang; afterwards the
// services reconnect by themselves; every event accepted (202, so confirmed by the broker) before
// or after the outage reaches its webhook.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { IdvClient } from '@idv/client';
import { testAmqpUrl } from '@idv/db/testing';
import {
  startConnectorWorker,
  type RunningWorker,
} from '../../services/connector-worker/src/start.ts';
import { startSandbox, type RunningSandbox } from '../../services/provider-sandbox/src/start.ts';
import {
  startWebhookDispatcher,
  type StartedDispatcher,
} from '../../services/webhook-dispatcher/src/start.ts';
import { startSink, type Sink } from '../../services/webhook-dispatcher/test/sink.ts';
import { webhookBody } from '../../services/webhooks-gateway/test/support.ts';
import { deleteQueues } from '../support/amqpCleanup.ts';
import { startPlatform, type RunningPlatform } from '../support/platform.ts';
import {
  brokerOutage,
  outageMs,
  sleep,
  startLoad,
  tally,
  until,
  type Outage,
  type Outcome,
} from './support.ts';

const face = Buffer.from('FACE:testy').toString('base64');
const DEADLINE_MS = 15_000;

describe(`faults: RabbitMQ away for ${outageMs / 1000} s under load`, function () {
  this.timeout(180_000 + outageMs);
  const prefix = `test.brokerload.${randomBytes(4).toString('hex')}`;
  const eventsQueue = `test.brokerload.events.${randomBytes(4).toString('hex')}`;
  let outage: Outage;
  let platform: RunningPlatform;
  let sandbox: RunningSandbox;
  let worker: RunningWorker;
  let dispatcher: StartedDispatcher;
  let sink: Sink;

  before(async () => {
    outage = await brokerOutage(await testAmqpUrl());
    sandbox = await startSandbox(0);
    platform = await startPlatform({
      AMQP_URL: outage.url,
      CONNECTOR_QUEUE_PREFIX: prefix,
      CONNECTOR_TIMEOUT_MS: '5000',
    });
    worker = await startConnectorWorker({
      AMQP_URL: outage.url,
      MASTER_KEY: platform.env.MASTER_KEY!,
      LOG_LEVEL: 'silent',
      CONNECTOR_QUEUE_PREFIX: prefix,
      CONNECTOR_TYPE: 'face_compare_b',
    });
    dispatcher = await startWebhookDispatcher({
      ...platform.env,
      WEBHOOK_DISPATCHER_PORT: '0',
      WEBHOOK_EVENTS_QUEUE: eventsQueue,
      WEBHOOK_SSRF_ALLOW: '127.0.0.1/32',
      WEBHOOK_POLL_MS: '100',
    });
    await dispatcher.runtime.broker.waitUntilConnected(15_000);
    await worker.broker.waitUntilConnected(15_000);
    sink = await startSink();
    const c = platform.community;
    const docverify = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.service,
    });
    await docverify.request('PUT', `/verifier/community/${c.id}`, {
      name: 'faces',
      tag: 'faces',
      type: 'face_compare_b',
      connectorUrl: sandbox.url,
      config: { apiKey: 'sandbox-key' },
    });
    await docverify.request('PUT', `/verificationConfig/community/${c.id}`, {
      tenantId: c.tenantId,
      tag: 'kyc',
      face_compare: [{ verifier: 'faces' }],
    });
    const hook = await new IdvClient({
      baseUrl: platform.services.webhooks.url,
      licenseKey: platform.licences.service,
    }).request(
      'PUT',
      `/tenant/${c.tenantId}/community/${c.id}/webhook`,
      webhookBody(`${sink.url}/intake`),
    );
    expect(hook.status).to.equal(200);
  });
  after(async () => {
    await outage?.start();
    await dispatcher?.stop();
    await worker?.stop();
    await sink?.close();
    await platform?.stop();
    await sandbox?.close();
    await outage?.close();
    await deleteQueues(await testAmqpUrl(), [`${prefix}.face_compare_b`, eventsQueue]);
  });

  it('answers 503 meanwhile, recovers by itself and loses no accepted event', async () => {
    const c = platform.community;
    const intake = new IdvClient({
      baseUrl: platform.services.webhooks.url,
      licenseKey: platform.licences.service,
    });
    const caller = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.community,
    });
    let phase: 'before' | 'outage' | 'after' = 'before';
    let stopAfter = Number.POSITIVE_INFINITY;
    const phases = new Map<Outcome['body'], string>();
    const events = startLoad(
      6,
      async (i) => {
        const res = await intake.request<{ eventId?: string }>(
          'PUT',
          `/tenant/${c.tenantId}/community/${c.id}/event/E_IDV_DOCUMENT_VALIDATE`,
          { dvcID: `kyc-${i}`, docType: 'passport', status: 'verified' },
        );
        phases.set(res.body, phase);
        return res;
      },
      (o) => o.length >= stopAfter,
      DEADLINE_MS,
    );
    const verifications = startLoad(
      2,
      async () => {
        const res = await caller.encryptedRequest('POST', '/verify', {
          dvcID: 'kyc',
          verifications: ['face_compare'],
          document: { id: 'doc-1', type: 'dl', image1: face, image2: face },
        });
        phases.set(res.body, phase);
        return res;
      },
      () => phase === 'after' && events.outcomes.length >= stopAfter,
      DEADLINE_MS,
    );
    await until('events before the outage', () => events.outcomes.length >= 100);
    await outage.stop();
    phase = 'outage';
    const stoppedAt = Date.now();
    await sleep(outageMs);
    const during = events.outcomes.length;
    await outage.start();
    const restartedAfterMs = Date.now() - stoppedAt;
    phase = 'after';
    // the services find the broker again on their own; go on until 100 more events were taken
    await until(
      'events accepted again after the outage',
      () => events.outcomes.slice(during).filter((o) => o.status === 202).length >= 1,
      60_000,
    );
    stopAfter = events.outcomes.length + 100;
    const [eventOutcomes, verifyOutcomes] = await Promise.all([
      events.finished,
      verifications.finished,
    ]);
    console.log(
      `      broker away ${restartedAfterMs} ms; events ${JSON.stringify(tally(eventOutcomes))}; /verify ${JSON.stringify(tally(verifyOutcomes))}`,
    );

    for (const outcomes of [eventOutcomes, verifyOutcomes]) {
      expect(
        outcomes.filter((o) => o.status === -1),
        'hung requests',
      ).to.have.length(0);
      for (const o of outcomes.filter((x) => x.status !== 200 && x.status !== 202)) {
        expect(o.status, JSON.stringify(o)).to.equal(503);
        expect(o.body).to.include({ statusCode: 503, error: 'Service Unavailable' });
      }
    }
    const inPhase = (outcomes: Outcome[], p: string, status: number) =>
      outcomes.filter((o) => phases.get(o.body) === p && o.status === status).length;
    expect(
      inPhase(eventOutcomes, 'outage', 503),
      'event intake refused during the outage',
    ).to.be.greaterThan(0);
    expect(
      inPhase(verifyOutcomes, 'outage', 503),
      '/verify refused during the outage',
    ).to.be.greaterThan(0);
    expect(inPhase(eventOutcomes, 'after', 202), 'events taken again afterwards').to.be.greaterThan(
      0,
    );
    expect(
      inPhase(verifyOutcomes, 'after', 200),
      '/verify answers again afterwards',
    ).to.be.greaterThan(0);

    const accepted = eventOutcomes
      .filter((o) => o.status === 202)
      .map((o) => (o.body as { eventId: string }).eventId);
    const deliveries = () =>
      sink.received
        .filter((r) => r.path === '/intake')
        .map((r) => (JSON.parse(r.body) as { eventId: string }).eventId);
    await until(
      'every accepted event delivered',
      () => {
        const seen = new Set(deliveries());
        return accepted.every((id) => seen.has(id));
      },
      60_000,
    ).catch(() => undefined);
    const seen = new Set(deliveries());
    const missing = accepted.filter((id) => !seen.has(id));
    const duplicates = deliveries().length - seen.size;
    console.log(
      `      ${accepted.length} events accepted, ${seen.size} delivered, ${missing.length} missing, ${duplicates} delivered twice`,
    );
    expect(missing, `${missing.length} of ${accepted.length} accepted events lost`).to.have.length(
      0,
    );
    // an event is only ever published under the id its 202 named: no stranger reaches the webhook
    const acceptedSet = new Set(accepted);
    const strangers = [...seen].filter((id) => !acceptedSet.has(id));
    expect(
      strangers.length,
      'events delivered that no caller was told were accepted',
    ).to.be.at.most(eventOutcomes.filter((o) => o.status === 503).length);
  });
});
