// After a realistic run (verifiers with secret config, a verification of a fake person through a
// worker and the provider sandbox, webhooks with basic and api_key credentials delivered by the
// dispatcher, an oauth client and a token), no licence key, client secret, webhook credential or
// signing secret, verifier secret, SSN, name or dob appears in plain text in any table of any
// schema or in any log line the services wrote (at trace level).
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { startConnectorWorker } from '../../services/connector-worker/src/start.ts';
import { createOauthClient } from '../../services/oauth/src/admin.ts';
import { startSandbox, type RunningSandbox } from '../../services/provider-sandbox/src/start.ts';
import { startWebhookDispatcher } from '../../services/webhook-dispatcher/src/start.ts';
import { startSink, type Sink } from '@idv/testing/webhookSink';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { configBody, TESTY, verifierBody, verifyRequest, webhookBody } from './support/fixtures.ts';
import { captureServiceLogs, type LogCapture } from '@idv/testing/logCapture';
import { startSecurityWorld, type SecurityWorld } from './support/world.ts';
import { platformKeyring } from '@idv/testing/platform';

const hex = () => randomBytes(6).toString('hex');

describe('security: no secret or personal data in plain text at rest or in the logs', function () {
  this.timeout(90_000);
  let capture: LogCapture;
  let world: SecurityWorld;
  let sandbox: RunningSandbox;
  let sink: Sink;
  const stops: (() => Promise<void>)[] = [];
  const prefix = `test.security.${hex()}`;
  const eventsQueue = `test.security.events.${hex()}`;
  const secrets: Record<string, string> = {
    ssn: TESTY.ssn,
    lastName: TESTY.lastName,
    dob: TESTY.dob,
    verifierSecret: `sandbox-verifier-secret-${hex()}`,
    idleVerifierSecret: `verifier-secret-${hex()}`,
    basicPassword: `basic-password-${hex()}`,
    apiKeyValue: `api-key-value-${hex()}`,
  };

  /** bearer tokens: checked apart (see the skipped test below) */
  const tokens: Record<string, string> = {};
  const tokenFindings: string[] = [];

  const call = async (
    service: 'docverify' | 'webhooks',
    method: string,
    path: string,
    body: unknown,
  ) => {
    const res = await fetch(world.platform.services[service].url + path, {
      method,
      headers: { ...(await world.headers(service, 'system')), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(answer)).to.be.within(200, 299);
    return answer;
  };

  before(async () => {
    capture = captureServiceLogs();
    sandbox = await startSandbox(0);
    sink = await startSink();
    world = await startSecurityWorld({ LOG_LEVEL: 'trace', CONNECTOR_QUEUE_PREFIX: prefix });
    const env = world.platform.env;
    const worker = await startConnectorWorker({
      AMQP_URL: env.AMQP_URL!,
      MASTER_KEY: env.MASTER_KEY!,
      LOG_LEVEL: 'trace',
      CONNECTOR_QUEUE_PREFIX: prefix,
      CONNECTOR_TYPE: 'identity_data',
    });
    stops.push(() => worker.stop());
    await worker.broker.waitUntilConnected(15_000);
    const dispatcher = await startWebhookDispatcher({
      ...env,
      WEBHOOK_DISPATCHER_PORT: '0',
      WEBHOOK_EVENTS_QUEUE: eventsQueue,
      WEBHOOK_SSRF_ALLOW: '127.0.0.1/32',
      WEBHOOK_POLL_MS: '100',
    });
    stops.push(() => dispatcher.stop());
    await dispatcher.runtime.broker.waitUntilConnected(15_000);
  });
  after(async () => {
    capture?.restore();
    for (const stop of stops) await stop().catch(() => undefined);
    await world?.stop();
    await sandbox?.close();
    await sink?.close();
    await deleteQueues(world.platform.env.AMQP_URL!, [eventsQueue, `${prefix}.identity_data`]);
  });

  it('runs the flow, then finds none of the values in any table or log line', async () => {
    const c = world.platform.community;
    const verifier = { ...verifierBody(secrets.verifierSecret), connectorUrl: sandbox.url };
    await call('docverify', 'PUT', `/verifier/community/${c.id}`, verifier);
    const idle = verifierBody(secrets.idleVerifierSecret);
    await call('docverify', 'PUT', `/verifier/community/${c.id}`, idle);
    await call('docverify', 'PATCH', `/verifier/community/${c.id}/${idle.tag}`, {
      config: { apiKey: secrets.idleVerifierSecret },
    });
    const config = configBody(c, verifier.tag);
    await call('docverify', 'PUT', `/verificationConfig/community/${c.id}`, config);

    const scope = `/tenant/${c.tenantId}/community/${c.id}`;
    const basic = await call('webhooks', 'PUT', `${scope}/webhook`, {
      ...webhookBody({ username: 'testy', password: secrets.basicPassword }, 'basic'),
      api: {
        type: 'POST',
        url: `${sink.url}/basic`,
        authType: 'basic',
        credential: { username: 'testy', password: secrets.basicPassword },
      },
    });
    const apiKey = await call('webhooks', 'PUT', `${scope}/webhook`, {
      ...webhookBody(),
      api: {
        type: 'POST',
        url: `${sink.url}/key`,
        authType: 'api_key',
        credential: { keyName: 'x-api-key', keyValue: secrets.apiKeyValue },
      },
    });
    const rotated = await call('webhooks', 'PATCH', `${scope}/webhook/${String(basic._id)}`, {
      rotateSecret: true,
    });
    secrets.signingSecret = String(basic.secret);
    secrets.otherSigningSecret = String(apiKey.secret);
    secrets.rotatedSigningSecret = String(rotated.secret);

    const sealed = await world.encrypted(
      'docverify',
      world.licences.community,
      verifyRequest(config.tag),
    );
    const res = await fetch(`${world.platform.services.docverify.url}/verify`, {
      method: 'POST',
      headers: { ...sealed.headers, 'content-type': 'application/json' },
      body: sealed.body,
    });
    expect(res.status, await res.clone().text()).to.equal(200);
    // the verification's event reaches both webhooks, each callback carrying its credential
    const received = await sink.waitFor(2, undefined, 20_000);
    expect(received.map((r) => r.path).sort()).to.deep.equal(['/basic', '/key']);
    expect(received.find((r) => r.path === '/key')?.headers['x-api-key']).to.equal(
      secrets.apiKeyValue,
    );

    const client = await createOauthClient(
      { db: world.platform.database.db, keyring: platformKeyring(world.platform) },
      { community: c.name, redirectUris: [], grantTypes: ['client_credentials'] },
    );
    secrets.clientSecret = client.client_secret;
    const token = await fetch(`${world.platform.services.oauth.url}/community/${c.name}/v1/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).to.equal(200);
    tokens.accessToken = String(((await token.json()) as { access_token: string }).access_token);
    for (const [name, key] of Object.entries(world.licences)) secrets[`licence ${name}`] = key;
    secrets.masterKey = world.platform.env.MASTER_KEY!;
    await new Promise((r) => setTimeout(r, 300)); // let the last log lines flush

    const db = world.platform.database.db;
    const tables = await db('pg_tables')
      .select('schemaname', 'tablename')
      .whereNotIn('schemaname', ['pg_catalog', 'information_schema']);
    expect(tables.length).to.be.greaterThan(5);
    const found: string[] = [];
    for (const { schemaname, tablename } of tables as { schemaname: string; tablename: string }[]) {
      const rows = await db.raw(`SELECT t::text AS row FROM "${schemaname}"."${tablename}" t`);
      for (const { row } of rows.rows as { row: string }[])
        for (const [name, value] of [...Object.entries(secrets), ...Object.entries(tokens)])
          if (row.toLowerCase().includes(value.toLowerCase()))
            (tokens[name] ? tokenFindings : found).push(`${schemaname}.${tablename}: ${name}`);
    }
    expect(capture.lines.length).to.be.greaterThan(20);
    for (const line of capture.lines)
      for (const [name, value] of [...Object.entries(secrets), ...Object.entries(tokens)])
        if (line.toLowerCase().includes(value.toLowerCase()))
          found.push(`log: ${name} in ${line.slice(0, 300)}`);
    expect([...new Set(found)]).to.deep.equal([]);
  });

  // was a bug: opaque tokens were stored as their own ids; now keyed by their SHA-256 without jti
  it('no bearer token in plain text at rest (run after the flow above)', () => {
    expect(tokens.accessToken).to.be.a('string');
    expect(tokenFindings).to.deep.equal([]);
  });
});
