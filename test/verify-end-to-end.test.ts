// POST /verify end to end: gateway -> RabbitMQ -> a connector worker per type -> provider sandbox,
// for each of the 13 types a match and a mismatch; failover to the second verifier; the event.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import bwipjs from 'bwip-js/node';
import { createBroker, type Broker } from '@idv/broker';
import { IdvClient } from '@idv/client';
import { verifyMessage } from '@idv/crypto';
import { CONNECTOR_TYPES, type ConnectorType, type EventEnvelope } from '@idv/contracts';
import { createLogger } from '@idv/observability';
import {
  startConnectorWorker,
  type RunningWorker,
} from '../services/connector-worker/src/start.ts';
import { CLOUD_ACCESS_KEY, CLOUD_SECRET_KEY } from '../services/provider-sandbox/src/fixtures.ts';
import { startSandbox, type RunningSandbox } from '../services/provider-sandbox/src/start.ts';
import { deleteQueues } from './support/amqpCleanup.ts';
import { startPlatform, type RunningPlatform } from './support/platform.ts';

/**
 * Checks a certification's proof as anyone holding the docverify key from /publickeys would: a
 * compact ES256K JWS, verified by node:crypto (verifyMessage), not by the libsecp256k1 signer.
 */
async function proofVerifies(docverifyUrl: string, proof: string): Promise<boolean> {
  const { publicKey } = (await (await fetch(`${docverifyUrl}/publickeys`)).json()) as {
    publicKey: string;
  };
  const [header, payload, signature] = proof.split('.');
  if (!header || !payload || !signature) return false;
  const alg = (JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string }).alg;
  const raw = Buffer.from(signature, 'base64url').toString('base64');
  return alg === 'ES256K' && verifyMessage(publicKey, `${header}.${payload}`, raw);
}

const img = (text: string) => Buffer.from(text).toString('base64');
const key = 'sandbox-key';
const testy = { firstName: 'Testy', lastName: 'McTestface', dob: '19700101', ssn: '000-00-0000' };
const licence = {
  documentType: 'DL',
  country: 'US',
  documentId: 'D0000001',
  state: 'CA',
  ...testy,
};

async function licenceBarcode(expiry: string): Promise<string> {
  const fields = {
    DAQ: 'L00000001',
    DCS: 'MCTESTFACE',
    DAC: 'TESTY',
    DBD: '08242020',
    DBB: '01311970',
    DBA: expiry,
    DBC: '1',
    DAJ: 'AZ',
    DCG: 'USA',
  };
  const body = Object.entries(fields).map(([k, v]) => `${k}${v}`);
  const text =
    ['@', '\x1e', 'ANSI 636026080102DL00410288ZA03290015DL' + body.join('\n')].join('\n') + '\r';
  const png = await bwipjs.toBuffer({
    bcid: 'pdf417',
    text,
    scale: 2,
    padding: 10,
    backgroundcolor: 'FFFFFF',
  });
  return png.toString('base64');
}

interface Case {
  type: ConnectorType;
  /** verifier tag and config suffix; the type when absent */
  tag?: string;
  kind: string;
  config: (sandbox: string) => Record<string, unknown>;
  match: () => Promise<Record<string, unknown>> | Record<string, unknown>;
  mismatch: () => Promise<Record<string, unknown>> | Record<string, unknown>;
}

const faces = (a: string, b: string) => ({ image1: img(`FACE:${a}`), image2: img(`FACE:${b}`) });
const dlDoc = (name: string) => ({ type: 'dl', front_image: img(`DOC:${name}`) });

