// /openapi.json of each service lists every route of its spec table, /docs is its viewer, and
// every documented route answers (no 404 or 405 on the documented method).
import { expect } from 'chai';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

const COMMON = [
  'GET /healthz',
  'GET /publickeys',
  'GET /sd',
  'GET /environment',
  'GET /servicekeys',
  'DELETE /servicekey/{keyId}',
  'POST /ecdsa_helper/{method}',
  'GET /metrics',
];

const SPEC_TABLES: Record<'oauth' | 'docverify' | 'webhooks', string[]> = {
  oauth: [
    ...COMMON,
    'GET /community/{community}/v1/authorize',
    'POST /community/{community}/v1/authorize',
    'POST /community/{community}/v1/token',
    'POST /community/{community}/v1/introspect',
    'GET /community/{community}/.well-known/openid-configuration',
    'GET /community/{community}/v1/jwks',
    'GET /community/{community}/v1/interaction/{uid}/eam-context',
  ],
  docverify: [
    ...COMMON,
    'GET /.well-known',
    'POST /verify',
    'PUT /verifier/community/{communityId}',
    'GET /verifier/community/{communityId}',
    'PATCH /verifier/community/{communityId}/{idOrTag}',
    'GET /verifier/community/{communityId}/{idOrTag}',
    'DELETE /verifier/community/{communityId}/{idOrTag}',
    'PUT /verificationConfig/community/{communityId}',
  ],
  webhooks: [
    ...COMMON,
    'GET /.well-known',
    'POST /tenant/{tenantId}/community/{communityId}/webhooks/fetch',
    'PUT /tenant/{tenantId}/community/{communityId}/webhook',
    'PATCH /tenant/{tenantId}/community/{communityId}/webhook/{webhookId}',
    'DELETE /tenant/{tenantId}/community/{communityId}/webhook/{webhookId}',
  ],
};

type Document = {
  openapi: string;
  tags: { name: string }[];
  paths: Record<string, Record<string, { tags: string[] }>>;
};

describe('OpenAPI documents', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;
  before(async () => {
    platform = await startPlatform();
  });
  after(async () => platform?.stop());

  for (const service of ['oauth', 'docverify', 'webhooks'] as const) {
    it(`${service}: lists every route of its spec table, and every documented route answers`, async () => {
      const base = platform.services[service].url;
      const document = (await (await fetch(`${base}/openapi.json`)).json()) as Document;
      expect(document.openapi).to.equal('3.1.0');
      const listed = Object.entries(document.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      );
      for (const route of SPEC_TABLES[service]) expect(listed, route).to.include(route);
      // every operation in a listed group; the service's own groups first, the common ones last
      const groups = document.tags.map((tag) => tag.name);
      expect(groups.at(-1)).to.equal('common endpoints');
      for (const op of Object.values(document.paths).flatMap((ops) => Object.values(ops)))
        expect(groups).to.include.members(op.tags);

      const community = platform.community;
      const fill = (path: string) =>
        path
          .replace('{community}', community.name)
          .replace('{communityId}', community.id)
          .replace('{tenantId}', community.tenantId)
          .replace(/\{[A-Za-z]+\}/g, 'x');
      for (const route of listed) {
        const [method, path] = route.split(' ') as [string, string];
        const res = await fetch(base + fill(path), {
          method,
          redirect: 'manual',
          ...(method === 'GET' || method === 'DELETE'
            ? {}
            : { headers: { 'content-type': 'application/json' }, body: '{}' }),
        });
        expect(res.status, `${route} answered 405`).not.to.equal(405);
        // a 404 may name a missing resource (the filled-in ids do not exist), never a missing route
        if (res.status === 404) expect(await res.text(), route).not.to.match(/no route for/);
      }
      const page = await fetch(`${base}/docs`);
      expect(page.headers.get('content-type')).to.match(/text\/html/);
      // the viewer, reading this document (test/api-reference-browser.test.ts runs it)
      expect(await page.text())
        .to.contain('data-url="openapi.json"')
        .and.contain('docs/swagger-ui-bundle.js');
    });
  }
});
