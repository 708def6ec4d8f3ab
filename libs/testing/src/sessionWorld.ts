// The platform with what a verification session needs end to end: the provider sandbox, connector
// workers for documents (auto_review), faces (face_compare_b) and liveness, a verification config
// `kyc-session` running every kind of the face journey, a built capture page in a temporary
// directory, a clock the test moves, and a listener for the events of the community.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createBroker, type Broker } from '@idv/broker';
import { IdvClient } from '@idv/client';
import type { EventEnvelope } from '@idv/contracts';
import { testAmqpUrl } from '@idv/testing/testServers';
import { createLogger } from '@idv/observability';
import {
  startConnectorWorker,
  type RunningWorker,
} from '../../../services/connector-worker/src/start.ts';
import { startSandbox, type RunningSandbox } from '../../../services/provider-sandbox/src/start.ts';
import { deleteQueues } from './amqpCleanup.ts';
import { jpeg, png, selfieImage } from '@idv/samples/captureImages';
import { licenceBack, licenceFront, passportPage } from '@idv/samples/idDocuments';
import { startPlatform, type RunningPlatform } from './platform.ts';
import { TestClock } from './testClock.ts';

export { eventually } from './eventually.ts';

export const PAGE_HTML =
  '<!doctype html><title>capture</title><script src="/capture/assets/app-1.js"></script>';

export const PAGE_SCRIPT = 'console.log("capture");';

export interface SessionWorldOptions {
  name: string;
  platform?: Record<string, string>;
  /** settings of the config kyc-session */
  settings?: Record<string, unknown>;
  /** also an agent_review worker, its verifier `agent` and the config `kyc-agent` (dl by agents) */
  agentReview?: boolean;
}

export interface SessionWorld {
  platform: RunningPlatform;
  sandbox: RunningSandbox;
  clock: TestClock;
  pageDir: string;
  runsQueue: string;
  url: string;
  /** every event of the suite's community, in order */
  events: EventEnvelope[];
  client(licence: keyof RunningPlatform['licences']): IdvClient;
  /** the capture page's API with a page token */
  page(token: string): PageClient;
  images: { front: Buffer; back: Buffer; selfie: Buffer; passport: Buffer };
  eventsNamed(name: string, sessionId?: string): EventEnvelope[];
  stop(): Promise<void>;
}

