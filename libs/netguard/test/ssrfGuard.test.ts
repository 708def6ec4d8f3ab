// The SSRF guard on its own: resolved addresses are checked at connect time, literals before it.
import { expect } from 'chai';
import axios from 'axios';
import { parseAllowList, SsrfGuard } from '../src/ssrfGuard.ts';
import { startSink, type Sink } from '../../../services/webhook-dispatcher/test/sink.ts';

describe('webhook dispatcher: SSRF guard', () => {
  let sink: Sink;
  before(async () => {
    sink = await startSink();
  });
  after(async () => sink?.close());

  const refused: [string, string][] = [
    ['loopback', '127.0.0.1'],
    ['private 10/8', '10.1.2.3'],
    ['private 192.168/16', '192.168.1.1'],
    ['link-local / metadata', '169.254.169.254'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unique local', 'fd00:ec2::254'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ];
  for (const [name, address] of refused) {
    it(`refuses ${name} (${address})`, () => {
      expect(new SsrfGuard(parseAllowList('')).refusal(address)).to.match(/SSRF/);
    });
  }

  it('lets public addresses and allow-listed ones through', () => {
    expect(new SsrfGuard(parseAllowList('')).refusal('93.184.216.34')).to.equal(undefined);
    expect(new SsrfGuard(parseAllowList('127.0.0.1/32')).refusal('127.0.0.1')).to.equal(undefined);
    expect(() => parseAllowList('not-an-address')).to.throw(/WEBHOOK_SSRF_ALLOW/);
  });

  it('refuses a host name that resolves to loopback at connect time', async () => {
    const guard = new SsrfGuard(parseAllowList(''));
    const http = axios.create({ ...guard.agents(), proxy: false, timeout: 2000 });
    const port = new URL(sink.url).port;
    const err = await http.get(`http://localhost:${port}/x`).catch((e: unknown) => e as Error);
    expect(String((err as Error).message)).to.match(/SSRF/);
    expect(sink.received).to.have.length(0);
    expect(() => guard.checkUrl(`http://[::1]:${port}/x`)).to.throw(/SSRF/);
  });
});
