/**
 * Which addresses a notification may be sent to (docs/notifications.md, docs/security.md): a
 * channel's URL is chosen by a person with a key, and the request goes out from inside the
 * deployment, so a URL naming this machine or its private network would let that person reach what
 * only the service can (its metrics port, the database, a cloud's metadata service at 169.254.169.254).
 * Every address a host name resolves to is classed here, IPv4 and IPv6 alike, an IPv6 address that
 * carries an IPv4 one (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) as
 * the IPv4 address it carries. Pure: src/notifications/outbound.ts resolves and connects.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** Why an address is not one a notification goes to; null for a public address. */
export type AddressClass =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'reserved'
  | 'not an IP address';

/** [first octets' value, prefix length, class] of the IPv4 ranges refused. */
const V4_RANGES: ReadonlyArray<readonly [number, number, number, number, number, AddressClass]> = [
  [0, 0, 0, 0, 8, 'unspecified'], // "this network"
  [10, 0, 0, 0, 8, 'private'],
  [100, 64, 0, 0, 10, 'private'], // carrier-grade NAT, shared address space
  [127, 0, 0, 0, 8, 'loopback'],
  [169, 254, 0, 0, 16, 'link-local'], // cloud metadata services live here
  [172, 16, 0, 0, 12, 'private'],
  [192, 0, 0, 0, 24, 'reserved'], // IETF protocol assignments
  [192, 168, 0, 0, 16, 'private'],
  [198, 18, 0, 0, 15, 'reserved'], // benchmarking networks
  [224, 0, 0, 0, 4, 'multicast'],
  [240, 0, 0, 0, 4, 'reserved'], // and the broadcast address
];

function v4Number(address: string): number {
  return address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function classOfV4(address: string): AddressClass | null {
  const n = v4Number(address);
  for (const [a, b, c, d, bits, kind] of V4_RANGES) {
    const base = v4Number(`${a}.${b}.${c}.${d}`);
    const size = 2 ** (32 - bits);
    if (n >= base && n < base + size) return kind;
  }
  return null;
}

/** An IPv6 address as its eight 16-bit groups (a trailing dotted IPv4 part counted as two). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, ''); // a zone (fe80::1%eth0) names an interface
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4Number(dotted[1]);
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address in the last 32 bits of `g`. */
const v4Of = (g: number[]) => [g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff].join('.');

function classOfV6(address: string): AddressClass | null {
  const g = v6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && g[7] === 1) return 'loopback';
  // An IPv4 address carried in IPv6 reaches that IPv4 address: it is classed as one.
  if (zeros(0, 5) && g[5] === 0xffff) return classOfV4(v4Of(g)) ?? null; // mapped
  if (zeros(0, 6)) return classOfV4(v4Of(g)) ?? 'reserved'; // compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return classOfV4(v4Of(g)); // NAT64
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xffc0) === 0xfec0) return 'private'; // site-local (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  return null;
}

/**
 * Why `address` (an IP address, as DNS or a URL gives it, IPv6 with or without brackets) is not one
 * a notification may be sent to: `loopback`, `private`, `link-local`, `unique-local`, `multicast`,
 * `unspecified` or `reserved`; null when it is a public address.
 */
export function addressClass(address: string): AddressClass | null {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  if (isIPv4(bare)) return classOfV4(bare);
  if (isIPv6(bare)) return classOfV6(bare);
  return 'not an IP address';
}
