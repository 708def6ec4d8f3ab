// Events in, signed callbacks out: signatures checked by independent receivers, retries and the
// delivery log, redelivery, query filters, disabled webhooks, auth schemes and SSRF refusal.
import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { expect } from 'chai';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { verifyCallback } from '@idv/crypto';
import { testAmqpUrl } from '@idv/testing/testServers';
import { eventually } from '@idv/testing/eventually';
import { webhookBody } from '@idv/testing/webhooksWorld';
import { startWebhookDispatcher, type StartedDispatcher } from '../src/start.ts';
import { startSink, type Sink } from '@idv/testing/webhookSink';
import {
  deleteQueue,
  dispatcherEnv,
  startWebhooksWorld,
  type WebhooksWorld,
} from '@idv/testing/dispatcherWorld';

interface Hook {
  _id: string;
  secret: string;
}
interface DeliveryView {
  _id: string;
  status: string;
  attempts: { statusCode: number | null; outcome: string }[];
}

/**
 * Room for a wrong delivery to show after the right ones settled. A fixed wait is the only proof: the
 * dispatcher attempts an event's deliveries, and events in its prefetch, side by side, so no marker
 * event published later is surely recorded after a wrong delivery of an earlier one.
 */
const NO_WRONG_DELIVERY_MS = 500;

