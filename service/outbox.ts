/** "Sent" emails: stored in the outbox table, which `GET /dev/outbox` shows. */
import { PIN_TTL_MS } from './auth.ts';
import { isoTime } from './context.ts';
import type { Db } from './db.ts';

export interface Email {
  to: string;
  subject: string;
  text: string;
  link?: string | null;
  pin?: string | null;
}

/**
 * Plain text for an email: no direction controls (which would show `Ada\u202Egnp.exe` reversed in
 * a mail program) and no control characters but line breaks and tabs. The forms refuse them already;
 * this holds for any text that reaches an email.
 */
export function plainText(text: string): string {
  return text.replace(/[\u202a-\u202e\u2066-\u2069\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '');
}

export function queueEmail(db: Db, now: number, email: Email): void {
  db.prepare(
    'INSERT INTO outbox (to_addr, subject, text, link, pin, sent_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(email.to, plainText(email.subject).replace(/[\r\n\t]+/g, ' '), plainText(email.text), email.link ?? null, email.pin ?? null, now);
}

/**
 * The passwordless sign-in email, the same for REST users and participants: the link (its `key` is
 * a token) and the PIN, valid for 5 minutes from `now`. `place` completes "sign in to …".
 */
export function queueSignInEmail(
  db: Db,
  now: number,
  to: { email: string; first_name: string },
  { name, place, link, pin }: { name: string; place: string; link: string; pin: string },
): void {
  queueEmail(db, now, {
    to: to.email,
    subject: `Sign in to ${name}`,
    text: [
      `Hello ${to.first_name},`,
      '',
      `sign in to ${place} with this link:`,
      link,
      '',
      `or enter this PIN: ${pin}`,
      `It is valid for 5 minutes (until ${isoTime(now + PIN_TTL_MS)}) and works once.`,
      '',
      'If you did not ask to sign in, ignore this email.',
    ].join('\n'),
    link,
    pin,
  });
}
