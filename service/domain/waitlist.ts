/**
 * The waitlist: seats freed (a participant cancels, an unpaid order is released) go to the people
 * waiting, first come first served, in the transaction that freed them.
 */
import { queueEmail } from '../core/outbox.ts';
import type { Tx } from '../db/database.ts';
import { getClass } from './classes.ts';
import { promotedEmail } from './emails.ts';
import type { MailLocale } from './format.ts';

/** Fills freed seats from the waitlist, first come first served, and tells each person. */
export async function promoteWaitlist(tx: Tx, now: number, classId: string, title: string, companyName: string): Promise<void> {
  const cls = (await getClass(tx, classId))!;
  const free = cls.capacity - cls.confirmed;
  if (free <= 0) return;
  const promoted = await tx
    .selectFrom('registrations as r')
    .innerJoin('participants as p', 'p.id', 'r.participant_id')
    .select(['r.id', 'r.first_name', 'r.email', 'p.locale'])
    .where('r.class_id', '=', classId)
    .where('r.status', '=', 'waitlisted')
    .orderBy('r.created_at')
    .orderBy('r.id')
    .limit(free)
    .execute();
  for (const person of promoted) {
    await tx.updateTable('registrations').set({ status: 'confirmed' }).where('id', '=', person.id).execute();
    await queueEmail(tx, now, promotedEmail(person.locale as MailLocale, { ...person, title, company: companyName, cls }));
  }
}
