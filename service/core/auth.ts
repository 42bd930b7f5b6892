/**
 * What both passwordless logins share (the REST API's users, the widget API's participants):
 * 6-digit PINs stored as hashes, constant-time comparison, and how long an emailed link lives.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
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
