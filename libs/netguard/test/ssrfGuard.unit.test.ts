// The SSRF guard on its own: every address form, allowed and refused, and resolved addresses checked
// at connect time, literals before it.
import { expect } from 'chai';
import { get } from 'node:http';
import { parseAllowList, SsrfGuard } from '../src/ssrfGuard.ts';
import { startSink, type Sink } from '@idv/testing/webhookSink';

/** [address, what it is]: each must be refused with no allow-list. */
const REFUSED: [string, string][] = [
  ['127.0.0.1', 'IPv4 loopback'],
  ['127.255.255.254', 'IPv4 loopback, top of 127/8'],
  ['10.1.2.3', 'private 10/8'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.255', 'private 172.16/12, top'],
  ['192.168.1.1', 'private 192.168/16'],
  ['169.254.169.254', 'link-local, cloud metadata'],
  ['100.64.0.1', 'CGNAT 100.64/10'],
  ['0.0.0.0', 'IPv4 unspecified'],
  ['0.1.2.3', '"this network" 0/8'],
  ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['198.51.100.7', 'documentation TEST-NET-2'],
  ['203.0.113.9', 'documentation TEST-NET-3'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['198.18.0.1', 'benchmarking 198.18/15'],
  ['224.0.0.1', 'IPv4 multicast'],
  ['239.255.255.250', 'IPv4 multicast (SSDP)'],
  ['240.0.0.1', 'IPv4 reserved 240/4'],
  ['255.255.255.255', 'IPv4 broadcast'],
  ['::1', 'IPv6 loopback'],
  ['0:0:0:0:0:0:0:1', 'IPv6 loopback, long spelling'],
  ['::', 'IPv6 unspecified'],
  ['::0', 'IPv6 unspecified, other spelling'],
  ['::7f00:1', 'IPv4-compatible loopback, hex'],
  ['::127.0.0.1', 'IPv4-compatible loopback, dotted'],
  ['::a9fe:a9fe', 'IPv4-compatible metadata'],
  ['::10.0.0.1', 'IPv4-compatible private'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['::FFFF:7F00:1', 'IPv4-mapped loopback, upper case'],
  ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped loopback, long spelling'],
  ['0000:0000:0000:0000:0000:ffff:127.0.0.1', 'IPv4-mapped loopback, zero-padded'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata, hex'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:0:a9fe:a9fe', 'SIIT IPv4-translated metadata'],
  ['::ffff:0:127.0.0.1', 'SIIT IPv4-translated loopback'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata'],
  ['64:ff9b::127.0.0.1', 'NAT64 of loopback'],
  ['64:ff9b::10.0.0.1', 'NAT64 of private'],
  ['64:ff9b:1::808:808', 'local-use NAT64 64:ff9b:1::/48'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2002:a00:1::', '6to4 of private 10/8'],
  ['2002:a9fe:a9fe::1', '6to4 of metadata'],
  ['2002:c0a8:101::1', '6to4 of private 192.168/16'],
  ['2001:0:a00:1::1', 'Teredo with a private server'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo with a loopback client (inverted)'],
  ['2001:4860::5efe:7f00:1', 'ISATAP carrying loopback'],
  ['2001:4860::200:5efe:a9fe:a9fe', 'ISATAP (u bit) carrying metadata'],
  ['fe80::5efe:808:808', 'ISATAP under link-local'],
  ['fec0::1', 'site-local fec0::/10'],
  ['feff::1', 'site-local, top of fec0::/10'],
  ['100::1', 'discard-only 100::/64'],
  ['100::ffff:ffff:ffff:ffff', 'discard-only, top'],
  ['fd00:ec2::254', 'unique local (cloud metadata)'],
  ['fc00::1', 'unique local fc00::/7'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone id'],
  ['febf::1', 'link-local, top of fe80::/10'],
  ['ff02::1', 'multicast, link scope'],
  ['ff05::1:3', 'multicast, site scope'],
  ['ff0e::1', 'multicast, global scope'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['2001:2::1', 'benchmarking 2001:2::/48'],
  ['2001:20::1', 'ORCHIDv2'],
  ['5f00::1', 'SRv6 SIDs, outside global unicast'],
  ['4000::1', 'reserved, outside global unicast'],
  ['1::1', 'reserved 0::/8 outside the IPv4 forms'],
];

/** [address, what it is]: each must be let through with no allow-list. */
const ALLOWED: [string, string][] = [
  ['93.184.216.34', 'public IPv4'],
  ['8.8.8.8', 'public IPv4'],
  ['172.32.0.1', 'just above 172.16/12'],
  ['100.128.0.1', 'just above 100.64/10'],
  ['2606:4700::1111', 'public IPv6'],
  ['2a00:1450:4001::200e', 'public IPv6'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public'],
  ['::ffff:808:808', 'IPv4-mapped public, hex'],
  ['::ffff:0:808:808', 'SIIT of public'],
  ['64:ff9b::808:808', 'NAT64 of public (IPv6-only networks reach IPv4 targets so)'],
  ['2002:808:808::1', '6to4 of public'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo, public server and client'],
  ['2001:4860::200:5efe:808:808', 'ISATAP carrying a public address'],
];

describe('netguard: SSRF guard', () => {
  const guard = new SsrfGuard(parseAllowList(''));

  for (const [address, what] of REFUSED)
    it(`refuses ${what} (${address})`, () => {
      expect(guard.refusal(address)).to.match(/SSRF protection/);
    });

  for (const [address, what] of ALLOWED)
    it(`allows ${what} (${address})`, () => {
      expect(guard.refusal(address)).to.equal(undefined);
    });

  const literals: [string, string][] = [
    ['http://[::ffff:127.0.0.1]/', 'mapped, normalised by URL to ::ffff:7f00:1'],
    ['http://[::127.0.0.1]:8080/', 'compatible, normalised by URL to ::7f00:1'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', 'mapped, long spelling'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'NAT64 of metadata'],
    ['http://[fec0::1]/', 'site-local'],
    ['http://0x7f000001/', 'hex IPv4'],
    ['http://2130706433/', 'decimal IPv4'],
    ['http://017700000001/', 'octal IPv4'],
    ['http://127.1/', 'short IPv4'],
  ];
  for (const [url, what] of literals)
    it(`refuses the URL literal ${url} (${what})`, () => {
      expect(() => guard.checkUrl(url)).to.throw(/SSRF protection/);
    });

  it('an IPv4 allow entry covers that address and its IPv4-mapped form, no other embedding', () => {
    const dev = new SsrfGuard(parseAllowList('127.0.0.1/32'));
    expect(dev.refusal('127.0.0.1')).to.equal(undefined);
    expect(dev.refusal('::ffff:127.0.0.1')).to.equal(undefined);
    expect(dev.refusal('::ffff:7f00:1')).to.equal(undefined);
    expect(dev.refusal('127.0.0.2')).to.match(/SSRF/);
    expect(dev.refusal('::127.0.0.1')).to.match(/SSRF/);
    expect(dev.refusal('64:ff9b::7f00:1')).to.match(/SSRF/);
    expect(dev.refusal('2002:7f00:1::1')).to.match(/SSRF/);
    expect(new SsrfGuard(parseAllowList('::1/128')).refusal('::1')).to.equal(undefined);
    expect(new SsrfGuard(parseAllowList('fd00::/8')).refusal('fd00:ec2::254')).to.equal(undefined);
  });

  it('names the embedded address and why in the refusal', () => {
    expect(guard.refusal('2002:a9fe:a9fe::1')).to.contain('6to4, carrying 169.254.169.254');
    expect(guard.refusal('::ffff:0:a9fe:a9fe')).to.contain('169.254.169.254: link-local');
    expect(guard.refusal('not-an-address')).to.match(/not an IP address/);
  });

  it('parses allow-lists and refuses bad entries naming the variable', () => {
    expect(() => parseAllowList('not-an-address')).to.throw(/WEBHOOK_SSRF_ALLOW/);
    expect(() => parseAllowList('10.0.0.0/x', 'CONNECTOR_SSRF_ALLOW')).to.throw(
      /CONNECTOR_SSRF_ALLOW/,
    );
  });

  describe('at connect time', () => {
    let sink: Sink;
    before(async () => {
      sink = await startSink();
    });
    after(async () => sink?.close());

    it('refuses a host name that resolves to loopback, and an IP literal before sending', async () => {
      const { httpAgent } = guard.agents();
      const port = new URL(sink.url).port;
      const err = await new Promise<Error>((resolve, reject) => {
        const req = get(`http://localhost:${port}/x`, { agent: httpAgent, timeout: 2000 }, () =>
          reject(new Error('the request reached the sink')),
        );
        req.on('error', resolve);
      });
      httpAgent.destroy();
      expect(err.message).to.match(/SSRF/);
      expect(sink.received).to.have.length(0);
      expect(() => guard.checkUrl(`http://[::1]:${port}/x`)).to.throw(/SSRF/);
    });
  });
});
