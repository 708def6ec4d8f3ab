// SSRF protection: an outgoing call (callback, token URL, provider) may not reach loopback, private, link-local, CGNAT or
// metadata addresses. Checked on the resolved address at connect time (the lookup the socket
// uses), so a DNS answer that changes after a check (rebinding) cannot slip through.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export class BlockedTarget extends Error {
  override name = 'BlockedTarget';
  readonly code = 'EBLOCKEDTARGET';
}

const FORBIDDEN: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 3, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
  // IPv6 forms that carry an IPv4 address a gateway may translate: NAT64 and 6to4
  ['64:ff9b::', 96, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['2002::', 16, 'ipv6'],
];

function family(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

/** "127.0.0.1", "127.0.0.0/8", "::1/128" entries, comma separated; `variable` names the setting. */
export function parseAllowList(setting: string, variable = 'WEBHOOK_SSRF_ALLOW'): BlockList {
  const allowed = new BlockList();
  for (const raw of setting
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address = '', bits] = raw.split('/');
    if (!isIP(address)) throw new Error(`${variable}: ${raw} is not an address or CIDR`);
    const type = family(address);
    if (bits === undefined) allowed.addAddress(address, type);
    else allowed.addSubnet(address, Number(bits), type);
  }
  return allowed;
}

export class SsrfGuard {
  private readonly forbidden = new BlockList();

  constructor(private readonly allowed: BlockList) {
    for (const [net, bits, type] of FORBIDDEN) this.forbidden.addSubnet(net, bits, type);
  }

  /** undefined when the address may be reached, else why not. */
  refusal(address: string): string | undefined {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const plain = mapped ?? address;
    const type = family(plain);
    if (this.allowed.check(plain, type)) return undefined;
    if (this.forbidden.check(plain, type))
      return `target address ${plain} is loopback, private, link-local or metadata; refused (SSRF protection)`;
    return undefined;
  }

  /** The socket's DNS lookup, keeping only addresses that may be reached. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const usable = addresses.filter((a) => !this.refusal(a.address));
      const first = usable[0];
      if (!first) {
        const reason = this.refusal(addresses[0]?.address ?? '') ?? `${hostname} did not resolve`;
        return callback(new BlockedTarget(`${hostname}: ${reason}`), '', 4);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, first.address, first.family);
    });
  };

  /** A URL whose host is an IP literal never reaches lookup: checked here before sending. */
  checkUrl(url: string): void {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (!isIP(host)) return;
    const reason = this.refusal(host);
    if (reason) throw new BlockedTarget(reason);
  }

  agents(): { httpAgent: http.Agent; httpsAgent: https.Agent } {
    const options = { keepAlive: true, lookup: this.lookup };
    return { httpAgent: new http.Agent(options), httpsAgent: new https.Agent(options) };
  }
}
