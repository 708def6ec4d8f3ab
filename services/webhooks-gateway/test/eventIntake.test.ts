// The event intake through the real gateway: any catalog name published marked origin "intake",
// the platform's own names refused only where the operator says so, undeclared members left out
// and named, and hostile data (deep nesting) answered 400 rather than 500.
import amqp from 'amqplib';
import { expect } from 'chai';
import { EVENT_CATALOG, type EventEnvelope } from '@idv/contracts';
import { encrypt } from '@idv/crypto';
import { testAmqpUrl } from '@idv/testing/testServers';
import { credentialHeaders, newCaller, seal, shared } from '@idv/testing/independentClient';
import { startWebhooksWorld, type WebhooksWorld } from '@idv/testing/webhooksWorld';
import { eventually } from '@idv/testing/eventually';

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
    next: (eventId: string): Promise<EventEnvelope> =>
      eventually(`event ${eventId} published`, () => seen.find((e) => e.eventId === eventId), {
        timeoutMs: 10_000,
        intervalMs: 25,
      }),
    close: () => connection.close(),
  };
}

describe('webhooks gateway: event intake', function () {
  this.timeout(60_000);
  let open: WebhooksWorld;
  let refusing: WebhooksWorld;
  const path = (world: WebhooksWorld, eventName: string) =>
    `/tenant/${world.community.tenantId}/community/${world.community.id}/event/${eventName}`;

  before(async () => {
    // the default: no WEBHOOK_INTAKE_* setting at all
    open = await startWebhooksWorld({ WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS: '' });
    refusing = await startWebhooksWorld({
      WEBHOOK_INTAKE_REFUSE_PLATFORM_EVENTS: 'true',
      WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS: 'E_IDV_DOCUMENT_VALIDATE, E_OAUTH_LOGIN_FAILED',
    });
  });
  after(async () => {
    await open?.stop();
    await refusing?.stop();
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

  /** Data the catalog accepts for `eventName`: its required members, each of its type. */
  const minimal = (eventName: string): Record<string, unknown> => {
    const schema = EVENT_CATALOG[eventName as keyof typeof EVENT_CATALOG] as unknown as {
      required?: string[];
      properties: Record<
        string,
        { type?: string; const?: string; anyOf?: { const?: string; type?: string }[] }
      >;
    };
    const valueOf = (member: {
      type?: string;
      const?: string;
      anyOf?: { const?: string; type?: string }[];
    }) => {
      if (member.const !== undefined) return member.const;
      const type = member.type ?? member.anyOf?.[0]?.type;
      if (member.anyOf?.[0]?.const !== undefined) return member.anyOf[0].const;
      if (type === 'array') return [];
      if (type === 'integer' || type === 'number') return 1;
      if (type === 'boolean') return true;
      if (type === 'null') return null;
      return '2026-11-26T00:00:00.000Z';
    };
    return Object.fromEntries(
      (schema.required ?? []).map((name) => [name, valueOf(schema.properties[name]!)]),
    );
  };

  it('accepts every catalog name, the platform\'s own included, from a service licence, marked origin "intake"', async () => {
    const events = await listen(open.community.id);
    try {
      for (const eventName of Object.keys(EVENT_CATALOG)) {
        const client = open.client('service');
        // as the vendor's logEvent sends it: {data: encrypt(data)}
        const res = await client.encryptedRequest<{ eventId: string }>(
          'PUT',
          path(open, eventName),
          minimal(eventName),
        );
        expect(res.status, `${eventName}: ${JSON.stringify(res.body)}`).to.equal(202);
        const published = await events.next(res.body.eventId);
        expect(published, eventName).to.include({ origin: 'intake', eventName });
      }
    } finally {
      await events.close();
    }
  });

  for (const eventName of Object.keys(EVENT_CATALOG).filter(
    (name) => !['E_IDV_DOCUMENT_VALIDATE', 'E_OAUTH_LOGIN_FAILED'].includes(name),
  ))
    it(`refuses ${eventName} with 403 saying why where the operator refuses the platform's names`, async () => {
      const res = await refusing.client('service').request('PUT', path(refusing, eventName), VALID);
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ statusCode: 403, error: 'Forbidden' });
      expect((res.body as { message: string }).message).to.match(
        /emitted by the platform itself.*WEBHOOK_INTAKE_REFUSE_PLATFORM_EVENTS/,
      );
    });

  it('still accepts, where the operator refuses, the names it lists as allowed', async () => {
    const res = await refusing
      .client('service')
      .request('PUT', path(refusing, 'E_IDV_DOCUMENT_VALIDATE'), VALID);
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
  });

  it("takes the vendor helper's logEvent as it sends it: PUT, {data: encrypt(data)}, charset header, a service licence", async () => {
    // node:crypto only (@idv/testing/independentClient), not our SDK: what the helper sends
    const { publicKey } = (await (await fetch(new URL('/publickeys', open.url))).json()) as {
      publicKey: string;
    };
    const caller = newCaller();
    const headers = credentialHeaders({
      licenseKey: open.licences.service,
      servicePublicKey: publicKey,
      caller,
    });
    // the helper's own login event: its ids beside the members the catalog declares
    const data = {
      sub: 'acct-testy',
      clientId: 'cl_testy',
      method: 'proof',
      service_name: 'NodeJS Helper',
      event_id: 'e-1',
    };
    const res = await fetch(new URL(path(open, 'E_OAUTH_LOGIN_SUCCEEDED'), open.url), {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ data: seal(shared(caller, publicKey), JSON.stringify(data)) }),
    });
    const answer = (await res.json()) as { eventId: string; ignored: string[] };
    expect(res.status, JSON.stringify(answer)).to.equal(202);
    expect(answer.ignored).to.deep.equal(['service_name', 'event_id']);
  });

  it('leaves out members the catalog does not declare and names them, so no free-form PII rides along', async () => {
    const events = await listen(open.community.id);
    try {
      const res = await open
        .client('service')
        .request<{ eventId: string; ignored: string[] }>(
          'PUT',
          path(open, 'E_OAUTH_LOGIN_FAILED'),
          {
            reason: 'invalid_credentials',
            username: 'testy.mctestface',
            email: 'testy@example.test',
          },
        );
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body.ignored).to.deep.equal(['username', 'email']);
      const published = await events.next(res.body.eventId);
      expect(published.data).to.deep.equal({ reason: 'invalid_credentials' });
    } finally {
      await events.close();
    }
    const wrongType = await open
      .client('service')
      .request('PUT', path(open, 'E_IDV_DOCUMENT_VALIDATE'), { ...VALID, status: 7 });
    expect(wrongType.status).to.equal(400);
    expect(JSON.stringify(wrongType.body)).to.contain('/data/status');
  });

  it('answers 400 naming /data to {data} that does not decrypt or is not JSON inside', async () => {
    const key = await open.client('service').sharedKey();
    for (const data of ['bm90IGVuY3J5cHRlZA==', encrypt(key, 'not json {')]) {
      const res = await putRaw(open, 'E_IDV_DOCUMENT_VALIDATE', JSON.stringify({ data }));
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.include({ statusCode: 400, error: 'Bad Request' });
      const [detail] = res.body.details as { path: string; message: string }[];
      expect(detail?.path).to.equal('/data');
      expect(detail?.message).to.be.a('string').that.is.not.empty;
    }
  });

  const deep: [string, string][] = [
    [
      'an undeclared member',
      `{"dvcID":"k","docType":"passport","status":"verified","x":${deepObject(20_000)}}`,
    ],
    [
      'a declared member',
      `{"dvcID":"k","docType":"passport","status":"verified","verifications":${deepArray(20_000)}}`,
    ],
    ['the whole body', deepArray(50_000)],
  ];
  for (const [where, text] of deep) {
    it(`answers 400 with the error body to deep nesting in ${where}, plain or encrypted`, async () => {
      const plain = await putRaw(open, 'E_IDV_DOCUMENT_VALIDATE', text);
      expect(plain.status, JSON.stringify(plain.body)).to.equal(400);
      expect(plain.body).to.include({ statusCode: 400, error: 'Bad Request' });
      const key = await open.client('service').sharedKey();
      const sealed = JSON.stringify({ data: encrypt(key, text) });
      const opened = await putRaw(open, 'E_IDV_DOCUMENT_VALIDATE', sealed);
      expect(opened.status, JSON.stringify(opened.body)).to.equal(400);
      expect(opened.body).to.include({ statusCode: 400, error: 'Bad Request' });
    });
  }
});
