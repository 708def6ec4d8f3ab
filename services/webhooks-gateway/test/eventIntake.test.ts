// The event intake through the real gateway: what it publishes (marked origin "intake"), the
// platform's own event names refused unless the operator allows them, data held strictly to the
// catalog, and hostile data (deep nesting) answered 400 rather than 500.
import amqp from 'amqplib';
import { expect } from 'chai';
import { EVENT_CATALOG, type EventEnvelope } from '@idv/contracts';
import { encrypt } from '@idv/crypto';
import { testAmqpUrl } from '@idv/db/testing';
import { startWebhooksWorld, type WebhooksWorld } from './support.ts';

const VALID = { dvcID: 'kyc-basic', docType: 'passport', status: 'verified' };
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Listens to every event on the `events` exchange for one community. */
async function listen(communityId: string) {
  const connection = await amqp.connect(await testAmqpUrl());
  const channel = await connection.createChannel();
  await channel.assertExchange('events', 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, 'events', '#');
  const seen: EventEnvelope[] = [];
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      const event = JSON.parse(message.content.toString('utf8')) as EventEnvelope;
      if (event.communityId === communityId) seen.push(event);
    },
    { noAck: true },
  );
  return {
    async next(eventId: string): Promise<EventEnvelope> {
      const until = Date.now() + 10_000;
      for (;;) {
        const found = seen.find((e) => e.eventId === eventId);
        if (found) return found;
        if (Date.now() > until) throw new Error(`event ${eventId} was not published`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => connection.close(),
  };
}

describe('webhooks gateway: event intake', function () {
  this.timeout(60_000);
  let strict: WebhooksWorld;
  let allowing: WebhooksWorld;
  const path = (world: WebhooksWorld, eventName: string) =>
    `/tenant/${world.community.tenantId}/community/${world.community.id}/event/${eventName}`;

  before(async () => {
    strict = await startWebhooksWorld({ WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS: '' });
    allowing = await startWebhooksWorld({
      WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS: 'E_IDV_DOCUMENT_VALIDATE, E_OAUTH_LOGIN_FAILED',
    });
  });
  after(async () => {
    await strict?.stop();
    await allowing?.stop();
  });

  /** A PUT with the credential headers and the body as raw text (JSON.stringify cannot nest so deep). */
  const putRaw = async (world: WebhooksWorld, eventName: string, text: string) => {
    const client = world.client('service');
    const res = await fetch(new URL(path(world, eventName), world.url), {
      method: 'PUT',
      headers: { ...(await client.headers()), 'content-type': 'application/json' },
      body: text,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  for (const eventName of Object.keys(EVENT_CATALOG))
    it(`refuses ${eventName}, an event the platform emits, with 403 saying why`, async () => {
      const res = await strict.client('service').request('PUT', path(strict, eventName), VALID);
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ statusCode: 403, error: 'Forbidden' });
      expect((res.body as { message: string }).message).to.match(
        /emitted by the platform itself.*WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS/,
      );
    });

  it('accepts a platform event the operator allows, and only that one, marked origin "intake"', async () => {
    const events = await listen(allowing.community.id);
    try {
      const res = await allowing
        .client('service')
        .request<{ eventId: string }>('PUT', path(allowing, 'E_IDV_DOCUMENT_VALIDATE'), VALID);
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const published = await events.next(res.body.eventId);
      expect(published).to.include({ origin: 'intake', eventName: 'E_IDV_DOCUMENT_VALIDATE' });
      expect(published.data).to.deep.equal(VALID);
    } finally {
      await events.close();
    }
    const other = await allowing
      .client('service')
      .request('PUT', path(allowing, 'E_IDV_VERIFIER_CHANGED'), {
        verifierId: 'v-1',
        tag: 'kyc',
        type: 'basic_ocr',
        change: 'created',
      });
    expect(other.status).to.equal(403);
  });

  it('refuses members the catalog does not declare (400 naming each), so no free-form PII rides along', async () => {
    const res = await allowing
      .client('service')
      .request<{ details: { path: string; message: string }[] }>(
        'PUT',
        path(allowing, 'E_OAUTH_LOGIN_FAILED'),
        {
          reason: 'invalid_credentials',
          username: 'testy.mctestface',
          email: 'testy@example.test',
        },
      );
    expect(res.status).to.equal(400);
    expect(res.body.details.map((d) => d.message).join(' ')).to.contain('username');
    expect(res.body.details.map((d) => d.message).join(' ')).to.contain('email');
  });

  it('answers 400 naming /data to {data} that does not decrypt or is not JSON inside', async () => {
    const key = await allowing.client('service').sharedKey();
    for (const data of ['bm90IGVuY3J5cHRlZA==', encrypt(key, 'not json {')]) {
      const res = await putRaw(allowing, 'E_IDV_DOCUMENT_VALIDATE', JSON.stringify({ data }));
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.include({ statusCode: 400, error: 'Bad Request' });
      const [detail] = res.body.details as { path: string; message: string }[];
      expect(detail?.path).to.equal('/data');
      expect(detail?.message).to.be.a('string').that.is.not.empty;
    }
  });

  const deep: [string, string][] = [
    ['an undeclared member', `{"dvcID":"k","docType":"passport","status":"verified","x":${deepObject(20_000)}}`],
    ['a declared member', `{"dvcID":"k","docType":"passport","status":"verified","verifications":${deepArray(20_000)}}`],
    ['the whole body', deepArray(50_000)],
  ]; // prettier-ignore
  for (const [where, text] of deep) {
    it(`answers 400 with the error body to deep nesting in ${where}, plain or encrypted`, async () => {
      const plain = await putRaw(allowing, 'E_IDV_DOCUMENT_VALIDATE', text);
      expect(plain.status, JSON.stringify(plain.body)).to.equal(400);
      expect(plain.body).to.include({ statusCode: 400, error: 'Bad Request' });
      const key = await allowing.client('service').sharedKey();
      const sealed = JSON.stringify({ data: encrypt(key, text) });
      const opened = await putRaw(allowing, 'E_IDV_DOCUMENT_VALIDATE', sealed);
      expect(opened.status, JSON.stringify(opened.body)).to.equal(400);
      expect(opened.body).to.include({ statusCode: 400, error: 'Bad Request' });
    });
  }
});
