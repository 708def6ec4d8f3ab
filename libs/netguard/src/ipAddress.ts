// IP addresses as bytes (4 or 16), whatever their spelling, and prefix tests on those bytes.
import { isIP } from 'node:net';

export type IpBytes = Uint8Array;

function ipv4Bytes(text: string): IpBytes {
  return Uint8Array.from(text.split('.').map(Number));
}

/** The 16 bytes of an IPv6 address Node accepts (zone id, embedded dotted quad, `::` anywhere). */
function ipv6Bytes(text: string): IpBytes {
  let spelled = text.replace(/%.*$/, '').toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(spelled)?.[1];
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(dotted);
    spelled = `${spelled.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = spelled.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const zeros = Array<string>(8 - front.length - back.length).fill('0');
  const bytes = new Uint8Array(16);
  [...front, ...zeros, ...back].forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
}

/** undefined when `text` is not an IP address. */
export function parseIp(text: string): IpBytes | undefined {
  const version = isIP(text);
  if (version === 4) return ipv4Bytes(text);
  if (version === 6) return ipv6Bytes(text);
  return undefined;
}

export function formatIpv4(bytes: IpBytes): string {
  return Array.from(bytes.subarray(0, 4)).join('.');
}

export interface Prefix {
  bytes: IpBytes;
  bits: number;
}

/** "10.0.0.0/8" or "fe80::/10"; throws on anything else (the tables are ours). */
export function prefix(cidr: string): Prefix {
  const [address = '', bits = ''] = cidr.split('/');
  const bytes = parseIp(address);
  if (!bytes || !/^\d+$/.test(bits)) throw new Error(`not a CIDR: ${cidr}`);
  return { bytes, bits: Number(bits) };
}

export function inPrefix(address: IpBytes, range: Prefix): boolean {
  if (address.length !== range.bytes.length) return false;
  for (let bit = 0; bit < range.bits; bit += 8) {
    const take = Math.min(8, range.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    const i = bit / 8;
    if (((address[i] ?? 0) & mask) !== ((range.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}
