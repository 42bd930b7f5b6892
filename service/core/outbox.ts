/**
 * The mail queue (the `outbox` table): an email is queued inside the transaction of what it tells
 * (a registration, an order…), so that it is sent if and only if that happened, and the mail worker
 * (core/mail.ts) sends it after the answer: a slow or failing mail server never slows or fails a
 * request, and nothing is lost. `GET /dev/outbox` shows the queue in development.
 */
import type { Db } from '../db/database.ts';

export interface Email {
  to: string;
  subject: string;
  /** Plain text; the HTML version is made from it. */
  text: string;
  link?: string | null;
  /**
   * The service's own addresses in the text besides `link` (an order's calendar file): only these are
   * links in the HTML. An address in what a visitor typed (a name such as "Claim your prize at
   * https://…") stays text: the company's mail must not carry a stranger's link.
   */
  links?: string[];
  pin?: string | null;
  /** The language it is written in (`lang` of its HTML). */
  locale?: 'en' | 'de';
  /** The sender's name: the company's (the address is the service's, SMTP_FROM). */
  fromName?: string | null;
}

/**
 * Plain text for an email: no direction controls (which would show `Ada\u202Egnp.exe` reversed in
 * a mail program) and no control characters but line breaks and tabs. The forms refuse them already;
 * this holds for any text that reaches an email.
 */
export function plainText(text: string): string {
  return text.replace(/[\u202a-\u202e\u2066-\u2069\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/**
 * The HTML version of a plain-text email: its paragraphs and lines as they are, every text escaped,
 * http(s) links clickable, no image, script or style a mail program would block or run.
 */
export function emailHtml(text: string, locale: 'en' | 'de', subject: string, links: readonly string[] = []): string {
  const linked = links.map(escapeHtml);
  const line = (l: string) =>
    linked
      .reduce((html, url) => html.split(url).join(`<a href="${url}">${url}</a>`), escapeHtml(l))
      .replace(/^( +)/, (s) => '&nbsp;'.repeat(s.length));
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => `<p>${p.split('\n').map(line).join('<br>\n')}</p>`)
    .join('\n');
  return `<!doctype html>\n<html lang="${locale}">\n<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n<body>\n${paragraphs}\n</body>\n</html>\n`;
}

export async function queueEmail(db: Db, now: number, email: Email): Promise<void> {
  const subject = plainText(email.subject).replace(/[\r\n\t]+/g, ' ');
  const text = plainText(email.text);
  const locale = email.locale ?? 'en';
  await db
    .insertInto('outbox')
    .values({
      to_addr: email.to,
      subject,
      text,
      html: emailHtml(
        text,
        locale,
        subject,
        [email.link, ...(email.links ?? [])].filter((url): url is string => !!url),
      ),
      link: email.link ?? null,
      pin: email.pin ?? null,
      locale,
      from_name: email.fromName ? plainText(email.fromName).replace(/[\r\n\t"<>]+/g, ' ') : null,
      status: 'queued',
      attempts: 0,
      next_attempt_at: now,
      sent_at: now,
    })
    .execute();
}
