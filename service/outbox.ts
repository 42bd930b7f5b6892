/** "Sent" emails: stored in the outbox table, which `GET /dev/outbox` shows. */
import type { Db } from './db.ts';

export interface Email {
  to: string;
  subject: string;
  text: string;
  link?: string | null;
  pin?: string | null;
}

export function queueEmail(db: Db, now: number, email: Email): void {
  db.prepare(
    'INSERT INTO outbox (to_addr, subject, text, link, pin, sent_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(email.to, email.subject, email.text, email.link ?? null, email.pin ?? null, now);
}
