import { BlockList, isIP } from 'node:net';
import type { Next } from 'koa';
import type { AppContext } from '../context.ts';

/** The peers whose `X-Forwarded-For` is believed (TRUSTED_PROXIES: IP addresses and CIDR blocks). */
export class TrustedProxies {
  readonly #list = new BlockList();
  readonly size: number;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = '', prefix] = entry.split('/');
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.#list.addAddress(address, type);
      else this.#list.addSubnet(address, Number(prefix), type);
    }
    this.size = entries.length;
  }

  has(address: string): boolean {
    const family = isIP(address);
    if (this.size === 0 || family === 0) return false;
    return this.#list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/** `::ffff:10.0.0.1` → `10.0.0.1`, so IPv4 peers on a dual-stack socket match IPv4 rules and buckets. */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** One X-Forwarded-For entry as an address: `203.0.113.7`, `203.0.113.7:5123`, `[2001:db8::1]:443`. */
function forwardedAddress(entry: string): string | undefined {
  let address = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(address))
    address = address.slice(0, address.lastIndexOf(':'));
  return isIP(address) ? unmapped(address) : undefined;
}

/**
 * The address of the client: the socket's peer, unless that peer is a trusted proxy; then the right-most
 * X-Forwarded-For entry that is not itself a trusted proxy (entries further left are whatever the client
 * sent and are never believed). If every entry is a trusted proxy, the left-most one; a malformed entry
 * stops the walk at the last address believed so far.
 */
export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string,
  trusted: TrustedProxies,
): string {
  let client = peer ? unmapped(peer) : 'unknown';
  if (!trusted.has(client) || forwardedFor === '') return client;
  const hops = forwardedFor.split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = forwardedAddress(hops[i]!);
    if (hop === undefined) break;
    client = hop;
    if (!trusted.has(hop)) break;
  }
  return client;
}

/** Sets `ctx.state.clientAddress`, the one address the rate limit and the request log use. */
export function clientAddress(trusted: TrustedProxies) {
  return async (ctx: AppContext, next: Next) => {
    ctx.state.clientAddress = resolveClientAddress(
      ctx.req.socket.remoteAddress,
      ctx.get('x-forwarded-for'),
      trusted,
    );
    await next();
  };
}
