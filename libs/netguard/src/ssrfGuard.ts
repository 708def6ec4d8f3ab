// SSRF protection: an outgoing call (callback, token URL, provider) may reach public unicast
// addresses only (addressPolicy.ts), unless allow-listed. Checked on the resolved address at connect
// time (the lookup the socket uses), so a DNS answer that changes after a check (rebinding) cannot
// slip through; IP literals, which skip the lookup, are checked before the call.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { addressRefusal, mappedIpv4 } from './addressPolicy.ts';
import { formatIpv4, parseIp } from './ipAddress.ts';

/** The `code` of a refusal, kept when a client library wraps the error. */
export const BLOCKED_TARGET_CODE = 'EBLOCKEDTARGET';

export class BlockedTarget extends Error {
  override name = 'BlockedTarget';
  readonly code = BLOCKED_TARGET_CODE;
}

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
    const widest = type === 'ipv6' ? 128 : 32;
    if (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= widest))
      throw new Error(`${variable}: ${raw} has a bad prefix length`);
    if (bits === undefined) allowed.addAddress(address, type);
    else allowed.addSubnet(address, Number(bits), type);
  }
  return allowed;
}

export class SsrfGuard {
  constructor(private readonly allowed: BlockList) {}

  private isAllowed(address: string, bytes: Uint8Array): boolean {
    if (this.allowed.check(address, family(address))) return true;
    // an IPv4-mapped address is the IPv4 socket itself: an IPv4 allow entry covers it
    const ipv4 = mappedIpv4(bytes);
    return ipv4 !== undefined && this.allowed.check(formatIpv4(ipv4), 'ipv4');
  }

  /** undefined when the address may be reached, else why not. */
  refusal(address: string): string | undefined {
    const plain = address.replace(/^\[|\]$/g, '');
    const bytes = parseIp(plain);
    if (!bytes) return `target address ${plain} is not an IP address; refused (SSRF protection)`;
    if (this.isAllowed(plain.replace(/%.*$/, ''), bytes)) return undefined;
    const why = addressRefusal(bytes);
    return why
      ? `target address ${plain} is not public (${why}); refused (SSRF protection)`
      : undefined;
  }

  /** The socket's DNS lookup, keeping only addresses that may be reached. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const usable = addresses.filter((a) => !this.refusal(a.address));
      const first = usable[0];
      if (!first) {
        const refused = addresses[0]?.address;
        const reason = refused ? this.refusal(refused) : `${hostname} did not resolve`;
        return callback(new BlockedTarget(`${hostname}: ${reason ?? 'refused'}`), '', 4);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, first.address, first.family);
    });
  };

  /** A URL whose host is an IP literal never reaches lookup: checked here before sending. */
  checkUrl(url: string): void {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (!isIP(host.replace(/%.*$/, ''))) return;
    const reason = this.refusal(host);
    if (reason) throw new BlockedTarget(reason);
  }

  agents(): { httpAgent: http.Agent; httpsAgent: https.Agent } {
    const options = { keepAlive: true, lookup: this.lookup };
    return { httpAgent: new http.Agent(options), httpsAgent: new https.Agent(options) };
  }
}
