// The API reference's routes through a real listening server: the page under its strict CSP, the
// viewer's files versioned, cached and compressed, the OpenAPI document compressed, and anything
// but the listed files (unknown names, path traversal, prototype keys) a 404 with the error body.
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { createLogger, createMetricsRegistry } from '@idv/observability';
import { createHttpApp, startHttpServer, type RunningServer } from '../src/index.ts';
import { API_REFERENCE_CSP } from '../src/apiReference.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET with the path sent byte for byte as given (fetch would normalise dot segments). */
function get(server: RunningServer, path: string, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const { port } = new URL(server.url);
    request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

const viewerFile = (name: string) =>
  readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`));

describe('http: the API reference at /docs', () => {
  let server: RunningServer;
  let links: string[];

  before(async () => {
    const app = createHttpApp({
      logger: createLogger({ service: 'test', level: 'silent' }),
      registry: createMetricsRegistry('test'),
      routes: [{ method: 'GET', path: '/verify', handler: (_req, res) => res.json({}) }],
      openapi: { info: { title: 'test <service>', version: '1' } },
    });
    server = await startHttpServer(app, 0, '127.0.0.1');
    const page = (await get(server, '/docs')).body.toString();
    links = [...page.matchAll(/(?:src|href)="(docs\/[^"]+)"/g)].map((m) => `/${m[1]!}`);
  });
  after(async () => server?.stop());

  it('serves the page under a CSP with nothing inline and nothing from elsewhere', async () => {
    const res = await get(server, '/docs');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).to.equal(API_REFERENCE_CSP);
    expect(API_REFERENCE_CSP).not.to.match(/unsafe-inline|unsafe-eval|https?:|\*/);
    const html = res.body.toString();
    expect(html).not.to.match(/<script(?![^>]*\bsrc=)|<style|\sstyle=|\son[a-z]+=/i);
    expect(html).to.contain('data-url="openapi.json"');
    expect(html).to.contain('<title>test &lt;service&gt;: API reference</title>');
    expect(links).to.have.length(6);
    for (const link of links) expect(link).to.match(/^\/docs\/[a-z0-9.-]+\?v=[A-Za-z0-9_-]{12}$/);
  });

  it('serves every file the page links with its type, cached for good at its version', async () => {
    for (const link of links) {
      const res = await get(server, link);
      expect(res.status, link).to.equal(200);
      expect(res.headers['cache-control'], link).to.equal('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options'], link).to.equal('nosniff');
      expect(res.headers['content-type'], link).to.match(
        /^(text\/javascript|text\/css); charset=utf-8$|^image\/png$/,
      );
    }
    const unversioned = await get(server, '/docs/swagger-ui.css?v=older');
    expect(unversioned.headers['cache-control']).to.equal('no-cache');
  });

  it('sends the bundle brotli or gzip compressed to a client that takes it, else as it is', async () => {
    const bundle = viewerFile('swagger-ui-bundle.js');
    const br = await get(server, '/docs/swagger-ui-bundle.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).to.equal('br');
    expect(br.headers.vary).to.match(/Accept-Encoding/i);
    expect(br.body.length).to.be.below(bundle.length / 4);
    expect(brotliDecompressSync(br.body).equals(bundle)).to.equal(true);
    const gz = await get(server, '/docs/swagger-ui-bundle.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(gz.body).equals(bundle)).to.equal(true);
    const plain = await get(server, '/docs/swagger-ui-bundle.js');
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.body.equals(bundle)).to.equal(true);
    const icon = await get(server, '/docs/favicon-32x32.png', { 'accept-encoding': 'br' });
    expect(icon.headers['content-encoding']).to.equal(undefined);
    expect(icon.body.equals(viewerFile('favicon-32x32.png'))).to.equal(true);
  });

  it('sends /openapi.json compressed too, listing the reference routes', async () => {
    const res = await get(server, '/openapi.json', { 'accept-encoding': 'br' });
    expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(res.headers['content-encoding']).to.equal('br');
    const document = JSON.parse(brotliDecompressSync(res.body).toString()) as {
      paths: Record<string, unknown>;
    };
    expect(document.paths).to.include.keys('/verify', '/docs', '/docs/{asset}', '/openapi.json');
  });

  it('redirects /docs/ to /docs, where the relative links resolve', async () => {
    const res = await get(server, '/docs/');
    expect(res.status).to.equal(308);
    expect(new URL(String(res.headers.location), `${server.url}/docs/`).pathname).to.equal('/docs');
  });

  const refused: [string, string][] = [
    ['an unknown file', '/docs/nothing.js'],
    ["a file of the package the page doesn't link", '/docs/swagger-ui-bundle.js.map'],
    ["the package's manifest", '/docs/package.json'],
    ['traversal, slashes encoded', '/docs/..%2f..%2fpackage.json'],
    ['traversal, dots and slashes encoded', '/docs/%2e%2e%2f%2e%2e%2fpackage.json'],
    ['traversal, backslashes encoded', '/docs/..%5c..%5cpackage.json'],
    ['traversal as sent', '/docs/../../package.json'],
    ['our initializer by its path in the source tree', '/docs/assets%2fswagger-initializer.js'],
    ['a prototype key', '/docs/constructor'],
    ['another prototype key', '/docs/__proto__'],
  ];
  for (const [what, path] of refused)
    it(`answers ${what} with 404 and the error body`, async () => {
      const res = await get(server, path);
      expect(res.status, path).to.equal(404);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(JSON.parse(res.body.toString())).to.include({ statusCode: 404, error: 'Not Found' });
    });
});
