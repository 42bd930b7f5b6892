/**
 * The seat decision, in one place (registrations and orders): which classes may be booked, and whether each place is a seat,
 * a waitlist place, or refused because the class is full. A registration books one place in one
 * class (`decideSeats`); an order books n seats in each of several classes, seats only
 * (`decideLineSeats`). Both read the classes inside their transaction (`bookableClasses`) and decide
 * from what they read, so that two bookings at once cannot both take the last seat.
 */
import { isoTime } from '../core/ids.ts';
import { humanWait } from '../core/rate-limit.ts';
import { Refusal, invalid } from '../core/refusal.ts';
import type { Tx } from '../db/database.ts';
import { classState, getClasses, type ClassState, type CompanyClassRow } from './classes.ts';
import { say } from '../../contract/api/words.ts';

// What a form's visitor reads of a class refused (contract/api/words.ts).
const NO_SUCH_CLASS = say(
  'There is no such class. Choose a class from the list (it may have been removed).',
  'Diesen Termin gibt es nicht. Wählen Sie einen Termin aus der Liste (er wurde vielleicht entfernt).',
);
const STARTED = say(
  'This class has already started. Choose an upcoming class.',
  'Dieser Termin hat schon begonnen. Wählen Sie einen kommenden Termin.',
);
const FULL = say('This class is full. Choose another date.', 'Dieser Termin ist ausgebucht. Wählen Sie einen anderen.');

export interface SeatDecision {
  cls: CompanyClassRow;
  status: 'confirmed' | 'waitlisted';
  /** The class's seats and status once this place (and the ones decided before it) are taken. */
  after: ClassState;
}

/**
 * The classes, in the order asked for, each of the company and not yet started; otherwise `invalid` on
 * `field` (the request's name for the class: `class_id`, or `items.2.class_id` for the third line
 * of an order). Read inside the booking's transaction.
 */
export async function bookableClasses(
  tx: Tx,
  opts: { companyId: number; classIds: readonly string[]; now: number; field?: string | ((index: number) => string) },
): Promise<CompanyClassRow[]> {
  const field = (index: number) => (typeof opts.field === 'function' ? opts.field(index) : (opts.field ?? 'class_id'));
  const found = new Map((await getClasses(tx, [...new Set(opts.classIds)])).map((cls) => [cls.id, cls]));
  return opts.classIds.map((id, index) => {
    const cls = found.get(id);
    if (!cls || cls.company_id !== opts.companyId) {
      throw invalid({ [field(index)]: NO_SUCH_CLASS });
    }
    if (cls.starts_at <= opts.now) {
      throw invalid({ [field(index)]: STARTED });
    }
    return cls;
  });
}

/**
 * One place per class given (a class given twice is two places): a seat while seats are left, then
 * a waitlist place while the waitlist has room, else `class-full` for the whole booking.
 */
export function decideSeats(classes: readonly CompanyClassRow[], now: number, field = 'class_id'): SeatDecision[] {
  const taken = new Map<string, { confirmed: number; waitlisted: number }>();
  return classes.map((cls) => {
    const counts = taken.get(cls.id) ?? { confirmed: cls.confirmed, waitlisted: cls.waitlisted };
    const before = classState({ ...cls, ...counts });
    if (before.status === 'full' && cls.held_until !== null) {
      // Not full for good: orders waiting for their payment hold the seats, and may let them go.
      const wait = humanWait(Math.max(1, Math.ceil((cls.held_until - now) / 1000)));
      const message = `The last seats of this class are held by orders waiting for their payment: try again in ${wait}, or choose another date.`;
      throw new Refusal('conflict', 'class-full', message, {
        fields: { [field]: message },
        extra: { held_until: isoTime(cls.held_until) },
      });
    }
    if (before.status === 'full') {
      throw new Refusal(
        'conflict',
        'class-full',
        cls.waitlist === 1
          ? 'This class and its waitlist are full. Choose another date.'
          : 'This class is full and has no waitlist. Choose another date.',
        { fields: { [field]: FULL } },
      );
    }
    const status = before.status === 'open' ? 'confirmed' : 'waitlisted';
    const next = {
      confirmed: counts.confirmed + (status === 'confirmed' ? 1 : 0),
      waitlisted: counts.waitlisted + (status === 'waitlisted' ? 1 : 0),
    };
    taken.set(cls.id, next);
    return { cls, status, after: classState({ ...cls, ...next }) };
  });
}

export interface LineSeats {
  cls: CompanyClassRow;
  seats: number;
  /** The class before this line (after the lines before it that booked the same class). */
  before: ClassState;
  /** Whether `seats` seats are left for this line. */
  enough: boolean;
  /** The class once this line is booked (as `before` when it is not). */
  after: ClassState;
}

/**
 * n seats per line, seats only (an order never waitlists): each line fits when the class has at
 * least that many seats left once the lines before it are booked. Deciding, not refusing: the
 * quote shows each short line, and the order refuses them all at once.
 */
export function decideLineSeats(lines: readonly { cls: CompanyClassRow; seats: number }[]): LineSeats[] {
  const confirmed = new Map<string, number>();
  return lines.map(({ cls, seats }) => {
    const taken = confirmed.get(cls.id) ?? cls.confirmed;
    const before = classState({ ...cls, confirmed: taken });
    const enough = before.seats_left >= seats;
    if (!enough) return { cls, seats, before, enough, after: before };
    confirmed.set(cls.id, taken + seats);
    return { cls, seats, before, enough, after: classState({ ...cls, confirmed: taken + seats }) };
  });
}
