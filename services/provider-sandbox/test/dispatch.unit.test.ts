// The sandbox's own request handling over real sockets: unknown routes, bodies it refuses, fault
// prefixes (stacked), hanging calls ended by close(), and the in-flight count a scope reaches.
import { request } from 'node:http';
import { expect } from 'chai';
import { startSandbox, type RunningSandbox } from '../src/start.ts';

const KEY = { 'x-api-key': 'sandbox-key' };
const JSON_TYPE = { 'content-type': 'application/json' };
const face = (name: string) => ({ image: Buffer.from(`FACE:${name}`).toString('base64') });
const COMPARE = JSON.stringify({ source: face('testy'), target: face('testy') });

interface Case {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  status: number;
  answer?: Record<string, unknown>;
}

const CASES: Case[] = [
  {
    name: 'unknown path',
    path: '/nope',
    status: 404,
    answer: { error: 'not_found', message: 'no such provider route' },
  },
  {
    name: 'known path, other method',
    method: 'GET',
    path: '/facematch/v1/compare',
    status: 404,
    answer: { error: 'not_found' },
  },
  {
    name: 'bad JSON',
    path: '/facematch/v1/compare',
    headers: { ...KEY, ...JSON_TYPE },
    body: '{"source": nope',
    status: 400,
    answer: {
      error: 'invalid_request',
      message: 'Unexpected token \'o\', "{"source": nope" is not valid JSON',
    },
  },
  {
    name: 'bad JSON to an unknown path',
    path: '/nope',
    headers: JSON_TYPE,
    body: '{',
    status: 400,
    answer: { error: 'invalid_request' },
  },
  {
    name: 'JSON that is no object or array',
    path: '/facematch/v1/compare',
    headers: { ...KEY, ...JSON_TYPE },
    body: '"abc"',
    status: 400,
    answer: { error: 'invalid_request' },
  },
  {
    name: 'body over 10 MB',
    path: '/facematch/v1/compare',
    headers: { ...KEY, ...JSON_TYPE },
    body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20),
    status: 413,
    answer: { error: 'invalid_request', message: 'request entity too large' },
  },
  {
    name: 'charset it cannot read',
    path: '/facematch/v1/compare',
    headers: { ...KEY, 'content-type': 'application/json; charset=latin1' },
    body: '{}',
    status: 415,
    answer: { message: 'unsupported charset "LATIN1"' },
  },
  {
    name: 'an empty JSON body is an empty object',
    path: '/facematch/v1/compare',
    headers: { ...KEY, ...JSON_TYPE },
    body: '',
    status: 400,
    answer: { message: 'source and target are required' },
  },
  {
    name: 'a type it does not read',
    path: '/facematch/v1/compare',
    headers: { ...KEY, 'content-type': 'text/plain' },
    body: COMPARE,
    status: 400,
    answer: { message: 'source and target are required' },
  },
  {
    name: 'trailing slash and capitals, as Express matched',
    path: '/FaceMatch/v1/compare/',
    headers: { ...KEY, ...JSON_TYPE },
    body: COMPARE,
    status: 200,
    answer: { match: true },
  },
  {
    name: 'octet-stream reaches the route as bytes',
    path: '/face/v1.0/detect?returnFaceId=false',
    headers: {
      'ocp-apim-subscription-key': 'sandbox-sub',
      'content-type': 'application/octet-stream',
    },
    body: 'FACE:testy',
    status: 200,
  },
  {
    name: 'a parameter that does not decode',
    method: 'GET',
    path: '/_admin/calls/%E0',
    status: 400,
    answer: { message: "Failed to decode param '%E0'" },
  },
  {
    name: 'stacked prefixes: the last status wins over the earlier',
    path: '/fault/status=503/s/stacked/fault/latency=5,status=418/facematch/v1/compare',
    headers: KEY,
    status: 418,
    answer: { error: 'injected fault', status: 418 },
  },
  {
    name: 'a fault prefix right before the query string',
    path: '/fault/status=418?debug=1',
    headers: KEY,
    status: 418,
    answer: { error: 'injected fault', status: 418 },
  },
  {
    name: 'a scope prefix keeps the query string for the route',
    path: '/s/queried/face/v1.0/detect?returnFaceId=false',
    headers: {
      'ocp-apim-subscription-key': 'sandbox-sub',
      'content-type': 'application/octet-stream',
    },
    body: 'FACE:testy',
    status: 200,
  },
  {
    name: 'a scope that does not decode',
    path: '/s/%E0/facematch/v1/compare',
    status: 400,
    answer: { error: 'invalid_request', message: 'fault prefix does not decode: %E0' },
  },
  {
    name: 'health is not faulted',
    method: 'GET',
    path: '/fault/status=500/healthz',
    status: 200,
    answer: { status: 'ok' },
  },
];

