/** The calendar's classes: upcoming ones, each on the day it starts in its venue's time zone. */
import { localDate } from '../../core/time-zones.ts';
import type { Db } from '../../db/database.ts';
import { findClasses, lecturersOf, publicClass, type CompanyClassRow } from '../../domain/classes.ts';
import type { CalendarClass } from '../../../contract/api/calendar.ts';

/** A calendar's month: its classes, by start, and the first later month with one (or null). */
export interface CalendarMonth {
  classes: { cls: CompanyClassRow; localDate: string }[];
  nextMonth: string | null;
}

/** Half a day and two hours: no venue's clock is further from UTC, so a month's classes start within it of the month in UTC. */
const ZONE_SLACK = 14 * 60 * 60 * 1000;

/**
 * The classes of the company that start after `now` in `month` (`YYYY-MM`), on the day they start in
 * their venue's time zone, of one programme or at places containing `place`; and the first later
 * month with such a class. What it reads is the month and the first class after it, whatever the
 * company holds (classes_start, classes_course).
 */
export async function calendarMonth(
  db: Db,
  filter: { companyId: number; month: string; courseId?: string; place?: string },
  now: number,
): Promise<CalendarMonth> {
  const [year, month] = filter.month.split('-').map(Number) as [number, number];
  const start = Date.UTC(year, month - 1, 1);
  const end = Date.UTC(year, month, 1);
  const common = {
    companyId: filter.companyId,
    ...(filter.courseId !== undefined ? { courseId: filter.courseId } : {}),
    ...(filter.place !== undefined ? { placeContains: filter.place } : {}),
  };
  const dated = (rows: CompanyClassRow[]) => rows.map((cls) => ({ cls, localDate: localDate(cls.starts_at, cls.timezone) }));
  const around = dated(await findClasses(db, { ...common, from: Math.max(now, start - ZONE_SLACK), until: end + ZONE_SLACK }));
  const monthOf = (e: { localDate: string }) => e.localDate.slice(0, 7);
  let next = around.find((e) => monthOf(e) > filter.month);
  if (!next) {
    // Past the slack every class is of a later month: the first one is the next month's.
    [next] = dated(await findClasses(db, { ...common, from: Math.max(now, end + ZONE_SLACK - 1), limit: 1 }));
  }
  return { classes: around.filter((e) => monthOf(e) === filter.month), nextMonth: next ? monthOf(next) : null };
}

/** The programmes and places with upcoming classes (the calendar's filters), by name. */
export async function calendarFilters(
  db: Db,
  companyId: number,
  now: number,
): Promise<{ courses: { id: string; title: string }[]; locations: string[] }> {
  const courses = await db
    .selectFrom('courses as co')
    .select(['co.id', 'co.title'])
    .where('co.company_id', '=', companyId)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('classes as cl').select('cl.id').whereRef('cl.course_id', '=', 'co.id').where('cl.starts_at', '>', now),
      ),
    )
    .execute();
  const places = await db
    .selectFrom('classes as cl')
    .innerJoin('courses as co', 'co.id', 'cl.course_id')
    .select('cl.location')
    .distinct()
    .where('co.company_id', '=', companyId)
    .where('cl.starts_at', '>', now)
    .execute();
  return {
    courses: courses.sort((a, b) => a.title.localeCompare(b.title, 'en')),
    locations: places.map((p) => p.location).sort((a, b) => a.localeCompare(b, 'en')),
  };
}

/** The entries as the calendar answers them, with their lecturers. */
export async function calendarClasses(
  db: Db,
  entries: readonly { cls: CompanyClassRow; localDate: string }[],
): Promise<CalendarClass[]> {
  const lecturers = await lecturersOf(
    db,
    entries.map((e) => e.cls.id),
  );
  return entries.map(({ cls, localDate }) => ({
    ...publicClass(cls),
    course_id: cls.course_id,
    course_title: cls.title,
    local_date: localDate,
    lecturers: (lecturers.get(cls.id) ?? []).map((l) => ({ name: `${l.first_name} ${l.last_name}` })),
  }));
}
