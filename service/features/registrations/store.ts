/**
 * Registrations: made inside the idempotency transaction, so that the seat decision and every
 * write are one unit.
 */
import { isoTime, randomId } from '../../core/ids.ts';
import { queueEmail } from '../../core/outbox.ts';
import { confirmationEmailLimit, type Limits, type RateLimiter, type SeatGuard } from '../../core/rate-limit.ts';
import type { Tx } from '../../db/database.ts';
import type { Answer } from '../../core/idempotency.ts';
import { formatClassStart, formatMoney } from '../../domain/format.ts';
import { participantFor } from '../../domain/participants.ts';
import { bookableClasses, decideSeats } from '../../domain/seats.ts';
import type { WidgetKeyRow } from '../../domain/widget-keys.ts';
import type { RegistrationResponse } from '../../../contract/api/registrations.ts';

export interface RegistrationInput {
  class_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
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
  deps: { limiter: RateLimiter; limits: Limits; countAttempt: () => void; seats: SeatGuard },
): Promise<Answer<RegistrationResponse>> {
  const [cls] = await bookableClasses(tx, { companyId: key.company_id, classIds: [input.class_id], now });
  deps.countAttempt();
  const [{ status, after }] = decideSeats([cls!], now) as [ReturnType<typeof decideSeats>[number]];
  // A seat counts against the address's seats (not a waitlist place); checked before it is known
  // whether the email holds a place already, so that a refusal tells nothing about who is booked.
  if (status === 'confirmed') deps.seats.check(1);
  const answer = (id: string): Answer<RegistrationResponse> => ({
    status: 201,
    body: {
      registration: { id, course_id: cls!.course_id, class_id: cls!.id, status, created_at: isoTime(now) },
      class: { id: cls!.id, seats_left: after.seats_left, status: after.status },
    },
  });
  // Confirmation emails to one address are throttled: a form cannot be used to flood a mailbox.
  const mayEmail = () => deps.limiter.tryTake(confirmationEmailLimit(deps.limits, input.email));
  const email = (r: { id: string; first_name: string; status: 'confirmed' | 'waitlisted'; again?: boolean }) =>
    queueEmail(
      tx,
      now,
      registrationEmail({ ...r, email: input.email, course: cls!.title, cls: cls!, company: key.company_name }),
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
    if (mayEmail()) await email({ ...holder, status: holder.status as 'confirmed' | 'waitlisted', again: true });
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
  if (status === 'confirmed') deps.seats.count(1);

  if (mayEmail()) await email({ id, first_name: input.first_name, status });
  return answer(id);
}

function registrationEmail(r: {
  id: string;
  first_name: string;
  email: string;
  status: 'confirmed' | 'waitlisted';
  course: string;
  company: string;
  cls: { starts_at: number; timezone: string; location: string; price_amount: number; currency: string };
  /** Registered again for a class where the email already holds this place. */
  again?: boolean;
}) {
  const when = formatClassStart(r.cls.starts_at, r.cls.timezone);
  const price = r.cls.price_amount === 0 ? 'free' : formatMoney(r.cls.price_amount, r.cls.currency);
  const confirmed = r.status === 'confirmed';
  return {
    to: r.email,
    subject: `${r.again ? 'You are already registered' : confirmed ? 'Registration confirmed' : 'On the waitlist'}: ${r.course}`,
    text: [
      `Hello ${r.first_name},`,
      '',
      ...(r.again
        ? ['someone registered this address again for a class where it already holds a place. Nothing has changed:', '']
        : []),
      confirmed
        ? `you have a place in "${r.course}".`
        : `you are on the waitlist for "${r.course}". We will email you as soon as a place frees up.`,
      '',
      `When:  ${when} (${r.cls.timezone})`,
      `Where: ${r.cls.location}`,
      `Price: ${price}`,
      `Reference: ${r.id}`,
      '',
      r.company,
    ].join('\n'),
  };
}
