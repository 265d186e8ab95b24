/**
 * Whose request it is: the address refusals are counted by (wrong credentials, src/core/http-errors.ts) and
 * connections capped by. A request's `X-Forwarded-For` is believed only when the connection comes
 * from a proxy the operator trusts (TRUST_PROXY), and then only its last entry (the address that
 * proxy saw): a sender who connects directly cannot name another client's address, and so cannot
 * choose whose allowance its refusals use up.
 *
 * TRUST_PROXY: `0` (the default: no proxy), `1` (a proxy on this host or a private network:
 * loopback, RFC 1918, unique local and link-local addresses, which is where the cluster's and
 * compose's nginx are), or a comma-separated list of addresses and CIDR ranges.
 */
import type { Middleware } from 'koa';
import { BlockList, isIP } from 'node:net';

/** What TRUST_PROXY=1 trusts: addresses no sender on the internet can connect from. */
export const PRIVATE_NETWORKS = [
  '127.0.0.0/8',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '169.254.0.0/16',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
];

/** An address or a CIDR range as TRUST_PROXY takes them, or null when it is neither. */
function range(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address, bits, ...rest] = text.trim().split('/');
  const version = isIP(address);
  if (!version || rest.length > 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** TRUST_PROXY's ranges, or why the setting is not one (for the configuration's message). */
export function trustedProxyRanges(setting: string): string[] | { problem: string } {
  if (setting === '0' || setting === '') return [];
  if (setting === '1') return PRIVATE_NETWORKS;
  const ranges = setting.split(',').map((s) => s.trim());
  const bad = ranges.find((r) => range(r) === null);
  return bad === undefined ? ranges : { problem: `"${bad}" is not an address or a CIDR range (0, 1 or a list)` };
}

export class TrustedProxies {
  private readonly list = new BlockList();
  private readonly any: boolean;

  constructor(ranges: readonly string[]) {
    for (const text of ranges) {
      const r = range(text)!;
      this.list.addSubnet(r.address, r.prefix, r.family);
    }
    this.any = ranges.length > 0;
  }

  /** The client's address: the peer's, or the last `X-Forwarded-For` entry when the peer is a trusted proxy. */
  clientAddress(peer: string | undefined, forwardedFor: string | undefined): string {
    const address = peer ?? '';
    if (!this.any || !forwardedFor || !this.trusts(address)) return address;
    const last = forwardedFor.split(',').at(-1)!.trim();
    return isIP(last) ? last : address;
  }

  /** Whether a peer is one of the proxies. */
  trusts(address: string): boolean {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
    const plain = mapped ? mapped[1] : address;
    const version = isIP(plain);
    return version !== 0 && this.list.check(plain, version === 4 ? 'ipv4' : 'ipv6');
  }
}

/** Sets each request's `ctx.ip` to its client's address, as `proxies` tell it. */
export function clientAddresses(proxies: TrustedProxies): Middleware {
  return async (ctx, next) => {
    ctx.request.ip = proxies.clientAddress(ctx.req.socket.remoteAddress, ctx.get('x-forwarded-for') || undefined);
    await next();
  };
}
