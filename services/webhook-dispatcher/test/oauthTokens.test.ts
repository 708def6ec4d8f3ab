// OAuth 2.0 tokens for targets stay with the webhook that obtained them: another tenant's webhook
// naming the same token URL and client id (client ids are not secret) never receives them, and a
// changed client secret is used at once instead of a token cached under the old one.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Community } from '@idv/platform';
import { webhookBody } from '@idv/testing/webhooksWorld';
import { startWebhookDispatcher, type StartedDispatcher } from '../src/start.ts';
import { startSink, type Sink } from '@idv/testing/webhookSink';
import { eventually } from '@idv/testing/eventually';
import { startTokenServer, type TokenServer } from './tokenServer.ts';
import {
  deleteQueue,
  dispatcherEnv,
  startWebhooksWorld,
  type WebhooksWorld,
} from '@idv/testing/dispatcherWorld';

interface DeliveryView {
  status: string;
  attempts: { statusCode: number | null; error: string | null }[];
}

describe('webhook dispatcher: OAuth tokens per webhook', function () {
  this.timeout(60_000);
  let world: WebhooksWorld;
  let dispatcher: StartedDispatcher;
  let sink: Sink;
  let tokens: TokenServer;
  let queue: string;

  before(async () => {
    world = await startWebhooksWorld();
    sink = await startSink();
    tokens = await startTokenServer();
    const env = dispatcherEnv(world);
    queue = env.WEBHOOK_EVENTS_QUEUE;
    dispatcher = await startWebhookDispatcher(env);
    await dispatcher.runtime.broker.waitUntilConnected(15_000);
  });
  after(async () => {
    await dispatcher?.stop();
    await tokens?.close();
    await sink?.close();
    await world?.stop();
    if (queue) await deleteQueue(queue);
  });

  const base = (community: Community) => `/tenant/${community.tenantId}/community/${community.id}`;
  const oauthApi = (path: string, clientId: string, clientSecret: string) => ({
    url: `${sink.url}${path}`,
    authType: 'oauth2',
    oAuthGrantType: 'client_credentials',
    oAuthTokenUrl: tokens.url,
    credential: { oauth2: { clientId, clientSecret } },
  });
  const create = async (
    licence: 'service' | 'serviceElsewhere',
    community: Community,
    api: Record<string, unknown>,
  ) => {
    const res = await world
      .client(licence)
      .request<{ _id: string }>('PUT', `${base(community)}/webhook`, webhookBody('', { api }));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body._id;
  };
  const publish = (community: Community) =>
    dispatcher.runtime.broker.publishEvent({
      eventId: randomUUID(),
      eventName: 'E_IDV_DOCUMENT_VALIDATE',
      version: 1,
      tenantId: community.tenantId,
      communityId: community.id,
      ts: Date.now(),
      data: { dvcID: 'kyc-basic', docType: 'passport', status: 'verified' },
    });
  const settled = async (
    licence: 'service' | 'serviceElsewhere',
    community: Community,
    webhookId: string,
  ) => {
    return eventually(
      `a settled delivery of ${webhookId}`,
      async () => {
        const res = await world.client(licence).request<{
          data: DeliveryView[];
        }>('GET', `${base(community)}/webhook/${webhookId}/deliveries`);
        const done = res.body.data.filter((d) => d.status === 'succeeded' || d.status === 'failed');
        return done.length > 0 ? done : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
  };

  it("never hands tenant A's token to tenant B's webhook naming A's token URL and client id", async () => {
    const tokenOfA = tokens.client('shared-client', 'secret-of-a');
    await create('service', world.community, oauthApi('/a', 'shared-client', 'secret-of-a'));
    await publish(world.community);
    const [toA] = await sink.waitFor(1, '/a');
    expect(toA?.headers.authorization).to.equal(`Bearer ${tokenOfA}`);

    const hookOfB = await create(
      'serviceElsewhere',
      world.otherCommunity,
      oauthApi('/b', 'shared-client', 'not-the-secret'),
    );
    await publish(world.otherCommunity);
    const [delivery] = await settled('serviceElsewhere', world.otherCommunity, hookOfB);
    expect(delivery!.status).to.equal('failed');
    expect(delivery!.attempts[0]!.error).to.match(/token endpoint answered 401/);
    const authorisations = sink.received.map((r) => r.headers.authorization);
    expect(authorisations.filter((a) => a?.includes(tokenOfA))).to.have.length(1);
    expect(
      sink.received.filter((r) => r.path === '/b'),
      "B's target is not called",
    ).to.deep.equal([]);
    expect(
      tokens.seen.filter((s) => s.clientSecret === 'not-the-secret'),
      "the token endpoint sees B's own request",
    ).to.deep.equal([{ clientId: 'shared-client', clientSecret: 'not-the-secret', answered: 401 }]);
  });

  it('uses a changed client secret at once, not the token obtained with the old one', async () => {
    const oldToken = tokens.client('rotating-client', 'old-secret');
    const hook = await create(
      'service',
      world.community,
      oauthApi('/rotating', 'rotating-client', 'old-secret'),
    );
    await publish(world.community);
    expect((await sink.waitFor(1, '/rotating'))[0]?.headers.authorization).to.equal(
      `Bearer ${oldToken}`,
    );
    const newToken = tokens.client('rotating-client', 'new-secret');
    const patched = await world
      .client('service')
      .request('PATCH', `${base(world.community)}/webhook/${hook}`, {
        api: oauthApi('/rotating', 'rotating-client', 'new-secret'),
      });
    expect(patched.status).to.equal(200);
    // events until the change notification has reached the dispatcher's webhook cache
    const until = Date.now() + 10_000;
    let last: string | undefined;
    for (let n = 2; last !== `Bearer ${newToken}` && Date.now() < until; n++) {
      await publish(world.community);
      last = (await sink.waitFor(n, '/rotating'))[n - 1]?.headers.authorization;
    }
    expect(last).to.equal(`Bearer ${newToken}`);
    expect(tokens.seen.filter((s) => s.clientId === 'rotating-client')).to.deep.equal([
      { clientId: 'rotating-client', clientSecret: 'old-secret', answered: 200, token: oldToken },
      { clientId: 'rotating-client', clientSecret: 'new-secret', answered: 200, token: newToken },
    ]);
  });
});
