/** Programmes and classes as the APIs show them: seats and status always computed here. */
import type { Db } from './db.ts';
import { isoTime } from './context.ts';

export interface ClassRow {
  id: string;
  course_id: string;
  starts_at: number;
  ends_at: number;
  timezone: string;
  location: string;
  price_amount: number;
  currency: string;
  capacity: number;
  waitlist: 0 | 1;
  waitlist_capacity: number | null;
  confirmed: number;
  waitlisted: number;
}

export interface CourseRow {
  id: string;
  company_id: string;
  title: string;
  summary: string;
  category: string;
}

export type ClassStatus = 'open' | 'waitlist' | 'full';

export interface ClassState {
  seats_left: number;
  status: ClassStatus;
}

/** open: seats left; waitlist: full but the waitlist takes more; full: neither. */
export function classState(c: ClassRow): ClassState {
  const seats_left = Math.max(0, c.capacity - c.confirmed);
  if (seats_left > 0) return { seats_left, status: 'open' };
  const waitlistOpen =
    c.waitlist === 1 && (c.waitlist_capacity === null || c.waitlisted < c.waitlist_capacity);
  return { seats_left, status: waitlistOpen ? 'waitlist' : 'full' };
}

export const CLASS_COLUMNS = /* sql */ `
  cl.id, cl.course_id, cl.starts_at, cl.ends_at, cl.timezone, cl.location, cl.price_amount,
  cl.currency, cl.capacity, cl.waitlist, cl.waitlist_capacity,
  (SELECT count(*) FROM registrations r WHERE r.class_id = cl.id AND r.status = 'confirmed') AS confirmed,
  (SELECT count(*) FROM registrations r WHERE r.class_id = cl.id AND r.status = 'waitlisted') AS waitlisted`;

export function getClass(db: Db, classId: string): (ClassRow & { company_id: string }) | undefined {
  return db
    .prepare(
      `SELECT ${CLASS_COLUMNS}, co.company_id FROM classes cl
       JOIN courses co ON co.id = cl.course_id WHERE cl.id = ?`,
    )
    .get(classId) as (ClassRow & { company_id: string }) | undefined;
}

export function publicClass(c: ClassRow) {
  return {
    id: c.id,
    starts_at: isoTime(c.starts_at),
    ends_at: isoTime(c.ends_at),
    timezone: c.timezone,
    location: c.location,
    price: { amount: c.price_amount, currency: c.currency },
    capacity: c.capacity,
    ...seatFields(c),
  };
}

function seatFields(c: ClassRow) {
  const { seats_left, status } = classState(c);
  return { seats_left, waitlist: c.waitlist === 1, status };
}

export type PublicClass = ReturnType<typeof publicClass>;

/**
 * A company's programmes with their classes. `from` keeps classes starting after it (the widget
 * API lists upcoming ones only); `classIds` narrows to those classes and drops programmes left
 * without any (a lecturer's view). Programmes are sorted by their next class, then by title.
 */
export function listCourses(
  db: Db,
  opts: { companyId: string; courseId?: string; from?: number; classIds?: Set<string> },
): { course: CourseRow; classes: ClassRow[] }[] {
  const courses = db
    .prepare(
      `SELECT id, company_id, title, summary, category FROM courses
       WHERE company_id = ? AND (? IS NULL OR id = ?)`,
    )
    .all(opts.companyId, opts.courseId ?? null, opts.courseId ?? null) as CourseRow[];
  const classes = db
    .prepare(
      `SELECT ${CLASS_COLUMNS} FROM classes cl JOIN courses co ON co.id = cl.course_id
       WHERE co.company_id = ? AND (? IS NULL OR co.id = ?) AND (? IS NULL OR cl.starts_at > ?)
       ORDER BY cl.starts_at, cl.id`,
    )
    .all(
      opts.companyId,
      opts.courseId ?? null,
      opts.courseId ?? null,
      opts.from ?? null,
      opts.from ?? null,
    ) as ClassRow[];

  const byCourse = new Map(courses.map((course) => [course.id, { course, classes: [] as ClassRow[] }]));
  for (const cl of classes) {
    if (opts.classIds && !opts.classIds.has(cl.id)) continue;
    byCourse.get(cl.course_id)?.classes.push(cl);
  }
  let list = [...byCourse.values()];
  if (opts.classIds) list = list.filter((entry) => entry.classes.length > 0);
  return list.sort((a, b) => {
    const an = a.classes[0]?.starts_at ?? Infinity;
    const bn = b.classes[0]?.starts_at ?? Infinity;
    if (an !== bn) return an < bn ? -1 : 1;
    return a.course.title.localeCompare(b.course.title, 'en');
  });
}

/** A class's start as people read it, in the venue's time zone ("Monday, 1 December 2026 at 10:00"). */
export function formatClassStart(startsAt: number, timezone: string): string {
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: timezone }).format(
    startsAt,
  );
}
