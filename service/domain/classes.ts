/**
 * Programmes and classes as the APIs show them (the widget API's first render, the calendar, the
 * map, the checkout, the REST API): seats and status always computed here.
 */
import type { ExpressionBuilder } from 'kysely';
import { isoTime } from '../core/ids.ts';
import { Refusal } from '../core/refusal.ts';
import type { Db, Tables } from '../db/database.ts';
import type { Class, ClassStatus, Course } from '../../contract/api/catalog.ts';

/**
 * A class with how many hold a seat and a waitlist place in it, and, while some of its seats are held
 * by orders waiting for their payment, when the first of those holds ends (service time).
 */
export type ClassRow = Tables['classes'] & { confirmed: number; waitlisted: number; held_until: number | null };

export type CourseRow = Tables['courses'];

export interface ClassState {
  seats_left: number;
  status: ClassStatus;
}

/** open: seats left; waitlist: full but the waitlist takes more; full: neither. */
export function classState(
  c: Pick<ClassRow, 'capacity' | 'confirmed' | 'waitlist' | 'waitlist_capacity' | 'waitlisted'>,
): ClassState {
  const seats_left = Math.max(0, c.capacity - c.confirmed);
  if (seats_left > 0) return { seats_left, status: 'open' };
  const waitlistOpen = c.waitlist === 1 && (c.waitlist_capacity === null || c.waitlisted < c.waitlist_capacity);
  return { seats_left, status: waitlistOpen ? 'waitlist' : 'full' };
}

type ClassQuery = ExpressionBuilder<Tables & { cl: Tables['classes'] }, 'cl'>;

/** How many hold a place of this status in the class. */
const holders = (eb: ClassQuery, status: 'confirmed' | 'waitlisted') =>
  eb
    .selectFrom('registrations as r')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('r.class_id', '=', 'cl.id')
    .where('r.status', '=', status);

/**
 * When the first hold on the class's seats ends: the earliest expiry of the unpaid orders that hold
 * seats in it (null when none does).
 */
const heldUntil = (eb: ClassQuery) =>
  eb
    .selectFrom('registrations as hr')
    .innerJoin('orders as ho', 'ho.id', 'hr.order_id')
    .select((e) => e.fn.min('ho.expires_at').as('t'))
    .whereRef('hr.class_id', '=', 'cl.id')
    .where('hr.status', '=', 'confirmed')
    .where('ho.status', '=', 'pending_payment');

const CLASS_COLUMNS = [
  'cl.id',
  'cl.course_id',
  'cl.starts_at',
  'cl.ends_at',
  'cl.timezone',
  'cl.location',
  'cl.price_amount',
  'cl.currency',
  'cl.capacity',
  'cl.waitlist',
  'cl.waitlist_capacity',
] as const;

/** Classes with their counts of confirmed and waitlisted places. */
const classesWithCounts = (db: Db) =>
  db
    .selectFrom('classes as cl')
    .innerJoin('courses as co', 'co.id', 'cl.course_id')
    .select(CLASS_COLUMNS)
    .select((eb) => [
      holders(eb, 'confirmed').as('confirmed'),
      holders(eb, 'waitlisted').as('waitlisted'),
      heldUntil(eb).as('held_until'),
    ]);

const toClassRow = <R extends { confirmed: unknown; waitlisted: unknown; held_until: unknown }>(row: R) => ({
  ...row,
  confirmed: Number(row.confirmed),
  waitlisted: Number(row.waitlisted),
  held_until: row.held_until === null ? null : Number(row.held_until),
});

export type CompanyClassRow = ClassRow & { company_id: number; title: string };

/** Some classes, with their company and programme title (a seat decision reads them in its transaction). */
export async function getClasses(db: Db, classIds: readonly string[]): Promise<CompanyClassRow[]> {
  if (classIds.length === 0) return [];
  const rows = await classesWithCounts(db).select(['co.company_id', 'co.title']).where('cl.id', 'in', classIds).execute();
  return rows.map(toClassRow) as CompanyClassRow[];
}

export async function getClass(db: Db, classId: string): Promise<CompanyClassRow | undefined> {
  return (await getClasses(db, [classId]))[0];
}

/**
 * When a class with no seat left may have one again: the end of the first hold of an unpaid order on
 * its seats. Null while seats are left, or when no order holds any (it is simply full).
 */
export const heldUntilOf = (c: Pick<ClassRow, 'held_until'>, state: ClassState): string | null =>
  state.seats_left === 0 && c.held_until !== null ? isoTime(c.held_until) : null;

export function publicClass(c: ClassRow): Class {
  const state = classState(c);
  const { seats_left, status } = state;
  return {
    id: c.id,
    starts_at: isoTime(c.starts_at),
    ends_at: isoTime(c.ends_at),
    timezone: c.timezone,
    location: c.location,
    price: { amount: c.price_amount, currency: c.currency },
    capacity: c.capacity,
    seats_left,
    waitlist: c.waitlist === 1,
    status,
    held_until: heldUntilOf(c, state),
  };
}

/** `courseId` names one of the company's programmes, or it is refused as `course-not-found`. */
export async function requireCourse(db: Db, companyId: number, courseId: string): Promise<void> {
  const row = await db
    .selectFrom('courses')
    .select('id')
    .where('id', '=', courseId)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (!row) {
    throw new Refusal(
      'not-found',
      'course-not-found',
      `There is no programme "${courseId}" for this key. Check data-service-course, or remove it to list every programme.`,
    );
  }
}

/**
 * A company's programmes with their classes. `from` keeps classes starting after it (the widget
 * API lists upcoming ones only); `classIds` narrows to those classes and drops programmes left
 * without any (a lecturer's view). Programmes are sorted by their next class, then by title.
 */
export async function listCourses(
  db: Db,
  opts: { companyId: number; courseId?: string; from?: number; classIds?: Set<string> },
): Promise<{ course: CourseRow; classes: ClassRow[] }[]> {
  const courses = await db
    .selectFrom('courses')
    .selectAll()
    .where('company_id', '=', opts.companyId)
    .$if(opts.courseId !== undefined, (q) => q.where('id', '=', opts.courseId!))
    .execute();
  const classes = (
    await classesWithCounts(db)
      .where('co.company_id', '=', opts.companyId)
      .$if(opts.courseId !== undefined, (q) => q.where('co.id', '=', opts.courseId!))
      .$if(opts.from !== undefined, (q) => q.where('cl.starts_at', '>', opts.from!))
      .orderBy('cl.starts_at')
      .orderBy('cl.id')
      .execute()
  ).map(toClassRow) as ClassRow[];

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

/**
 * The first render's `courses` (the registration and calendar widgets): the company's programmes,
 * or the one `courseId` names, each with its classes starting after `now`.
 */
export async function upcomingCourses(db: Db, companyId: number, courseId: string | undefined, now: number): Promise<Course[]> {
  if (courseId !== undefined) await requireCourse(db, companyId, courseId);
  const courses = await listCourses(db, { companyId, ...(courseId !== undefined ? { courseId } : {}), from: now });
  return courses.map(({ course, classes }) => ({
    id: course.id,
    title: course.title,
    summary: course.summary,
    category: course.category,
    classes: classes.map(publicClass),
  }));
}
