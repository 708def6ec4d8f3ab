// The worker's provider client on its own, against a local server over real sockets: what reaches
// the provider (query, basic auth, bodies, user-agent, a client certificate) and how each way a
// call fails is sorted into the outcomes of outcomes.ts (statuses, a redirect not followed,
// timeouts, the size cap, the SSRF guard before the call and at connect, an unreachable port).
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, type TLSSocket } from 'node:tls';
import { GuardedHttp, parseAllowList, SsrfGuard } from '@idv/netguard';
import { callProvider } from '../src/connectors/shared/providerCall.ts';
import { JobOutcome } from '../src/outcomes.ts';

import {
  TEST_CERTIFICATE_BASE64,
  TEST_CERTIFICATE_PASSPHRASE,
} from '@idv/testing/clientCertificate';
import { freePort } from '@idv/testing/freePort';
import { eventually } from '@idv/testing/eventually';

const TIMEOUT_MS = 300;
const MiB = 1024 * 1024;

type Request = Parameters<typeof callProvider>[2];

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What the server saw of each call, and how the huge answer ended. */
const seen = { jsonCalls: 0, hugeWritten: 0, hugeFinished: false, hugeClosed: false };

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://provider');
  const json = (status: number, body: unknown) =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (url.pathname === '/json') {
    seen.jsonCalls += 1;
    return json(200, { ok: true });
  }
  if (url.pathname === '/echo') {
    const body = await bodyOf(req);
    return json(200, {
      method: req.method,
      path: req.url,
      headers: req.headers,
      body: body.toString('base64'),
    });
  }
  if (url.pathname.startsWith('/status/'))
    return json(Number(url.pathname.slice('/status/'.length)), { error: 'as asked' });
  if (url.pathname === '/text') return void res.writeHead(200).end('<html>not json</html>');
  if (url.pathname === '/deep')
    return void res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(`{"decision":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
  if (url.pathname === '/bytes') return void res.writeHead(200).end(Buffer.from([0, 1, 2, 255]));
  if (url.pathname === '/redirect')
    return void res
      .writeHead(302, { location: '/json', 'content-type': 'application/json' })
      .end('{}');
  if (url.pathname === '/hang') return; // never answers
  if (url.pathname === '/huge') {
    // 1 MiB chunks, 64 MiB at most, while the client keeps reading
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(MiB, 0x20);
    res.on('finish', () => (seen.hugeFinished = true));
    res.on('close', () => (seen.hugeClosed = true));
    const write = () => {
      while (seen.hugeWritten < 64 * MiB && !res.destroyed) {
        seen.hugeWritten += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', write);
      }
      if (!res.destroyed) res.end();
    };
    return write();
  }
  json(404, { error: 'no such route' });
}

describe('connector worker: provider calls', function () {
  this.timeout(10_000);
  const server = createServer((req, res) => void route(req, res));
  const guard = new SsrfGuard(parseAllowList('127.0.0.0/8,::1/128', 'CONNECTOR_SSRF_ALLOW'));
  const provider = new GuardedHttp(TIMEOUT_MS, guard, 'idv-connector-worker');
  let base: string;

  const call = (request: Request, signal = new AbortController().signal) =>
    callProvider({ http: provider, signal }, 'test provider', request);
  /** The outcome a call ended on: its class name and code. */
  const failure = async (request: Request, signal?: AbortSignal) => {
    const err: unknown = await call(request, signal).then(
      () => expect.fail('the call succeeded'),
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(JobOutcome);
    const outcome = err as JobOutcome;
    return { name: outcome.name, code: outcome.code, message: outcome.message };
  };

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await provider.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends JSON with the user-agent, query parameters and basic auth', async () => {
    const answer = (await call({
      method: 'POST',
      url: `${base}/echo`,
      params: { returnFaceId: true, model: 'detection 03' },
      auth: { username: 'ap-name', password: 'p:ss' },
      headers: { 'x-api-key': 'k-1' },
      data: { person: { firstName: 'Testy' } },
    })) as { method: string; path: string; headers: Record<string, string>; body: string };
    expect(answer.method).to.equal('POST');
    const query = new URL(answer.path, base).searchParams;
    expect(Object.fromEntries(query)).to.deep.equal({
      returnFaceId: 'true',
      model: 'detection 03',
    });
    expect(answer.headers.authorization).to.equal(
      `Basic ${Buffer.from('ap-name:p:ss').toString('base64')}`,
    );
    expect(answer.headers['user-agent']).to.equal('idv-connector-worker');
    expect(answer.headers['x-api-key']).to.equal('k-1');
    expect(answer.headers['content-type']).to.match(/^application\/json/);
    const sent = JSON.parse(Buffer.from(answer.body, 'base64').toString()) as unknown;
    expect(sent).to.deep.equal({ person: { firstName: 'Testy' } });
  });

  it('sends bytes and text as they are, with the content-type the adapter gives', async () => {
    const bytes = Buffer.from([0, 1, 2, 250]);
    const octets = (await call({
      method: 'POST',
      url: `${base}/echo`,
      headers: { 'Content-Type': 'application/octet-stream' },
      data: bytes,
    })) as { headers: Record<string, string>; body: string };
    expect(octets.headers['content-type']).to.equal('application/octet-stream');
    expect(Buffer.from(octets.body, 'base64').equals(bytes)).to.equal(true);
    const form = (await call({
      method: 'POST',
      url: `${base}/echo`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: 'grant_type=client_credentials&client_id=a',
    })) as { headers: Record<string, string>; body: string };
    expect(form.headers['content-type']).to.equal('application/x-www-form-urlencoded');
    expect(Buffer.from(form.body, 'base64').toString()).to.equal(
      'grant_type=client_credentials&client_id=a',
    );
  });

  it('hands back bytes when asked for an arraybuffer', async () => {
    const data = await call({ method: 'GET', url: `${base}/bytes`, responseType: 'arraybuffer' });
    expect(Buffer.from(data as ArrayBuffer).equals(Buffer.from([0, 1, 2, 255]))).to.equal(true);
  });

  const statuses: [number, string, string][] = [
    [429, 'ProviderUnavailable', 'provider_throttled'],
    [400, 'ProviderRejected', 'provider_rejected'],
    [401, 'ProviderRejected', 'provider_rejected'],
    [404, 'ProviderRejected', 'provider_rejected'],
    [408, 'ProviderUnavailable', 'provider_5xx'],
    [425, 'ProviderUnavailable', 'provider_5xx'],
    [500, 'ProviderUnavailable', 'provider_5xx'],
    [503, 'ProviderUnavailable', 'provider_5xx'],
  ];
  for (const [status, name, code] of statuses) {
    it(`sorts a ${status} answer as ${code}`, async () => {
      const got = await failure({ method: 'GET', url: `${base}/status/${status}` });
      expect([got.name, got.code]).to.deep.equal([name, code]);
    });
  }

  it('keeps the status of a refusal for the adapters (404 → version 1, 401 → next account)', async () => {
    const err = await call({ method: 'GET', url: `${base}/status/404` }).catch((e: unknown) => e);
    expect(err).to.have.property('status', 404);
  });

  it('answers provider_malformed for a 2xx body that is not JSON', async () => {
    const got = await failure({ method: 'GET', url: `${base}/text` });
    expect(got.code).to.equal('provider_malformed');
  });

  it('answers provider_malformed for JSON nested 10,000 levels deep (it could not be serialised again)', async () => {
    const got = await failure({ method: 'GET', url: `${base}/deep` });
    expect(got.code).to.equal('provider_malformed');
    expect(got.message).to.match(/nests deeper than 32 levels/);
  });

  it('does not follow a redirect: a 3xx is provider_malformed', async () => {
    const before = seen.jsonCalls;
    const got = await failure({ method: 'GET', url: `${base}/redirect` });
    expect(got.code).to.equal('provider_malformed');
    expect(seen.jsonCalls).to.equal(before);
  });

  it('gives up on a provider that does not answer in time: provider_timeout', async () => {
    const started = Date.now();
    const got = await failure({ method: 'GET', url: `${base}/hang` });
    expect(got.code).to.equal('provider_timeout');
    expect(Date.now() - started).to.be.within(TIMEOUT_MS - 20, TIMEOUT_MS + 700);
  });

  it('stops when the job aborts the call: provider_timeout', async () => {
    const started = Date.now();
    const got = await failure({ method: 'GET', url: `${base}/hang` }, AbortSignal.timeout(50));
    expect(got.code).to.equal('provider_timeout');
    expect(Date.now() - started).to.be.below(TIMEOUT_MS);
  });

  it('refuses an answer above 20 MiB as provider_malformed and stops reading it', async () => {
    const got = await failure({ method: 'GET', url: `${base}/huge` });
    expect(got.name).to.equal('ProviderUnavailable');
    expect(got.code).to.equal('provider_malformed');
    expect(got.message).to.equal('test provider answered more than 20 MiB');
    // the client hung up: the answer ends here, unfinished
    await eventually('the huge answer closed', () => seen.hugeClosed);
    expect(seen.hugeFinished).to.equal(false);
    expect(seen.hugeWritten).to.be.below(64 * MiB);
  });

  it('refuses an IP literal the guard does not allow before sending anything', async () => {
    const got = await failure({ method: 'GET', url: 'http://169.254.169.254/latest/meta-data' });
    expect(got.code).to.equal('blocked_target');
  });

  it('refuses at connect a name that resolves to an address the guard does not allow', async () => {
    const strict = new GuardedHttp(
      TIMEOUT_MS,
      new SsrfGuard(parseAllowList('')),
      'idv-connector-worker',
    );
    try {
      const port = new URL(base).port;
      const err: unknown = await callProvider(
        { http: strict, signal: new AbortController().signal },
        'test provider',
        { method: 'GET', url: `http://localhost:${port}/json` },
      ).catch((e: unknown) => e);
      expect(err).to.have.property('code', 'blocked_target');
      expect((err as Error).message).to.match(/localhost/);
    } finally {
      await strict.close();
    }
  });

  it('answers provider_unreachable, with the error code, for a port nobody listens on', async () => {
    const got = await failure({ method: 'GET', url: `http://127.0.0.1:${await freePort()}/json` });
    expect(got.code).to.equal('provider_unreachable');
    expect(got.message).to.contain('ECONNREFUSED');
  });

  describe('mutual TLS', () => {
    let dir: string;
    let serverCert: Buffer;
    // asks for a client certificate and answers the name in it
    let tlsServer: ReturnType<typeof createTlsServer>;
    let tlsPort: number;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'idv-provider-tls-'));
      const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '1',
          '-subj',
          '/CN=provider',
          '-addext',
          'subjectAltName=IP:127.0.0.1,DNS:localhost',
        ],
        { stdio: 'ignore' },
      );
      serverCert = await readFile(cert);
      tlsServer = createTlsServer(
        {
          key: await readFile(key),
          cert: serverCert,
          requestCert: true,
          rejectUnauthorized: false,
        },
        (req, res) => {
          const peer = (req.socket as TLSSocket).getPeerCertificate();
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ client: peer.subject?.CN ?? null }));
        },
      );
      await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
      tlsPort = (tlsServer.address() as AddressInfo).port;
    });
    after(async () => {
      tlsServer.closeAllConnections();
      await new Promise((resolve) => tlsServer.close(resolve));
      await rm(dir, { recursive: true, force: true });
    });

    /** The test certificate as MtlsAgents opens it, plus trust in the local server's own. */
    const clientContext = () =>
      createSecureContext({
        pfx: Buffer.from(TEST_CERTIFICATE_BASE64, 'base64'),
        passphrase: TEST_CERTIFICATE_PASSPHRASE,
        ca: serverCert,
      });

    it('sends the client certificate through a dispatcher of its own', async () => {
      const dispatcher = provider.dispatcherWith({ secureContext: clientContext() });
      try {
        const url = `https://127.0.0.1:${tlsPort}/verify`;
        expect(await call({ method: 'POST', url, data: {}, dispatcher })).to.deep.equal({
          client: 'Testy McTestface registry client',
        });
      } finally {
        await dispatcher.destroy();
      }
    });

    it('resolves its names through the guard too', async () => {
      const strict = new GuardedHttp(
        TIMEOUT_MS,
        new SsrfGuard(parseAllowList('')),
        'idv-connector-worker',
      );
      const dispatcher = strict.dispatcherWith({ secureContext: clientContext() });
      try {
        const err: unknown = await callProvider(
          { http: strict, signal: new AbortController().signal },
          'test provider',
          { method: 'POST', url: `https://localhost:${tlsPort}/verify`, data: {}, dispatcher },
        ).catch((e: unknown) => e);
        expect(err).to.have.property('code', 'blocked_target');
      } finally {
        await dispatcher.destroy();
        await strict.close();
      }
    });
  });
});
