import { BlockList, isIP } from 'node:net';

/**
 * Which IP addresses requests made on a customer's behalf (webhook deliveries, SSO discovery, JWKS, token
 * endpoint and domain proofs) must never reach: everything that is not a public unicast address, the cloud
 * metadata services, and every IPv6 form that carries an IPv4 address inside unless that IPv4 is public.
 */

const blockedV4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT, includes Alibaba Cloud's 100.100.100.200 metadata service
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, includes the 169.254.169.254 metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast
] as const) {
  blockedV4.addSubnet(network, prefix, 'ipv4');
}
/** Metadata services, named even where a range above already covers them (168.63.129.16 is public range). */
export const METADATA_ADDRESSES = ['169.254.169.254', '168.63.129.16', '100.100.100.200', 'fd00:ec2::254'];
for (const address of METADATA_ADDRESSES)
  blockedV4.addAddress(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

const blockedV6 = new BlockList();
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique local, includes the fd00:ec2::254 metadata service
  ['fe80::', 10],
  ['ff00::', 8], // multicast
  ['100::', 64], // discard-only
] as const) {
  blockedV6.addSubnet(network, prefix, 'ipv6');
}
/** ::/8 is reserved; only its IPv4-embedding forms (judged by their IPv4) can be reached. */
const reservedV6 = new BlockList();
reservedV6.addSubnet('::', 8, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (zone id dropped, embedded dotted quad folded in). */
function hextets(address: string): number[] | undefined {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const groups =
    halves.length === 2 ? [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail] : head;
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff))
    return undefined;
  return groups;
}

const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
const zero = (groups: number[]) => groups.every((g) => g === 0);

/**
 * The IPv4 addresses an IPv6 address carries, by the form it has: IPv4-compatible (::/96), IPv4-mapped
 * (::ffff:0:0/96), SIIT (::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32:
 * server and obfuscated client). `'unknowable'` for local-use NAT64 (64:ff9b:1::/48), whose translation prefix
 * is the operator's; undefined for an address of no such form.
 */
export function embeddedIpv4(address: string): string[] | 'unknowable' | undefined {
  const h = hextets(address);
  if (!h) return undefined;
  if (zero(h.slice(0, 5)) && (h[5] === 0 || h[5] === 0xffff)) return [v4(h[6]!, h[7]!)];
  if (zero(h.slice(0, 4)) && h[4] === 0xffff && h[5] === 0) return [v4(h[6]!, h[7]!)];
  if (h[0] === 0x64 && h[1] === 0xff9b) {
    if (zero(h.slice(2, 6))) return [v4(h[6]!, h[7]!)];
    if (h[2] === 1) return 'unknowable';
    return undefined;
  }
  if (h[0] === 0x2002) return [v4(h[1]!, h[2]!)];
  if (h[0] === 0x2001 && h[1] === 0) return [v4(h[2]!, h[3]!), v4(~h[6]! & 0xffff, ~h[7]! & 0xffff)];
  return undefined;
}

/** Whether a request on a customer's behalf must never connect to `address` (not a public address). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address.split('%')[0]!);
  if (family === 0) return true;
  if (family === 4) return blockedV4.check(address, 'ipv4');
  const bare = address.split('%')[0]!;
  if (blockedV6.check(bare, 'ipv6') || blockedV4.check(bare, 'ipv6')) return true;
  const embedded = embeddedIpv4(bare);
  if (embedded === 'unknowable') return true;
  if (embedded === undefined && reservedV6.check(bare, 'ipv6')) return true;
  return embedded?.some((inner) => blockedV4.check(inner, 'ipv4')) === true;
}
