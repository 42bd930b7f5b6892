/** The client address the rate limits count by. */
import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppContext } from './context.ts';

/** `::ffff:127.0.0.1` is 127.0.0.1. */
const plainAddress = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').toLowerCase();

/**
 * An IPv6 address counts as its /64: a household or a server is given a whole /64 and may use any
 * address in it, so that counting each address would let one client pass every limit.
 */
export function limitedAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  const plain = address.split('%')[0]!;
  // An IPv4 tail (`64:ff9b::192.0.2.1`) is two groups.
  const hex = plain.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [(+a << 8) | +b, (+c << 8) | +d].map((n) => n.toString(16)).join(':'),
  );
  const [head = '', tail] = hex.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The address of the client, for rate limits: the connection's peer, unless that peer is a trusted
 * proxy; then `X-Forwarded-For` is read from the right, past every trusted proxy, to the first
 * address a trusted proxy saw. Anyone else's `X-Forwarded-For` is ignored: it is whatever the
 * client wanted to write.
 */
export function clientAddress(c: AppContext, trustProxy: readonly string[] = []): string {
  return limitedAddress(connectionClient(c, trustProxy));
}

function connectionClient(c: AppContext, trustProxy: readonly string[]): string {
  let peer: string;
  try {
    peer = plainAddress(getConnInfo(c).remote.address ?? 'unknown');
  } catch {
    peer = 'unknown';
  }
  const trusted = proxyMatcher(trustProxy);
  if (!trusted(peer)) return peer;
  const hops = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((hop) => plainAddress(hop.trim()))
    .filter(Boolean);
  let client = peer;
  while (hops.length > 0 && trusted(client)) {
    const hop = hops.pop()!;
    // Something that is no address ends the chain: count it as is (bounded), never as the proxy.
    client = isIP(hop) ? hop : `invalid:${hop.slice(0, 64)}`;
  }
  return client;
}

const matchers = new WeakMap<readonly string[], (address: string) => boolean>();
/** Whether an address is one of the trusted proxies: an address, or a network (`10.0.0.0/8`, `fd00::/8`). */
function proxyMatcher(trustProxy: readonly string[]): (address: string) => boolean {
  let matcher = matchers.get(trustProxy);
  if (!matcher) {
    const networks = new BlockList();
    for (const entry of trustProxy) {
      const [address, prefix] = entry.split('/');
      if (prefix !== undefined && isIP(address!))
        networks.addSubnet(address!, Number(prefix), isIP(address!) === 6 ? 'ipv6' : 'ipv4');
    }
    matcher = (address: string) => {
      if (trustProxy.includes(address)) return true;
      const family = isIP(address);
      return family !== 0 && networks.check(address, family === 6 ? 'ipv6' : 'ipv4');
    };
    matchers.set(trustProxy, matcher);
  }
  return matcher;
}
