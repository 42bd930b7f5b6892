/** The calendar's classes: upcoming ones, each on the day it starts in its venue's time zone. */
import { localDate } from '../../core/time-zones.ts';
import type { Db } from '../../db/database.ts';
import { listCourses, publicClass, type ClassRow, type CourseRow } from '../../domain/classes.ts';
import type { CalendarClass } from '../../../contract/api/calendar.ts';

export interface CalendarEntry {
  cls: ClassRow;
  course: CourseRow;
  /** `YYYY-MM-DD` in the venue's time zone. */
  localDate: string;
}

/** Every class of the company that starts after `from`, by start. */
export async function upcomingClasses(db: Db, companyId: number, from: number): Promise<CalendarEntry[]> {
  const courses = await listCourses(db, { companyId, from });
  return courses
    .flatMap(({ course, classes }) => classes.map((cls) => ({ cls, course, localDate: localDate(cls.starts_at, cls.timezone) })))
    .sort((a, b) => a.cls.starts_at - b.cls.starts_at || (a.cls.id < b.cls.id ? -1 : 1));
}

/** The names of each class's lecturers, by class id. */
async function lecturers(db: Db, classIds: readonly string[]): Promise<Map<string, { name: string }[]>> {
  const byClass = new Map<string, { name: string }[]>();
  if (classIds.length === 0) return byClass;
  const rows = await db
    .selectFrom('class_lecturers as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.class_id', 'u.first_name', 'u.last_name'])
    .where('l.class_id', 'in', classIds)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .execute();
  for (const r of rows) {
    const list = byClass.get(r.class_id) ?? [];
    list.push({ name: `${r.first_name} ${r.last_name}` });
    byClass.set(r.class_id, list);
  }
  return byClass;
}

/** The entries as the calendar answers them, with their lecturers. */
export async function calendarClasses(db: Db, entries: readonly CalendarEntry[]): Promise<CalendarClass[]> {
  const names = await lecturers(
    db,
    entries.map((e) => e.cls.id),
  );
  return entries.map(({ cls, course, localDate }) => ({
    ...publicClass(cls),
    course_id: course.id,
    course_title: course.title,
    local_date: localDate,
    lecturers: names.get(cls.id) ?? [],
  }));
}
