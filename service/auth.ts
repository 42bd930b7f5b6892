/**
 * What both passwordless logins share (the REST API's users, the widget API's participants):
 * 6-digit PINs stored as hashes, constant-time comparison, and the client address rate limits
 * are counted by.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppContext } from './context.ts';
import { sha256Hex } from './ids.ts';

/** A PIN is valid for 5 minutes of the service clock, once, for 5 tries. */
export const PIN_TTL_MS = 5 * 60 * 1000;
export const PIN_MAX_ATTEMPTS = 5;

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

export function clientAddress(c: AppContext): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