const CASES: Case[] = [
  { type: 'basic_ocr', kind: 'dl_authenticate', config: () => ({}), match: async () => ({ type: 'dl', barcode_image: await licenceBarcode('01312099') }), mismatch: async () => ({ type: 'dl', barcode_image: await licenceBarcode('01312001') }) },
  { type: 'license_registry', kind: 'dl_verify', config: () => ({ messageOriginatorId: 'IDV', messageDestinationId: 'REG' }), match: () => licence, mismatch: () => ({ ...licence, dob: '19990101' }) },
  { type: 'identity_data', kind: 'ssn_verify', config: () => ({ apiKey: key }), match: () => testy, mismatch: () => ({ ...testy, ssn: '000-00-0009' }) },
  { type: 'liveness', kind: 'face_liveness', config: () => ({ apiKey: key, calibration: 'REGULAR' }), match: () => ({ liveId: img('LIVE') }), mismatch: () => ({ liveId: img('SPOOF') }) },
  { type: 'face_compare_a', kind: 'face_compare', config: (s) => ({ accounts: [{ apiKey: key, url: s, urlVerify: `${s}/face/v1.0/verify` }] }), match: () => faces('testy', 'testy'), mismatch: () => faces('testy', 'fakey') },
  { type: 'face_compare_b', kind: 'face_compare', config: () => ({ apiKey: key }), match: () => faces('testy', 'testy'), mismatch: () => faces('testy', 'fakey') },
  { type: 'agent_review', kind: 'dl_authenticate', config: () => ({ apiKey: key }), match: () => dlDoc('testy'), mismatch: () => dlDoc('forged') },
  { type: 'auto_review', kind: 'dl_authenticate', config: () => ({ apiKey: key }), match: () => dlDoc('testy'), mismatch: () => dlDoc('expired') },
  { type: 'people_search', kind: 'person_verify', config: () => ({ apName: 'idv', apPassword: key }), match: () => testy, mismatch: () => ({ ...testy, firstName: 'Nobody', lastName: 'Known' }) },
  { type: 'document_auth_a', kind: 'dl_authenticate', config: () => ({ airAccessKey: key, airSecretToken: key }), match: () => dlDoc('testy'), mismatch: () => dlDoc('forged') },
  { type: 'document_auth_b', kind: 'dl_authenticate', config: () => ({ clientId: 'c', clientSecretKey: key, apiKey: key }), match: () => dlDoc('testy'), mismatch: () => dlDoc('forged') },
  { type: 'document_auth_c', kind: 'dl_authenticate', config: (s) => ({ license: key, clientId: 'c', clientSecret: key, verifierUrl: `${s}/docc/v1/verify`, verifierUrlV2: `${s}/docc/v2/verify`, document_share_session_enabled: false }), match: () => dlDoc('testy'), mismatch: () => dlDoc('forged') },
  { type: 'face_cloud', kind: 'face_compare', config: () => ({ awsAccessKey: CLOUD_ACCESS_KEY, awsSecretKey: CLOUD_SECRET_KEY, awsRegion: 'eu-west-1' }), match: () => faces('testy', 'testy'), mismatch: () => faces('testy', 'fakey') },
  // the remaining kinds, each through a type that serves it
  { type: 'document_auth_b', kind: 'ppt_authenticate', tag: 'docb-ppt', config: () => ({ clientId: 'c', clientSecretKey: key, apiKey: key }), match: () => ({ type: 'PPT', front_image: img('DOC:testy') }), mismatch: () => ({ type: 'ppt', front_image: img('DOC:forged') }) },
  { type: 'auto_review', kind: 'idcard_authenticate', tag: 'auto-idcard', config: () => ({ apiKey: key }), match: () => ({ type: 'idcard', front_image: img('DOC:testy') }), mismatch: () => ({ type: 'IdCard', front_image: img('DOC:expired') }) },
  { type: 'liveness', kind: 'document_liveness', tag: 'doc-liveness', config: () => ({ documentApiKey: key }), match: () => ({ image: img('DOC:testy') }), mismatch: () => ({ image: img('SPOOF') }) },
  { type: 'identity_data', kind: 'person_verify', tag: 'id-person', config: () => ({ apiKey: key }), match: () => testy, mismatch: () => ({ ...testy, firstName: 'Nobody', lastName: 'Known' }) },
]; // prettier-ignore

