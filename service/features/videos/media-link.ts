/**
 * Signed links to a participants-only video's files: the path names the video, the query carries an
 * expiry and an HMAC of both under the data file's secret. A link opens the video's files (picture
 * and captions) until it expires, for whoever holds it; it carries no token, so a link that leaks
 * (a shared address, a log) dies within MEDIA_LINK_TTL_MS.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a signed link works (service clock): long enough to start and seek, short enough to leak little. */
export const MEDIA_LINK_TTL_MS = 10 * 60 * 1000;

const mac = (secret: string, videoId: string, expires: number) =>
  createHmac('sha256', secret).update(`video-media\n${videoId}\n${expires}`).digest('base64url');

/** `?expires=<ms>&signature=<mac>` for the video's files, and when it expires. */
export function signMediaLink(secret: string, videoId: string, now: number): { query: string; expiresAt: number } {
  const expiresAt = now + MEDIA_LINK_TTL_MS;
  return { query: `?expires=${expiresAt}&signature=${mac(secret, videoId, expiresAt)}`, expiresAt };
}

/** `valid`, `expired` (genuine but old) or `invalid` (missing, altered, another video's). */
export function checkMediaLink(
  secret: string,
  videoId: string,
  expires: string | undefined,
  signature: string | undefined,
  now: number,
): 'valid' | 'expired' | 'invalid' {
  // The expiry too, as written: no leading zeros.
  if (!expires || !signature || !/^[1-9]\d{0,14}$/.test(expires)) return 'invalid';
  const given = Buffer.from(signature, 'base64url');
  // Only the one spelling the service writes: Node's decoder also takes standard base64, padding and
  // stray bits, so that other strings would pass for the same signature.
  if (given.toString('base64url') !== signature) return 'invalid';
  const expected = Buffer.from(mac(secret, videoId, Number(expires)), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Number(expires) > now ? 'valid' : 'expired';
}
