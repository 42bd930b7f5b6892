/**
 * What both passwordless logins share (the REST API's users, the widget API's participants):
 * 6-digit PINs stored as hashes, constant-time comparison, how long an emailed link lives, and the
 * client address rate limits are counted by.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppContext } from './context.ts';
import { sha256Hex } from './ids.ts';

/** A PIN is valid for 5 minutes of the service clock, once, for 5 tries. */
export const PIN_TTL_MS = 5 * 60 * 1000;
export const PIN_MAX_ATTEMPTS = 5;
/**
 * An emailed link's token that has never been used dies after an hour of the service clock; its
 * first use within the hour makes it an ordinary token (long-lived for REST users, 30 days for
 * participants). A link lying in a mailbox for months must not open an account.
 */
export const LINK_TTL_MS = 60 * 60 * 1000;

export function newPin(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** `salt` names whose PIN it is (an email, or a company and an email). */
export function pinHash(salt: string, pin: string): string {
  return sha256Hex(`pin:${salt}:${pin}`);
}

/** Compares two hex digests in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `::ffff:127.0.0.1` is 127.0.0.1. */
const plainAddress = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').toLowerCase();

/**
 * The address of the client, for rate limits: the connection's peer, unless that peer is a trusted
 * proxy; then `X-Forwarded-For` is read from the right, past every trusted proxy, to the first
 * address a trusted proxy saw. Anyone else's `X-Forwarded-For` is ignored: it is whatever the
 * client wanted to write.
 */
export function clientAddress(c: AppContext, trustProxy: readonly string[] = []): string {
  let peer: string;
  try {
    peer = plainAddress(getConnInfo(c).remote.address ?? 'unknown');
  } catch {
    peer = 'unknown';
  }
  const trusted = (address: string) => trustProxy.includes(address);
  if (!trusted(peer)) return peer;
  const hops = (c.req.header('x-forwarded-for') ?? '').split(',').map((hop) => plainAddress(hop.trim())).filter(Boolean);
  let client = peer;
  while (hops.length > 0 && trusted(client)) {
    const hop = hops.pop()!;
    // Something that is no address ends the chain: count it as is (bounded), never as the proxy.
    client = isIP(hop) ? hop : `invalid:${hop.slice(0, 64)}`;
  }
  return client;
}
