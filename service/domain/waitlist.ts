/**
 * The waitlist: seats freed (a participant cancels, an unpaid order is released) go to the people
 * waiting, first come first served, in the transaction that freed them.
 */
import { queueEmail } from '../core/outbox.ts';
import type { Tx } from '../db/database.ts';
import { getClass } from './classes.ts';
import { formatClassStart } from './format.ts';

/** Fills freed seats from the waitlist, first come first served, and tells each person. */
export async function promoteWaitlist(tx: Tx, now: number, classId: string, title: string, companyName: string): Promise<void> {
  const cls = (await getClass(tx, classId))!;
  const free = cls.capacity - cls.confirmed;
  if (free <= 0) return;
  const promoted = await tx
    .selectFrom('registrations')
    .select(['id', 'first_name', 'email'])
    .where('class_id', '=', classId)
    .where('status', '=', 'waitlisted')
    .orderBy('created_at')
    .orderBy('id')
    .limit(free)
    .execute();
  for (const person of promoted) {
    await tx.updateTable('registrations').set({ status: 'confirmed' }).where('id', '=', person.id).execute();
    await queueEmail(tx, now, {
      to: person.email,
      subject: `Registration confirmed: ${title}`,
      text: [
        `Hello ${person.first_name},`,
        '',
        `a place in "${title}" has freed up, and it is yours: you are no longer on the waitlist.`,
        '',
        `When:  ${formatClassStart(cls.starts_at, cls.timezone)} (${cls.timezone})`,
        `Where: ${cls.location}`,
        `Reference: ${person.id}`,
        '',
        companyName,
      ].join('\n'),
    });
  }
}
