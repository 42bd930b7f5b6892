/**
 * Registrations: made inside the idempotency transaction, so that the seat decision and every
 * write are one unit.
 */
import { isoTime, randomId } from '../../core/ids.ts';
import { queueEmail } from '../../core/outbox.ts';
import { confirmationEmailLimit, type Limits, type RateLimiter, type SeatGuard } from '../../core/rate-limit.ts';
import { Refusal } from '../../core/refusal.ts';
import type { Tx } from '../../db/database.ts';
import type { Answer } from '../../core/idempotency.ts';
import { registrationEmail } from '../../domain/emails.ts';
import type { MailLocale } from '../../domain/format.ts';
import { calendarFileUrl } from '../../domain/links.ts';
import { CANCEL_BEFORE_MS, participantFor } from '../../domain/participants.ts';
import { bookableClasses, decideSeats } from '../../domain/seats.ts';
import type { WidgetKeyRow } from '../../domain/widget-keys.ts';
import type { RegistrationResponse } from '../../../contract/api/registrations.ts';

export interface RegistrationInput {
  class_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  /** The widget's language: the emails are written in it. */
  locale: MailLocale;
}

/**
 * The answer never depends on whether the email already holds a place (a stranger learns nothing
 * about other people's bookings): a full class is full for everyone, and someone already booked gets
 * the answer a new registration would get, while the email tells them the truth. `countAttempt`
 * applies the rate limit, after the class checks and before the seat decision (the documented order).
 */
export async function createRegistration(
  tx: Tx,
  now: number,
  key: WidgetKeyRow,
  input: RegistrationInput,
  deps: { limiter: RateLimiter; limits: Limits; countAttempt: () => Promise<void>; seats: SeatGuard; publicUrl: string },
): Promise<Answer<RegistrationResponse>> {
  const [cls] = await bookableClasses(tx, { companyId: key.company_id, classIds: [input.class_id], now });
  await deps.countAttempt();
  const [{ status, after }] = decideSeats([cls!], now) as [ReturnType<typeof decideSeats>[number]];
  // A calendar's key joins waitlists only: a seat is bought through the page's checkout, and a key
  // of a calendar must not hand out the seats that a company sells there.
  if (key.type === 'calendar' && status === 'confirmed')
    throw new Refusal(
      'conflict',
      'class-has-seats',
      'This class has a seat free again: book it (it goes into the cart) rather than join its waitlist.',
    );
  // A seat counts against the address's seats (not a waitlist place); checked before it is known
  // whether the email holds a place already, so that a refusal tells nothing about who is booked.
  if (status === 'confirmed') await deps.seats.check(1);
  const answer = (id: string): Answer<RegistrationResponse> => ({
    status: 201,
    body: {
      registration: {
        id,
        course_id: cls!.course_id,
        class_id: cls!.id,
        status,
        created_at: isoTime(now),
        cancel_until: isoTime(cls!.starts_at - CANCEL_BEFORE_MS),
        calendar_url: calendarFileUrl(deps.publicUrl, key.key, [cls!.id]),
      },
      class: { id: cls!.id, seats_left: after.seats_left, status: after.status },
    },
  });
  // Confirmation emails to one address are throttled: a form cannot be used to flood a mailbox.
  const mayEmail = () => deps.limiter.tryTake(confirmationEmailLimit(deps.limits, input.email));
  const email = (r: { id: string; first_name: string; status: 'confirmed' | 'waitlisted'; again?: boolean }) =>
    queueEmail(
      tx,
      now,
      registrationEmail(input.locale, { ...r, email: input.email, course: cls!.title, cls: cls!, company: key.company_name }),
    );

  const holder = await tx
    .selectFrom('registrations')
    .select(['id', 'status', 'first_name'])
    .where('class_id', '=', cls!.id)
    .where('email', '=', input.email)
    .where('status', 'in', ['confirmed', 'waitlisted'])
    // Seats of an order carry the buyer's email but are their attendees' places.
    .where('order_id', 'is', null)
    .executeTakeFirst();
  if (holder) {
    if (await mayEmail()) await email({ ...holder, status: holder.status as 'confirmed' | 'waitlisted', again: true });
    return answer(holder.id);
  }

  // An anonymous form never rewrites an existing participant's profile.
  const participantId = await participantFor(tx, now, key.company_id, input);

  const id = randomId('reg');
  await tx
    .insertInto('registrations')
    .values({
      id,
      class_id: cls!.id,
      participant_id: participantId,
      first_name: input.first_name,
      last_name: input.last_name,
      email: input.email,
      phone: input.phone,
      status,
      created_at: now,
      widget_key: key.key,
      cancelled_at: null,
    })
    .execute();
  if (status === 'confirmed') await deps.seats.count(1);

  if (await mayEmail()) await email({ id, first_name: input.first_name, status });
  return answer(id);
}
