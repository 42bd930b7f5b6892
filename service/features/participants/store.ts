/**
 * What participants do in their own area: their details (a new email through domain/email-change.ts),
 * their registrations, cancelling one. Functions that take a `Tx` run inside the caller's transaction.
 */
import { isoTime } from '../../core/ids.ts';
import { queueEmail } from '../../core/outbox.ts';
import type { Limits, RateLimiter } from '../../core/rate-limit.ts';
import { Refusal } from '../../core/refusal.ts';
import type { Db, Tx } from '../../db/database.ts';
import { pendingEmailChange, requestEmailChange } from '../../domain/email-change.ts';
import { cancelledEmail } from '../../domain/emails.ts';
import type { MailLocale } from '../../domain/format.ts';
import {
  CANCEL_BEFORE_MS,
  PARTICIPANT_COLUMNS,
  publicParticipant,
  upcomingRegistrations,
  type ParticipantRow,
} from '../../domain/participants.ts';
import { promoteWaitlist } from '../../domain/waitlist.ts';
import type { WidgetKeyRow } from '../../domain/widget-keys.ts';
import type { CancelResponse, ParticipantRegistration, ParticipantResponse } from '../../../contract/api/participants.ts';

export async function participantRegistrations(db: Db, p: ParticipantRow, now: number): Promise<ParticipantRegistration[]> {
  const rows = await db
    .selectFrom('registrations as r')
    .innerJoin('classes as cl', 'cl.id', 'r.class_id')
    .innerJoin('courses as co', 'co.id', 'cl.course_id')
    .select([
      'r.id',
      'r.status',
      'co.id as course_id',
      'co.title',
      'cl.id as class_id',
      'cl.starts_at',
      'cl.ends_at',
      'cl.timezone',
      'cl.location',
    ])
    .where('r.participant_id', '=', p.id)
    .where('co.company_id', '=', p.company_id)
    .where('r.status', '<>', 'cancelled')
    // The seats of the participant's orders are listed under `orders`.
    .where('r.order_id', 'is', null)
    .orderBy('cl.starts_at')
    .orderBy('r.created_at')
    .orderBy('r.id')
    .execute();
  return rows.map((r) => {
    const cancelUntil = r.starts_at - CANCEL_BEFORE_MS;
    return {
      id: r.id,
      status: r.status as 'confirmed' | 'waitlisted',
      course: { id: r.course_id, title: r.title },
      class: {
        id: r.class_id,
        starts_at: isoTime(r.starts_at),
        ends_at: isoTime(r.ends_at),
        timezone: r.timezone,
        location: r.location,
      },
      past: r.starts_at <= now,
      cancellable: now < cancelUntil,
      cancel_until: isoTime(cancelUntil),
    };
  });
}

export interface ProfileChanges {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string | null;
  /** The page the confirmation link of a new email opens (the widget's page). */
  returnUrl?: string;
}

/**
 * Names and phone change at once. A new email does not: it takes effect when a PIN or link sent to
 * it confirms it (else anyone signed in could take over another person's address and their
 * bookings), and the old address is told. The answer is the same whether or not another participant
 * already uses the new address; only that mailbox learns it.
 */
export async function updateProfile(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  before: ParticipantRow,
  changes: ProfileChanges,
  rate: { limiter: RateLimiter; limits: Limits['emailChange'] },
): Promise<{ status: number; body: ParticipantResponse }> {
  // Read again inside the transaction: an earlier request may have changed it.
  const current = await tx
    .selectFrom('participants')
    .select(PARTICIPANT_COLUMNS)
    .where('id', '=', before.id)
    .executeTakeFirstOrThrow();
  const { email, returnUrl, ...details } = changes;
  const next: ParticipantRow = { ...current, ...details };
  const fields = { first_name: next.first_name, last_name: next.last_name, phone: next.phone };
  await tx.updateTable('participants').set(fields).where('id', '=', current.id).execute();
  // The organisers of upcoming classes see the new details; past records stay as they were. The
  // seats of the participant's orders keep their attendees' names; their phone is the buyer's.
  await upcomingRegistrations(tx, current.id, now)
    .set({ first_name: next.first_name, last_name: next.last_name })
    .where('order_id', 'is', null)
    .execute();
  await upcomingRegistrations(tx, current.id, now).set({ phone: next.phone }).execute();
  if (email !== undefined && email !== current.email) await requestEmailChange(tx, now, key, next, email, returnUrl, rate);
  return {
    status: 200,
    body: { participant: publicParticipant(next), email_change: await pendingEmailChange(tx, next, now) },
  };
}

/** The cancellation and the promotion from the waitlist are one unit (the caller's transaction). */
export async function cancelRegistration(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  p: ParticipantRow,
  id: string,
  locale: MailLocale,
): Promise<{ status: number; body: CancelResponse }> {
  const reg = await tx
    .selectFrom('registrations as r')
    .innerJoin('classes as cl', 'cl.id', 'r.class_id')
    .innerJoin('courses as co', 'co.id', 'cl.course_id')
    .select(['r.id', 'r.status', 'r.class_id', 'r.order_id', 'cl.starts_at', 'cl.timezone', 'cl.location', 'co.title'])
    .where('r.id', '=', id)
    .where('r.participant_id', '=', p.id)
    .where('co.company_id', '=', key.company_id)
    .executeTakeFirst();
  if (!reg) throw new Refusal('not-found', 'not-found', 'You have no registration with this id.');
  const answer = { status: 200, body: { registration: { id: reg.id, status: 'cancelled' as const } } };
  if (reg.status === 'cancelled') return answer;
  if (reg.order_id !== null) {
    // A seat of an order was paid for with the others: the company changes an order, not this call.
    throw new Refusal(
      'conflict',
      'not-cancellable',
      `This seat belongs to an order: contact ${key.company_name} to change it, quoting the order number.`,
    );
  }
  if (now >= reg.starts_at - CANCEL_BEFORE_MS) {
    throw new Refusal(
      'conflict',
      'not-cancellable',
      reg.starts_at <= now
        ? 'This class has already started: it can no longer be cancelled.'
        : `This registration can no longer be cancelled here (only until 24 hours before the class starts): contact ${key.company_name}.`,
    );
  }
  await tx.updateTable('registrations').set({ status: 'cancelled', cancelled_at: now }).where('id', '=', reg.id).execute();
  await queueEmail(
    tx,
    now,
    cancelledEmail(locale, {
      id: reg.id,
      first_name: p.first_name,
      email: p.email,
      title: reg.title,
      company: key.company_name,
      waitlisted: reg.status !== 'confirmed',
      cls: reg,
    }),
  );
  if (reg.status === 'confirmed') await promoteWaitlist(tx, now, reg.class_id, reg.title, key.company_name);
  return answer;
}
