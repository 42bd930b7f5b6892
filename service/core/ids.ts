import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Compares two hex digests in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A record id such as `reg_Jm3k9Q2xWb7TnA4e`: 96 random bits, URL-safe. */
export function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}

/** An opaque bearer token: 256 random bits. Only its sha256 is stored. */
export function randomToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Epoch milliseconds as the APIs show times: ISO 8601 UTC. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
