// Webhook registration through the real gateway: create, update, delete, fetch, auth and validation.
import { expect } from 'chai';
import { startWebhooksWorld, webhookBody, type WebhooksWorld } from '@idv/testing/webhooksWorld';

type Hook = Record<string, unknown> & {
  _id: string;
  api: Record<string, unknown>;
  secret?: string;
};

describe('webhooks gateway: registration', function () {
  this.timeout(60_000);
  let world: WebhooksWorld;
  const path = (community = world.community) =>
    `/tenant/${community.tenantId}/community/${community.id}`;

  before(async () => {
    world = await startWebhooksWorld();
  });
  after(async () => world?.stop());

  it('creates a webhook with defaults, a whsec_ secret and createdBy from the licence', async () => {
    const res = await world.client('service').request<Hook>(
      'PUT',
      `${path()}/webhook`,
      webhookBody('https://example.test/hook', {
        api: {
          type: 'POST',
          url: 'https://example.test/hook',
          authType: 'basic',
          credential: { username: 'testy', password: 'not-a-real-password' },
        },
      }),
    );
    expect(res.status).to.equal(200);
    expect(res.body).to.include({
      tenantId: world.community.tenantId,
      communityId: world.community.id,
      disabled: false,
      criteria: 'ALL',
      retryCount: 0,
      ttl: 0,
    });
    expect(res.body.createdBy).to.be.a('string').and.not.empty;
    expect(res.body.secret).to.match(/^whsec_/);
    expect(res.body.api).to.not.have.property('credential');
    const rows = JSON.stringify(await world.database.db('webhooks.webhooks').select());
    expect(rows).not.to.contain('not-a-real-password');
    expect(rows).not.to.contain(res.body.secret);
  });

  const bad: [string, Record<string, unknown>, RegExp][] = [
    ['no eventNames', { eventNames: undefined }, /eventNames/],
    ['no name', { name: undefined }, /name/],
    ['no api', { api: undefined }, /api/],
    ['no successCodes', { successCodes: undefined }, /successCodes/],
    ['an unknown event', { eventNames: ['E_NOPE'] }, /eventNames\/0/],
    ['retryCount 3', { retryCount: 3 }, /retryCount/],
    ['retryCount -1', { retryCount: -1 }, /retryCount/],
    ['ttl 6', { ttl: 6 }, /ttl/],
    ['criteria SOME', { criteria: 'SOME' }, /criteria/],
    ['authType digest', { api: { url: 'https://x.test', authType: 'digest' } }, /authType/],
    ['a url that is not http', { api: { url: 'ftp://x.test' } }, /url/],
    [
      'oauth2 without token url',
      {
        api: {
          url: 'https://x.test',
          authType: 'oauth2',
          oAuthGrantType: 'client_credentials',
          credential: { oauth2: { clientId: 'c', clientSecret: 's' } },
        },
      },
      /oAuthTokenUrl/,
    ],
    [
      'oauth2 without grant type',
      {
        api: {
          url: 'https://x.test',
          authType: 'oauth2',
          oAuthTokenUrl: 'https://x.test/token',
          credential: { oauth2: { clientId: 'c', clientSecret: 's' } },
        },
      },
      /oAuthGrantType/,
    ],
    [
      'api_key without keyName',
      { api: { url: 'https://x.test', authType: 'api_key', credential: { keyValue: 'v' } } },
      /keyName/,
    ],
    ['a query entry that is empty', { query: [{}] }, /query/],
    ['an unknown member', { colour: 'blue' }, /colour/],
  ];
  for (const [name, change, field] of bad) {
    it(`refuses a create with ${name}: 400 naming the field`, async () => {
      const body = JSON.parse(JSON.stringify({ ...webhookBody('https://x.test/h'), ...change }));
      const res = await world
        .client('service')
        .request<{ message: string }>('PUT', `${path()}/webhook`, body);
      expect(res.status).to.equal(400);
      expect(JSON.stringify(res.body)).to.match(field);
    });
  }

  const access: [
    string,
    'system' | 'service' | 'serviceElsewhere' | 'community' | undefined,
    number,
  ][] = [
    ['no credentials', undefined, 401],
    ['a community-level licence', 'community', 403],
    ['a service licence of another community', 'serviceElsewhere', 403],
    ['a service licence', 'service', 200],
    ['the system licence', 'system', 200],
  ];
  for (const [name, licence, status] of access) {
    it(`fetch with ${name}: ${status}`, async () => {
      const url = `${world.url}${path()}/webhooks/fetch`;
      const res = licence
        ? await world.client(licence).request('POST', `${path()}/webhooks/fetch`, {})
        : await fetch(url, { method: 'POST' });
      expect(res.status).to.equal(status);
    });
  }

  it('answers 405 with Allow for a wrong method on a webhook path', async () => {
    const res = await world.client('service').request('GET', `${path()}/webhook`);
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.contain('PUT');
    const fetchPath = await world.client('service').request('GET', `${path()}/webhooks/fetch`);
    expect(fetchPath.status).to.equal(405);
  });

  it('hides webhooks of another community or tenant as 404', async () => {
    const mine = await world
      .client('service')
      .request<Hook>('PUT', `${path()}/webhook`, webhookBody('https://x.test/a'));
    const viaSibling = await world
      .client('service')
      .request('PATCH', `${path(world.sibling)}/webhook/${mine.body._id}`, { name: 'x' });
    expect(viaSibling.status).to.equal(404);
    const wrongTenant = `/tenant/${world.otherCommunity.tenantId}/community/${world.community.id}`;
    const crossed = await world
      .client('system')
      .request('PATCH', `${wrongTenant}/webhook/${mine.body._id}`, { name: 'x' });
    expect(crossed.status).to.equal(404);
    const crossedByService = await world
      .client('service')
      .request('POST', `${wrongTenant}/webhooks/fetch`, {});
    expect(crossedByService.status).to.equal(403);
    const notAnId = await world.client('service').request('DELETE', `${path()}/webhook/nope`);
    expect(notAnId.status).to.equal(404);
  });

  it('updates members, rotates the secret on request and deletes', async () => {
    const created = await world
      .client('service')
      .request<Hook>('PUT', `${path()}/webhook`, webhookBody('https://x.test/b'));
    const id = created.body._id;
    const patched = await world
      .client('service')
      .request<Hook>('PATCH', `${path()}/webhook/${id}`, {
        disabled: true,
        retryCount: 2,
        ttl: 5,
      });
    expect(patched.status).to.equal(200);
    expect(patched.body).to.include({
      disabled: true,
      retryCount: 2,
      ttl: 5,
      name: 'Testy callbacks',
    });
    expect(patched.body).to.not.have.property('secret');
    const rotated = await world
      .client('service')
      .request<Hook>('PATCH', `${path()}/webhook/${id}`, { rotateSecret: true });
    expect(rotated.body.secret)
      .to.match(/^whsec_/)
      .and.not.equal(created.body.secret);
    const row = await world.database.db('webhooks.webhooks').where({ id }).first();
    expect(row.previous_secret_sealed).to.be.a('string');
    expect(
      (await world.client('service').request('PATCH', `${path()}/webhook/${id}`, {})).status,
    ).to.equal(400);
    expect(
      (await world.client('service').request('PATCH', `${path()}/webhook/${id}`, { ttl: 9 }))
        .status,
    ).to.equal(400);
    const gone = await world.client('service').request('DELETE', `${path()}/webhook/${id}`);
    expect(gone.status).to.equal(204);
    expect(
      (await world.client('service').request('DELETE', `${path()}/webhook/${id}`)).status,
    ).to.equal(404);
  });

  it('fetches pages with tag filters; credential and secret only for the system licence', async () => {
    const community = world.sibling;
    for (let i = 0; i < 5; i++) {
      await world.client('service').request('PUT', `${path(community)}/webhook`, {
        ...webhookBody(`https://x.test/${i}`),
        name: `hook ${i}`,
        tags: i % 2 === 0 ? ['even'] : ['odd'],
        api: { url: `https://x.test/${i}`, authType: 'bearer', credential: { token: `tok-${i}` } },
      });
    }
    const first = await world
      .client('service')
      .request<{ page: unknown; data: Hook[]; publicKey: string }>(
        'POST',
        `${path(community)}/webhooks/fetch`,
        { pSize: 2 },
      );
    expect(first.body.page).to.deep.equal({ index: 0, total: 5, size: 2 });
    expect(first.body.data.map((h) => h.name)).to.deep.equal(['hook 0', 'hook 1']);
    expect(first.body.data[0]!.api).to.not.have.property('credential');
    expect(first.body.data[0]).to.not.have.property('secret');
    const keys = (await (await fetch(`${world.url}/publickeys`)).json()) as { publicKey: string };
    expect(first.body.publicKey).to.equal(keys.publicKey);
    const last = await world
      .client('system')
      .request<{ page: unknown; data: Hook[] }>('POST', `${path(community)}/webhooks/fetch`, {
        pSize: 2,
        pIndex: 2,
      });
    expect(last.body.data.map((h) => h.name)).to.deep.equal(['hook 4']);
    expect(last.body.data[0]!.api.credential).to.deep.equal({ token: 'tok-4' });
    expect(last.body.data[0]!.secret).to.match(/^whsec_/);
    const odd = await world
      .client('service')
      .request<{ page: { total: number }; data: Hook[] }>(
        'POST',
        `${path(community)}/webhooks/fetch`,
        { tags: ['odd'] },
      );
    expect(odd.body.page.total).to.equal(2);
    expect(odd.body.data.map((h) => h.name)).to.deep.equal(['hook 1', 'hook 3']);
    for (const body of [{ pSize: 0 }, { pSize: 101 }, { pIndex: -1 }]) {
      const res = await world
        .client('service')
        .request('POST', `${path(community)}/webhooks/fetch`, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
    }
  });
});