describe('provider sandbox: request handling', function () {
  this.timeout(30_000);
  let sandbox: RunningSandbox;
  before(async () => {
    sandbox = await startSandbox(0);
  });
  after(async () => sandbox?.close());

  const call = (path: string, init: RequestInit = {}) => fetch(`${sandbox.url}${path}`, init);
  const callsOf = async (scope: string) =>
    (await (await call(`/_admin/calls/${scope}`)).json()) as {
      calls: number;
      peakInFlight: number;
    };

  for (const c of CASES) {
    it(`${c.name}: ${c.status}`, async () => {
      const method = c.method ?? 'POST';
      const res = await call(c.path, {
        method,
        headers: c.headers ?? {},
        ...(c.body !== undefined && { body: c.body }),
      });
      expect(res.status).to.equal(c.status);
      expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(res.headers.get('etag')).to.equal(null);
      const text = await res.text();
      if (c.answer) expect(JSON.parse(text)).to.include(c.answer);
    });
  }

  it('counts stacked prefixes in the last scope named, and serves the garbled body as JSON', async () => {
    expect(await callsOf('stacked')).to.include({ calls: 1 });
    const res = await call('/s/garbled/fault/malformed/facematch/v1/compare', { method: 'POST' });
    expect(await res.text()).to.equal('{"this is": not json');
  });

  it('applies an admin fault `times` times, then lets calls through', async () => {
    await call('/_admin/faults/twice', {
      method: 'PUT',
      headers: JSON_TYPE,
      body: JSON.stringify({ status: 502, times: 2 }),
    });
    const compare = () =>
      call('/s/twice/facematch/v1/compare', {
        method: 'POST',
        headers: { ...KEY, ...JSON_TYPE },
        body: COMPARE,
      });
    const statuses = [(await compare()).status, (await compare()).status, (await compare()).status];
    expect(statuses).to.deep.equal([502, 502, 200]);
    expect(await callsOf('twice')).to.include({ calls: 3, peakInFlight: 1 });
  });

  it('answers HEAD with the GET route, without a body', async () => {
    const res = await call('/healthz', { method: 'HEAD' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-length')).to.equal('15');
    expect(await res.text()).to.equal('');
  });

  it('counts the calls of a scope held at once, each released when its response closes', async () => {
    const slow = () => call('/s/peak/fault/latency=150/healthz/nope');
    await Promise.all([slow(), slow(), slow()]);
    // Hanging calls the caller gave up on are released: the two after them make no new peak.
    await Promise.all(
      [1, 2].map(() =>
        call('/s/peak/fault/hang/nope', { signal: AbortSignal.timeout(100) }).catch(
          () => 'gave up',
        ),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all([slow(), slow()]);
    expect(await callsOf('peak')).to.deep.include({ calls: 7, peakInFlight: 3 });
  });

  it('close() ends a hanging call and resolves', async () => {
    const own = await startSandbox(0);
    const { hostname, port } = new URL(own.url);
    const ended = new Promise<string>((resolve) => {
      const req = request({
        hostname,
        port,
        method: 'POST',
        path: '/fault/hang/facematch/v1/compare',
      });
      req.on('response', () => resolve('answered'));
      req.on('error', (err) => resolve(`socket ended: ${err.message}`));
      req.end('{}');
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await own.close();
    expect(await ended).to.match(/^socket ended/);
    expect(Date.now() - started).to.be.below(1000);
  });
});
