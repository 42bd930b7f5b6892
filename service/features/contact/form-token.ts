/** The contact form's token: when the form was shown, signed, and a nonce that sends one message. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** `ft1.<issued, base 36 ms>.<nonce>.<HMAC of the widget key, the time and the nonce>`. */
export function signFormToken(secret: string, widgetKey: string, issuedAt: number): string {
  const payload = `${Math.floor(issuedAt).toString(36)}.${randomBytes(9).toString('base64url')}`;
  return `ft1.${payload}.${formMac(secret, widgetKey, payload)}`;
}

/** The issue time and nonce a genuine token of this widget key carries, or undefined. */
export function readFormToken(secret: string, widgetKey: string, token: string): { issuedAt: number; nonce: string } | undefined {
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== 'ft1' || !/^[0-9a-z]{1,11}$/.test(parts[1]!)) return undefined;
  const payload = `${parts[1]}.${parts[2]}`;
  const given = Buffer.from(parts[3]!, 'base64url');
  const expected = Buffer.from(formMac(secret, widgetKey, payload), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return { issuedAt: parseInt(parts[1]!, 36), nonce: parts[2]! };
}

function formMac(secret: string, widgetKey: string, payload: string): string {
  return createHmac('sha256', secret).update(`contact-form\n${widgetKey}\n${payload}`).digest('base64url');
}
