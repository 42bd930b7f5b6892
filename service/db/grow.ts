/**
 * A store `factor` times the size of its data, for the growth test and `npm run bench`: every
 * programme is copied `factor - 1` times with its classes, their lecturers and registrations, and the
 * participants of those (a copy's participants are people of their own, as a company's customers
 * are). A copy's classes start a few minutes after the original's, so that lists mix them. Orders,
 * videos and places keep their size. Development and test stores only (it writes people who do not
 * exist); plain SQL that SQLite and PostgreSQL both run.
 */
import { sql } from 'kysely';
import { localDay } from '../core/time-zones.ts';
import type { Tx } from './database.ts';

/** What the copies of one round are told apart by (`cls_web_1` → `cls_web_1__7`). */
const MARK = '__';
/** Rows that are not copies (`_` is LIKE's any-character: escaped). */
const ORIGINAL = sql`not like '%\\_\\_%' escape '\\'`;

export async function growStore(tx: Tx, factor: number): Promise<void> {
  if (!Number.isInteger(factor) || factor < 1 || factor > 1000)
    throw new RangeError('factor must be a whole number from 1 to 1000');
  for (let i = 1; i < factor; i++) {
    const suffix = `${MARK}${i}`;
    const minutes = i * 60_000;
    await sql`insert into courses (id, company_id, title, summary, category)
      select id || ${suffix}, company_id, title || ${` ${i + 1}`}, summary, category
      from courses where id ${ORIGINAL}`.execute(tx);
    await sql`insert into classes (id, course_id, starts_at, ends_at, timezone, local_day, location, price_amount, currency, capacity, waitlist, waitlist_capacity)
      select id || ${suffix}, course_id || ${suffix}, starts_at + ${minutes}, ends_at + ${minutes}, timezone, local_day, location,
        price_amount, currency, capacity, waitlist, waitlist_capacity
      from classes where id ${ORIGINAL}`.execute(tx);
    await sql`insert into class_lecturers (class_id, user_id)
      select class_id || ${suffix}, user_id from class_lecturers where class_id ${ORIGINAL}`.execute(tx);
    await sql`insert into participants (id, company_id, email, first_name, last_name, phone, created_at, locale)
      select id || ${suffix}, company_id, ${`x${i}.`} || email, first_name, last_name, phone, created_at, locale
      from participants where id ${ORIGINAL}`.execute(tx);
    // A copy's seats are registrations of their own (the originals' orders are not copied).
    await sql`insert into registrations (id, class_id, participant_id, first_name, last_name, email, phone, status, created_at, widget_key, cancelled_at, order_id)
      select r.id || ${suffix}, r.class_id || ${suffix}, r.participant_id || ${suffix}, r.first_name, r.last_name,
        ${`x${i}.`} || r.email, r.phone, r.status, r.created_at, r.widget_key, r.cancelled_at, null
      from registrations r where r.id ${ORIGINAL}
        and r.class_id ${ORIGINAL}`.execute(tx);
  }
  // A copy a few minutes later may start on the next day.
  await correctLocalDays(tx);
}

/**
 * Sets each class's `local_day` to the day it starts on in its venue's time zone where it is not
 * (after a copy or a move of times in SQL, which knows no time zones): it reads every class.
 */
export async function correctLocalDays(tx: Tx): Promise<void> {
  for (const cl of await tx.selectFrom('classes').select(['id', 'starts_at', 'timezone', 'local_day']).execute()) {
    const day = localDay(Number(cl.starts_at), cl.timezone);
    if (day !== Number(cl.local_day)) await tx.updateTable('classes').set({ local_day: day }).where('id', '=', cl.id).execute();
  }
}
