/**
 * Which IP addresses FOLIO_WEBHOOK_DENY_PRIVATE keeps webhooks away from: everything that is
 * not a public unicast address (loopback, RFC 1918 and unique local, link-local, shared
 * address space, "this network", multicast, reserved, documentation and benchmarking ranges).
 * IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible
 * `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`) are judged by that address.
 * Pure: no lookups, no state.
 */
import { isIP } from 'node:net';

type Range = [base: bigint, bits: number, kind: string];

const V4: Range[] = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
].map(([ip, bits, kind]) => [v4(ip as string)!, bits as number, kind as string]);

const V6: Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'private'],
  ['100::', 64, 'reserved'],
  ['2001:2::', 48, 'benchmarking'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'private (unique local)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (private)'],
  ['ff00::', 8, 'multicast'],
].map(([ip, bits, kind]) => [v6(ip as string)!, bits as number, kind as string]);

/** IPv6 prefixes whose address carries an IPv4 one: [prefix, prefix length, shift of the IPv4 bits]. */
const EMBEDS_V4: [bigint, number, bigint][] = [
  [v6('::ffff:0:0')!, 96, 0n], // IPv4-mapped
  [v6('::')!, 96, 0n], // IPv4-compatible (deprecated)
  [v6('64:ff9b::')!, 96, 0n], // NAT64
  [v6('2002::')!, 16, 80n], // 6to4
];

const within = (value: bigint, width: number, base: bigint, bits: number) => value >> BigInt(width - bits) === base >> BigInt(width - bits);

/**
 * The kind of address `ip` is when it is not a public one ("loopback", "private",
 * "link-local", …), undefined for a public address. Text that is no IP address at all is
 * "unrecognised" (refused too: the caller asked about an address).
 */
export function nonPublicAddress(ip: string): string | undefined {
  const address = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(address);
  if (family === 4) return kind4(v4(address)!);
  if (family !== 6) return 'unrecognised';
  const value = v6(address);
  if (value === undefined) return 'unrecognised';
  for (const [base, bits, kind] of V6) if (within(value, 128, base, bits)) return kind;
  for (const [base, bits, shift] of EMBEDS_V4) {
    if (within(value, 128, base, bits)) {
      const kind = kind4((value >> shift) & 0xffffffffn);
      // An IPv4-compatible address is deprecated whatever it carries.
      return kind ?? (bits === 96 && base === 0n ? 'reserved' : undefined);
    }
  }
  return undefined;
}

/** The IP address a URL's host names, without brackets, or undefined when the host is a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) ? bare : undefined;
}

function kind4(value: bigint): string | undefined {
  for (const [base, bits, kind] of V4) if (within(value, 32, base, bits)) return kind;
  return undefined;
}

function v4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => (n << 8n) | BigInt(p), 0n);
}

function v6(text: string): bigint | undefined {
  let tail: bigint[] = [];
  let body = text;
  // A trailing dotted quad is the last two groups.
  const dotted = body.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const four = v4(dotted[2]!);
    if (four === undefined) return undefined;
    tail = [four >> 16n, four & 0xffffn];
    body = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return undefined;
  const all = [...head.map((g) => BigInt(`0x${g}`)), ...Array(8 - known).fill(0n), ...rest.map((g) => BigInt(`0x${g}`)), ...tail];
  return all.reduce((n, g) => (n << 16n) | g, 0n);
}

/** For `sendWebhook`'s `refuseAddress` under FOLIO_WEBHOOK_DENY_PRIVATE: "a loopback address (…)", or undefined. */
export function refuseNonPublic(ip: string): string | undefined {
  const kind = nonPublicAddress(ip);
  return kind && `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address (FOLIO_WEBHOOK_DENY_PRIVATE)`;
}