describe('POST /verify end to end through the workers and the provider sandbox', function () {
  this.timeout(120_000);
  let platform: RunningPlatform;
  let sandbox: RunningSandbox;
  let workers: RunningWorker[];
  let admin: IdvClient;
  let caller: IdvClient;
  let listener: Broker;
  const events: EventEnvelope[] = [];
  const eventsQueue = `test.e2e.events.${randomBytes(4).toString('hex')}`;

  const prefix = `test.e2e.${randomBytes(4).toString('hex')}`;

  before(async () => {
    sandbox = await startSandbox(0);
    platform = await startPlatform({
      CONNECTOR_QUEUE_PREFIX: prefix,
      VERIFY_DEADLINE_MS: '8000',
    });
    const workerEnv = {
      AMQP_URL: platform.env.AMQP_URL!,
      MASTER_KEY: platform.env.MASTER_KEY!,
      LOG_LEVEL: 'silent',
      CONNECTOR_QUEUE_PREFIX: prefix,
    };
    workers = await Promise.all(
      CONNECTOR_TYPES.map((type) => startConnectorWorker({ ...workerEnv, CONNECTOR_TYPE: type })),
    );
    await Promise.all(workers.map((w) => w.broker.waitUntilConnected(15_000)));

    listener = createBroker({
      url: platform.env.AMQP_URL!,
      logger: createLogger({ service: 'test', level: 'silent' }),
    });
    await listener.subscribeEvents(eventsQueue, ['E_IDV_DOCUMENT_VALIDATE'], (event) => {
      if (event.communityId === platform.community.id) events.push(event);
    });

    const base = platform.services.docverify.url;
    admin = new IdvClient({ baseUrl: base, licenseKey: platform.licences.service });
    caller = new IdvClient({ baseUrl: base, licenseKey: platform.licences.community });
    const c = platform.community.id;
    for (const t of CASES) {
      const tag = t.tag ?? t.type;
      const res = await admin.request('PUT', `/verifier/community/${c}`, {
        name: tag,
        tag,
        type: t.type,
        connectorUrl: sandbox.url,
        config: t.config(sandbox.url),
      });
      expect(res.status, t.type).to.equal(200);
      const cfg = await admin.request('PUT', `/verificationConfig/community/${c}`, {
        tenantId: platform.community.tenantId,
        tag: `cfg-${tag}`,
        [t.kind]: [{ verifier: tag }],
      });
      expect(cfg.status, t.type).to.equal(200);
    }
  });
  after(async () => {
    await listener?.close();
    await Promise.all((workers ?? []).map((w) => w.stop()));
    await platform?.stop();
    await sandbox?.close();
    await deleteQueues(platform.env.AMQP_URL!, [
      eventsQueue,
      ...CONNECTOR_TYPES.map((t) => `${prefix}.${t}`),
    ]);
  });

  const verify = async (dvcID: string, kind: string, document: Record<string, unknown>) => {
    const res = await caller.encryptedRequest<{
      status: string;
      certifications: { kind: string; verified: boolean; authority: string; proof: string }[];
    }>('POST', '/verify', {
      dvcID,
      verifications: [kind],
      document: { id: 'doc-1', type: 'dl', ...document },
    });
    return res;
  };

  for (const t of CASES) {
    it(`${t.type} ${t.kind}: verified for the match, not verified for the mismatch`, async () => {
      const good = await verify(`cfg-${t.tag ?? t.type}`, t.kind, await t.match());
      expect(good.status, JSON.stringify(good.body)).to.equal(200);
      expect(good.body.status).to.equal('verified');
      expect(good.body.certifications[0]).to.include({ kind: t.kind, verified: true });
      const proof = good.body.certifications[0]!.proof;
      expect(await proofVerifies(platform.services.docverify.url, proof)).to.equal(true);
      const [header, payload] = proof.split('.');
      const forged = `${header}.${Buffer.from('{"verified":true}').toString('base64url')}.${proof.split('.')[2]}`;
      expect(await proofVerifies(platform.services.docverify.url, forged)).to.equal(false);
      expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).to.include({
        kind: t.kind,
        verified: true,
      });
      const bad = await verify(`cfg-${t.tag ?? t.type}`, t.kind, await t.mismatch());
      expect(bad.status, JSON.stringify(bad.body)).to.equal(200);
      expect(bad.body.status).to.equal('not_verified');
    });
  }

  it('fails over from a verifier whose provider is down to the next one', async () => {
    const c = platform.community.id;
    await admin.request('PUT', `/verifier/community/${c}`, {
      name: 'down',
      tag: 'faces-down',
      type: 'face_compare_b',
      connectorUrl: `${sandbox.url}/fault/status=503`,
      config: { apiKey: key },
    });
    const cfg = await admin.request('PUT', `/verificationConfig/community/${c}`, {
      tenantId: platform.community.tenantId,
      tag: 'failover',
      face_compare: [{ verifier: 'faces-down' }, { verifier: 'face_cloud' }],
    });
    expect(cfg.status).to.equal(200);
    const res = await verify('failover', 'face_compare', faces('testy', 'testy'));
    expect(res.status).to.equal(200);
    expect(res.body.certifications[0]).to.include({ verified: true, authority: 'face_cloud' });
    const metrics = await (await fetch(`${platform.services.docverify.url}/metrics`)).text();
    expect(metrics).to.match(/docverify_failovers_total\{[^}]*kind="face_compare"[^}]*\} [1-9]/);
  });

  it('publishes E_IDV_DOCUMENT_VALIDATE without personal data after dl_authenticate', async () => {
    const deadline = Date.now() + 10_000;
    while (events.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const event = events[0];
    expect(event?.data).to.include({ docType: 'dl' });
    expect(JSON.stringify(events)).not.to.match(/McTestface|000-00-0000|19700101/i);
  });
});