describe('webhook dispatcher: delivery', function () {
  this.timeout(60_000);
  let world: WebhooksWorld;
  let dispatcher: StartedDispatcher;
  let sink: Sink;
  let queue: string;
  const base = () => `/tenant/${world.community.tenantId}/community/${world.community.id}`;
  const create = async (path: string, extra: Record<string, unknown> = {}) => {
    const res = await world
      .client('service')
      .request<Hook>('PUT', `${base()}/webhook`, webhookBody(`${sink.url}${path}`, extra));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  const publish = async (data: Record<string, unknown>, encrypted = false) => {
    const client = world.client('service');
    const path = `${base()}/event/E_IDV_DOCUMENT_VALIDATE`;
    const res = encrypted
      ? await client.encryptedRequest('PUT', path, data)
      : await client.request('PUT', path, data);
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
  };
  /** An envelope as a platform service publishes it (no origin). */
  const platformEvent = (data: Record<string, unknown>) => ({
    eventId: randomUUID(),
    eventName: 'E_IDV_DOCUMENT_VALIDATE',
    version: 1,
    tenantId: world.community.tenantId,
    communityId: world.community.id,
    ts: Date.now(),
    data,
  });
  /** Publishes `envelope` on the events exchange as a platform service does, then `after`. */
  const publishAsPlatform = async (
    envelope: ReturnType<typeof platformEvent>,
    after: () => Promise<unknown>,
  ) => {
    const connection = await amqp.connect(await testAmqpUrl());
    try {
      const channel = await connection.createConfirmChannel();
      channel.publish('events', envelope.eventName, Buffer.from(JSON.stringify(envelope)), {
        persistent: true,
        contentType: 'application/json',
        messageId: envelope.eventId,
      });
      await channel.waitForConfirms();
      await after();
    } finally {
      await connection.close();
    }
  };
  const deliveries = async (hook: Hook) =>
    (
      await world
        .client('service')
        .request<{ data: DeliveryView[] }>('GET', `${base()}/webhook/${hook._id}/deliveries`)
    ).body.data;
  /** The hook's deliveries once there are `count`, each succeeded or failed; `more` may ask more. */
  const settled = (
    hook: Hook,
    count: number,
    more: (list: DeliveryView[]) => boolean = () => true,
  ) =>
    eventually(
      `${count} deliveries of ${hook._id} settled`,
      async () => {
        const list = await deliveries(hook);
        const done =
          list.length >= count &&
          list.every((d) => d.status === 'succeeded' || d.status === 'failed');
        return done && more(list) ? list : undefined;
      },
      15_000,
    );
  const event = { dvcID: 'kyc-basic', docType: 'drivers_license', status: 'verified' };

  before(async () => {
    world = await startWebhooksWorld();
    sink = await startSink();
    const env = dispatcherEnv(world);
    queue = env.WEBHOOK_EVENTS_QUEUE;
    dispatcher = await startWebhookDispatcher(env);
    await dispatcher.runtime.broker.waitUntilConnected(15_000);
  });
  after(async () => {
    await dispatcher?.stop();
    await sink?.close();
    await world?.stop();
    if (queue) await deleteQueue(queue);
  });

  it('signs every callback: standardwebhooks verifies v1, the service key verifies v1k, tampering fails both', async () => {
    const hook = await create('/signed');
    await publish(event, true);
    const [got] = await sink.waitFor(1, '/signed');
    expect(got, 'callback received').to.exist;
    const headers = got!.headers as Record<string, string>;
    const payload = new StandardWebhook(hook.secret).verify(got!.body, headers) as Record<
      string,
      unknown
    >;
    expect(payload).to.include({
      webhookId: hook._id,
      eventName: 'E_IDV_DOCUMENT_VALIDATE',
      communityId: world.community.id,
      origin: 'intake',
    });
    expect(payload.data).to.deep.equal(event);
    const { publicKey } = (await (await fetch(`${world.url}/publickeys`)).json()) as {
      publicKey: string;
    };
    expect(verifyCallback({ headers, body: got!.body, servicePublicKey: publicKey })).to.deep.equal(
      { ok: true },
    );
    // the origin header is signed (v1o): a receiver with the secret can trust it, not a forged one
    expect(headers['webhook-origin']).to.equal('intake');
    expect(verifyCallback({ headers, body: got!.body, secret: hook.secret })).to.deep.equal({
      ok: true,
      origin: 'intake',
    });
    const forged = { ...headers, 'webhook-origin': 'platform' };
    expect(verifyCallback({ headers: forged, body: got!.body, secret: hook.secret })).to.deep.equal(
      { ok: true },
    );
    const tampered = got!.body.replace('verified', 'rejected');
    expect(() => new StandardWebhook(hook.secret).verify(tampered, headers)).to.throw();
    expect(verifyCallback({ headers, body: tampered, servicePublicKey: publicKey }).ok).to.equal(
      false,
    );
  });

  it('retries on a retry code: 503, 503, 200 with retryCount 2 is three attempts and one success', async () => {
    sink.script('/flaky', [503, 503, 200]);
    const hook = await create('/flaky', { retryCodes: [503], retryCount: 2 });
    await publish(event);
    const [delivery] = await settled(hook, 1);
    expect(delivery!.status).to.equal('succeeded');
    expect(delivery!.attempts.map((a) => [a.statusCode, a.outcome])).to.deep.equal([
      [503, 'retry'],
      [503, 'retry'],
      [200, 'succeeded'],
    ]);
    const ids = sink.received
      .filter((r) => r.path === '/flaky')
      .map((r) => r.headers['webhook-id']);
    expect(ids).to.have.length(3);
    expect(new Set(ids).size, 'the same webhook-id on every retry').to.equal(1);
  });

  it('fails after retryCount 1 and a manual redelivery succeeds with the same webhook-id', async () => {
    sink.script('/tired', [503, 503, 200]);
    const hook = await create('/tired', { retryCodes: [503], retryCount: 1 });
    await publish(event);
    const [failed] = await settled(hook, 1);
    expect(failed!.status).to.equal('failed');
    expect(failed!.attempts).to.have.length(2);
    const redo = await world
      .client('service')
      .request('POST', `${base()}/webhook/${hook._id}/delivery/${failed!._id}/redeliver`);
    expect(redo.status).to.equal(202);
    // audited, with the licence that asked (an admin operator's token is audited by username)
    const audit = (await world.database
      .db('platform.audit_log')
      .where({ action: 'webhook.delivery.redelivered', subject_id: failed!._id })) as {
      actor: string;
      details: { webhookId: string };
    }[];
    expect(audit).to.have.length(1);
    expect(audit[0]!.actor).to.match(/^licence:/);
    expect(audit[0]!.details).to.deep.equal({ webhookId: hook._id });
    // settled again: the redelivery's attempt recorded beside the two before
    const [done] = await settled(hook, 1, ([d]) => d!.attempts.length === 3);
    expect(done!.status).to.equal('succeeded');
    expect(done!.attempts.map((a) => a.statusCode)).to.deep.equal([503, 503, 200]);
    const ids = new Set(
      sink.received.filter((r) => r.path === '/tired').map((r) => r.headers['webhook-id']),
    );
    expect([...ids]).to.deep.equal([failed!._id]);
  });

  it('does not retry a status outside retryCodes', async () => {
    sink.script('/gone', [410]);
    const hook = await create('/gone', { retryCodes: [503], retryCount: 2 });
    await publish(event);
    const [delivery] = await settled(hook, 1);
    expect(delivery!.status).to.equal('failed');
    expect(delivery!.attempts).to.have.length(1);
  });

  it('delivers exactly the events the ALL and ANY queries match; a disabled webhook gets nothing', async () => {
    const all = await create('/all', {
      query: [{ status: 'verified' }, { docType: ['passport', 'id_card'] }],
      criteria: 'ALL',
    });
    const any = await create('/any', {
      query: [{ status: 'rejected' }, { docType: 'passport' }],
      criteria: 'ANY',
    });
    const off = await create('/off', { disabled: true });
    const samples = [
      { dvcID: 'a', docType: 'passport', status: 'verified' }, // ALL yes, ANY yes
      { dvcID: 'b', docType: 'id_card', status: 'rejected' }, // ALL no, ANY yes
      { dvcID: 'c', docType: 'drivers_license', status: 'verified' }, // ALL no, ANY no
      { dvcID: 'd', docType: 'id_card', status: 'verified' }, // ALL yes, ANY no
    ];
    for (const sample of samples) await publish(sample);
    await settled(all, 2);
    await settled(any, 2);
    await new Promise((r) => setTimeout(r, NO_WRONG_DELIVERY_MS));
    const dvcIds = (path: string) =>
      sink.received
        .filter((r) => r.path === path)
        .map((r) => (JSON.parse(r.body) as { data: { dvcID: string } }).data.dvcID)
        .sort();
    expect(dvcIds('/all')).to.deep.equal(['a', 'd']);
    expect(dvcIds('/any')).to.deep.equal(['a', 'b']);
    expect(dvcIds('/off')).to.deep.equal([]);
    expect(await deliveries(off)).to.deep.equal([]);
  });

  it('authenticates with api_key, bearer and oauth2 client_credentials (token cached, refreshed on 401)', async () => {
    await create('/key', {
      api: {
        url: `${sink.url}/key`,
        authType: 'api_key',
        credential: { keyName: 'x-api-key', keyValue: 'k-123' },
      },
    });
    await create('/bearer', {
      api: { url: `${sink.url}/bearer`, authType: 'bearer', credential: { token: 't-456' } },
    });
    sink.script('/token', [
      { status: 200, body: JSON.stringify({ access_token: 'first', expires_in: 3600 }) },
      { status: 200, body: JSON.stringify({ access_token: 'second', expires_in: 3600 }) },
    ]);
    sink.script('/oauth', [200, 401, 200]);
    await create('/oauth', {
      api: {
        url: `${sink.url}/oauth`,
        authType: 'oauth2',
        oAuthGrantType: 'client_credentials',
        oAuthTokenUrl: `${sink.url}/token`,
        oAuthScopes: ['callbacks:write'],
        credential: { oauth2: { clientId: 'testy', clientSecret: 'not-a-real-secret' } },
      },
    });
    await publish(event);
    await publish(event);
    expect((await sink.waitFor(2, '/key'))[0]!.headers['x-api-key']).to.equal('k-123');
    expect((await sink.waitFor(2, '/bearer'))[0]!.headers.authorization).to.equal('Bearer t-456');
    const oauth = await sink.waitFor(3, '/oauth');
    expect(oauth.map((r) => r.headers.authorization)).to.deep.equal([
      'Bearer first',
      'Bearer first',
      'Bearer second',
    ]);
    const tokens = sink.received.filter((r) => r.path === '/token');
    expect(tokens).to.have.length(2);
    expect(tokens[0]!.body)
      .to.contain('grant_type=client_credentials')
      .and.contain('scope=callbacks%3Awrite');
  });

  it('gives a webhook asking for {"$.origin": "platform"} the platform\'s events only', async () => {
    const hook = await create('/platform-only', { query: [{ '$.origin': 'platform' }] });
    await publish({ ...event, docId: 'doc-from-intake' });
    await publishAsPlatform(
      platformEvent({ ...event, docId: 'doc-from-platform' }),
      async () => {},
    );
    await sink.waitFor(1, '/platform-only');
    await new Promise((r) => setTimeout(r, NO_WRONG_DELIVERY_MS));
    expect(await deliveries(hook)).to.have.length(1);
    const got = sink.received.filter((r) => r.path === '/platform-only');
    expect(
      got.map((r) => (JSON.parse(r.body) as { data: { docId: string } }).data.docId),
    ).to.deep.equal(['doc-from-platform']);
  });

  it('keeps one delivery, under one webhook-id, for an event published twice', async () => {
    const hook = await create('/twice');
    const envelope = platformEvent(event);
    await publishAsPlatform(envelope, () => sink.waitFor(1, '/twice'));
    await publishAsPlatform(envelope, () => sink.waitFor(2, '/twice'));
    const [delivery, ...more] = await settled(hook, 1);
    expect(more, 'one delivery per (event, webhook)').to.deep.equal([]);
    const [first] = sink.received.filter((r) => r.path === '/twice');
    expect(JSON.parse(first!.body), 'published over AMQP: the platform').to.include({
      origin: 'platform',
    });
    expect(first!.headers['webhook-origin']).to.equal('platform');
    const ids = sink.received
      .filter((r) => r.path === '/twice')
      .map((r) => r.headers['webhook-id']);
    expect(new Set(ids)).to.deep.equal(new Set([delivery!._id]));
  });

  it('refuses targets on private addresses outside the allow-list, with a clear error', async () => {
    const hook = await create('/ssrf', { api: { url: 'http://10.0.0.1/hook', authType: 'none' } });
    await publish(event);
    const [blocked] = await settled(hook, 1);
    expect(blocked!.status).to.equal('failed');
    const log = await world
      .client('service')
      .request<DeliveryView & { attempts: { error: string }[] }>(
        'GET',
        `${base()}/webhook/${hook._id}/delivery/${blocked!._id}`,
      );
    expect(log.body.attempts[0]!.error).to.match(/SSRF/);
  });
});
