// Which addresses an outgoing call may reach: public unicast only. An IPv6 address that carries an
// IPv4 address (mapped, compatible, SIIT, NAT64, 6to4, Teredo, ISATAP) is judged by the IPv4
// address a host, gateway or relay would send to, under the IPv4 rules.
import { formatIpv4, inPrefix, prefix, type IpBytes, type Prefix } from './ipAddress.ts';

type Rule = [Prefix, string];
const rules = (table: [string, string][]): Rule[] =>
  table.map(([cidr, why]) => [prefix(cidr), why]);

const IPV4_REFUSED = rules([
  ['0.0.0.0/8', '"this network"'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared address space (CGNAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local (cloud metadata)'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved or broadcast'],
]);

/** Judged before any embedded IPv4 address is looked for. */
const IPV6_REFUSED_FIRST = rules([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  // where the IPv4 address sits depends on the operator's prefix length (RFC 6052)
  ['64:ff9b:1::/48', 'local-use NAT64'],
]);

/** Outside global unicast (2000::/3) everything is refused; these name the reason. */
const IPV6_NOT_GLOBAL = rules([
  ['100::/64', 'discard-only'],
  ['fc00::/7', 'unique local (private)'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
]);
const GLOBAL_UNICAST = prefix('2000::/3');

const IPV6_SPECIAL_GLOBAL = rules([
  ['2001:2::/48', 'benchmarking'],
  ['2001:10::/28', 'ORCHID'],
  ['2001:20::/28', 'ORCHIDv2'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
]);

const xor = (bytes: IpBytes) => bytes.map((b) => b ^ 0xff);

interface Embedding {
  form: string;
  matches(address: IpBytes): boolean;
  ipv4(address: IpBytes): IpBytes[];
  /** the IPv6 address stands for the IPv4 one alone; else both must pass (ISATAP under fe80::) */
  standsFor: boolean;
}

const within = (cidr: string) => {
  const range = prefix(cidr);
  return (address: IpBytes) => inPrefix(address, range);
};
const last32 = (address: IpBytes) => [address.subarray(12, 16)];

const EMBEDDINGS: Embedding[] = [
  { form: 'IPv4-mapped', matches: within('::ffff:0:0/96'), ipv4: last32, standsFor: true },
  { form: 'IPv4-compatible', matches: within('::/96'), ipv4: last32, standsFor: true },
  {
    form: 'IPv4-translated (SIIT)',
    matches: within('::ffff:0:0:0/96'),
    ipv4: last32,
    standsFor: true,
  },
  { form: 'NAT64', matches: within('64:ff9b::/96'), ipv4: last32, standsFor: true },
  {
    form: '6to4',
    matches: within('2002::/16'),
    ipv4: (a) => [a.subarray(2, 6)],
    standsFor: false,
  },
  {
    // server, then the client's address, which Teredo stores inverted
    form: 'Teredo',
    matches: within('2001::/32'),
    ipv4: (a) => [a.subarray(4, 8), xor(a.subarray(12, 16))],
    standsFor: false,
  },
  {
    // interface id 0000:5efe or 0200:5efe (u/g bits aside) under any prefix (RFC 5214)
    form: 'ISATAP',
    matches: (a) => (a[8]! & 0xfc) === 0 && a[9] === 0 && a[10] === 0x5e && a[11] === 0xfe,
    ipv4: last32,
    standsFor: false,
  },
];

function firstRule(address: IpBytes, table: Rule[]): string | undefined {
  return table.find(([range]) => inPrefix(address, range))?.[1];
}

function ipv4Refusal(address: IpBytes): string | undefined {
  return firstRule(address, IPV4_REFUSED);
}

function ipv6Refusal(address: IpBytes): string | undefined {
  const first = firstRule(address, IPV6_REFUSED_FIRST);
  if (first) return first;
  const embedding = EMBEDDINGS.find((e) => e.matches(address));
  if (embedding) {
    for (const ipv4 of embedding.ipv4(address)) {
      const why = ipv4Refusal(ipv4);
      if (why) return `${embedding.form}, carrying ${formatIpv4(ipv4)}: ${why}`;
    }
    if (embedding.standsFor) return undefined;
  }
  if (!inPrefix(address, GLOBAL_UNICAST))
    return firstRule(address, IPV6_NOT_GLOBAL) ?? 'reserved, not global unicast';
  return firstRule(address, IPV6_SPECIAL_GLOBAL);
}

/** Why an outgoing call may not reach `address` (4 or 16 bytes), or undefined when it may. */
export function addressRefusal(address: IpBytes): string | undefined {
  return address.length === 4 ? ipv4Refusal(address) : ipv6Refusal(address);
}

/** The IPv4 address an IPv4-mapped IPv6 address is (the same socket), else undefined. */
export function mappedIpv4(address: IpBytes): IpBytes | undefined {
  return address.length === 16 && EMBEDDINGS[0]!.matches(address)
    ? address.subarray(12, 16)
    : undefined;
}
