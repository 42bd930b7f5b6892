/** Contact messages, stored inside the idempotency transaction. */
import { isoTime, randomId } from '../../core/ids.ts';
import type { Answer } from '../../core/idempotency.ts';
import { queueEmail } from '../../core/outbox.ts';
import { Refusal } from '../../core/refusal.ts';
import type { Tx } from '../../db/database.ts';
import type { WidgetKeyRow } from '../../domain/widget-keys.ts';
import { CONTACT_MIN_FILL_MS, type ContactForm, type ContactMessageResponse } from '../../../contract/api/contact.ts';
import { say } from '../../../contract/api/words.ts';

const FORM_USED = say(
  'This form has already sent a message: reload the form to write another.',
  'Dieses Formular hat schon eine Nachricht gesendet: Laden Sie die Seite neu, um eine weitere zu schreiben.',
);

export interface ContactInput {
  name: string;
  email: string;
  subject: string;
  topic: string | null;
  message: string;
  spam: boolean;
  issuedAt: number;
  nonce: string;
}

/**
 * A replay answers before this runs again, so a `too-fast` message sent again later goes through.
 * Checked in order: the rate limit (`countAttempt`), whether the form token was used, the fill time
 * (skipped for spam, so that a robot learns nothing). The answer carries the next form.
 */
export async function createMessage(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  input: ContactInput,
  next: { form: () => ContactForm; countAttempt: () => Promise<void> },
): Promise<Answer<ContactMessageResponse>> {
  await next.countAttempt();
  const used = await tx
    .selectFrom('contact_messages')
    .select('id')
    .where('widget_key', '=', key.key)
    .where('form_nonce', '=', input.nonce)
    .executeTakeFirst();
  if (used) {
    throw new Refusal(
      'conflict',
      'form-token-used',
      'This form has already sent a message: each message needs a new form token (the answer to a message, and each first render, carries one).',
      { fields: { form_token: FORM_USED } },
    );
  }
  const wait = input.issuedAt + CONTACT_MIN_FILL_MS - now;
  if (!input.spam && wait > 0) {
    throw new Refusal(
      'invalid',
      'too-fast',
      'This message was sent very quickly after the form appeared: check your message and send it again.',
      { extra: { retry_after_ms: wait } },
    );
  }
  const id = randomId('msg');
  await tx
    .insertInto('contact_messages')
    .values({
      id,
      company_id: key.company_id,
      widget_key: key.key,
      name: input.name,
      email: input.email,
      subject: input.subject,
      topic: input.topic,
      message: input.message,
      spam: input.spam ? 1 : 0,
      form_issued_at: input.issuedAt,
      form_nonce: input.nonce,
      created_at: now,
    })
    .execute();
  if (!input.spam) {
    const company = await tx
      .selectFrom('companies')
      .select('contact_email')
      .where('id', '=', key.company_id)
      .executeTakeFirstOrThrow();
    await queueEmail(tx, now, {
      to: company.contact_email,
      fromName: key.company_name,
      subject: `Contact form: ${input.subject}`,
      text: [
        `A message from the contact form of ${key.company_name}.`,
        '',
        `From:    ${input.name} <${input.email}>`,
        ...(input.topic !== null ? [`Topic:   ${input.topic}`] : []),
        `Subject: ${input.subject}`,
        '',
        input.message,
        '',
        `Reply to ${input.email} to answer. Reference: ${id}`,
      ].join('\n'),
    });
  }
  return { status: 201, body: { message: { id, created_at: isoTime(now) }, form: next.form() } };
}
