/** "Sent" emails: stored in the outbox table, which `GET /dev/outbox` shows. */
import type { Db } from '../db/database.ts';

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

export async function queueEmail(db: Db, now: number, email: Email): Promise<void> {
  await db
    .insertInto('outbox')
    .values({
      to_addr: email.to,
      subject: plainText(email.subject).replace(/[\r\n\t]+/g, ' '),
      text: plainText(email.text),
      link: email.link ?? null,
      pin: email.pin ?? null,
      sent_at: now,
    })
    .execute();
}