export interface PageClient {
  get<T = Record<string, unknown>>(path: string): Promise<{ status: number; body: T }>;
  post<T = Record<string, unknown>>(
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
  put<T = Record<string, unknown>>(
    side: string,
    bytes: Buffer,
    type?: string,
  ): Promise<{ status: number; body: T }>;
}

const TYPES = ['auto_review', 'face_compare_b', 'liveness'] as const;

export async function startSessionWorld(options: SessionWorldOptions): Promise<SessionWorld> {
  const suffix = randomBytes(4).toString('hex');
  const prefix = `test.${options.name}.${suffix}`;
  const runsQueue = `test.${options.name}.runs.${suffix}`;
  const eventsQueue = `test.${options.name}.events.${suffix}`;
  const pageDir = mkdtempSync(join(tmpdir(), 'capture-page-'));
  mkdirSync(join(pageDir, 'assets'));
  writeFileSync(join(pageDir, 'index.html'), PAGE_HTML);
  writeFileSync(join(pageDir, 'assets', 'app-1.js'), PAGE_SCRIPT);
  // the compressed copies the page's build writes beside each asset
  writeFileSync(join(pageDir, 'assets', 'app-1.js.br'), brotliCompressSync(PAGE_SCRIPT));
  writeFileSync(join(pageDir, 'assets', 'app-1.js.gz'), gzipSync(PAGE_SCRIPT));
  const clock = new TestClock();
  const sandbox = await startSandbox(0);
  const platform = await startPlatform(
    {
      CONNECTOR_QUEUE_PREFIX: prefix,
      DOCVERIFY_RUNS_QUEUE: runsQueue,
      CAPTURE_PAGE_DIR: pageDir,
      VERIFY_DEADLINE_MS: '8000',
      ASYNC_VERIFY_DEADLINE_MS: '20000',
      SESSION_SWEEP_MS: '200',
      ...options.platform,
    },
    () => ({}),
    { clock },
  );
  const workers: RunningWorker[] = [];
  const types = options.agentReview ? [...TYPES, 'agent_review' as const] : TYPES;
  for (const type of types)
    workers.push(
      await startConnectorWorker({
        AMQP_URL: platform.env.AMQP_URL!,
        MASTER_KEY: platform.env.MASTER_KEY!,
        LOG_LEVEL: 'silent',
        CONNECTOR_QUEUE_PREFIX: prefix,
        CONNECTOR_TYPE: type,
      }),
    );
  await Promise.all(workers.map((w) => w.broker.waitUntilConnected(15_000)));

  const events: EventEnvelope[] = [];
  const listener: Broker = createBroker({
    url: platform.env.AMQP_URL!,
    logger: createLogger({ service: 'test', level: 'silent' }),
  });
  await listener.subscribeEvents(eventsQueue, ['#'], (event) => {
    if (event.communityId === platform.community.id) events.push(event);
  });

  const url = platform.services.docverify.url;
  const client = (licence: keyof RunningPlatform['licences']) =>
    new IdvClient({ baseUrl: url, licenseKey: platform.licences[licence] });
  const admin = client('service');
  const c = platform.community;
  const verifier = async (tag: string, type: string, config: Record<string, unknown>) => {
    const res = await admin.request('PUT', `/verifier/community/${c.id}`, {
      name: tag,
      tag,
      type,
      connectorUrl: sandbox.url,
      config,
    });
    if (res.status !== 200)
      throw new Error(`verifier ${tag}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  await verifier('review', 'auto_review', { apiKey: 'sandbox-key' });
  await verifier('faces', 'face_compare_b', { apiKey: 'sandbox-key' });
  await verifier('live', 'liveness', { apiKey: 'sandbox-key', documentApiKey: 'sandbox-key' });
  const config = await admin.request('PUT', `/verificationConfig/community/${c.id}`, {
    tenantId: c.tenantId,
    tag: 'kyc-session',
    dl_authenticate: [{ verifier: 'review' }],
    idcard_authenticate: [{ verifier: 'review' }],
    ppt_authenticate: [{ verifier: 'review' }],
    document_liveness: [{ verifier: 'live' }],
    face_compare: [{ verifier: 'faces' }],
    face_liveness: [{ verifier: 'live' }],
    settings: { retryCount: 1, selfieRetryCount: 2, ...options.settings },
  });
  if (config.status !== 200)
    throw new Error(`config: ${config.status} ${JSON.stringify(config.body)}`);
  if (options.agentReview) {
    await verifier('agent', 'agent_review', { apiKey: 'sandbox-key' });
    const agentConfig = await admin.request('PUT', `/verificationConfig/community/${c.id}`, {
      tenantId: c.tenantId,
      tag: 'kyc-agent',
      dl_authenticate: [{ verifier: 'agent' }],
      document_liveness: [{ verifier: 'live' }],
      face_compare: [{ verifier: 'faces' }],
      face_liveness: [{ verifier: 'live' }],
    });
    if (agentConfig.status !== 200) throw new Error(`config kyc-agent: ${agentConfig.status}`);
  }

  const images = {
    front: await png(licenceFront(), 'DOC:testy', 'FACE:testy'),
    back: await png(await licenceBack(), 'DOC:testy'),
    passport: await jpeg(await passportPage(), 'DOC:testy', 'FACE:testy'),
    selfie: await jpeg(selfieImage(), 'FACE:testy'),
  };

  const page = (token: string): PageClient => {
    const call = async <T>(
      method: string,
      path: string,
      body?: string | Uint8Array,
      type?: string,
    ) => {
      const res = await fetch(`${url}/capture-api${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(type ? { 'content-type': type } : {}) },
        ...(body === undefined ? {} : { body }),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
    };
    return {
      get: (path) => call('GET', path),
      post: (path, body) =>
        call(
          'POST',
          path,
          body === undefined ? undefined : JSON.stringify(body),
          body === undefined ? undefined : 'application/json',
        ),
      put: (side, bytes, type = 'image/png') =>
        call('PUT', `/images/${side}`, new Uint8Array(bytes), type),
    };
  };

  return {
    platform,
    sandbox,
    clock,
    pageDir,
    runsQueue,
    url,
    events,
    client,
    page,
    images,
    eventsNamed: (name, sessionId) =>
      events.filter(
        (e) =>
          e.eventName === name &&
          (sessionId === undefined || (e.data as { sessionId?: string }).sessionId === sessionId),
      ),
    async stop() {
      await listener.close();
      await Promise.all(workers.map((w) => w.stop()));
      await platform.stop();
      await sandbox.close();
      rmSync(pageDir, { recursive: true, force: true });
      const queues = types.flatMap((t) => [
        `${prefix}.${t}`,
        `${prefix}.${t}.followup`,
        ...[1, 10, 60].map((s) => `${prefix}.${t}.followup.wait.${s}s`),
      ]);
      await deleteQueues(await testAmqpUrl(), [...queues, eventsQueue]);
    },
  };
}
