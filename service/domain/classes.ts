/**
 * Programmes and classes as the APIs show them (the widget API's first render, the calendar, the
 * map, the checkout, the REST API): seats and status always computed here.
 */
import { sql, type ExpressionBuilder } from 'kysely';
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
  'cl.local_day',
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

/** Later than any time a Date holds (ms): what sorts after every class. */
const LAST_TIME = 8_640_000_000_000_000;

/** `like`'s wildcards taken as themselves. */
const likeText = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** A place (the column `column`) that contains `text`, in any letter case. */
export const placeMatches = (column: string, text: string) =>
  sql<boolean>`lower(${sql.ref(column)}) like ${likeText(text)} escape '\\'`;

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
 * A company's next classes at one place, with their programme's title, by start: those starting
 * after `from`, at most `limit` (classes_location: a few classes cost a few rows, whatever the
 * company holds).
 */
export async function findClasses(
  db: Db,
  filter: { companyId: number; from: number; location: string; limit: number },
): Promise<CompanyClassRow[]> {
  const rows = await classesWithCounts(db)
    .select(['co.company_id', 'co.title'])
    .where('co.company_id', '=', filter.companyId)
    .where('cl.starts_at', '>', filter.from)
    .where('cl.location', '=', filter.location)
    .orderBy('cl.starts_at')
    .orderBy('cl.id')
    .limit(filter.limit)
    .execute();
  return rows.map(toClassRow) as CompanyClassRow[];
}

/** The lecturers of some classes, by class id, each list by last and first name: one query for them all. */
export async function lecturersOf(
  db: Db,
  classIds: readonly string[],
): Promise<Map<string, { id: number; first_name: string; last_name: string }[]>> {
  const byClass = new Map<string, { id: number; first_name: string; last_name: string }[]>();
  if (classIds.length === 0) return byClass;
  const rows = await db
    .selectFrom('class_lecturers as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.class_id', 'u.id', 'u.first_name', 'u.last_name'])
    .where('l.class_id', 'in', classIds)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .execute();
  for (const { class_id, ...lecturer } of rows) {
    if (byClass.has(class_id)) byClass.get(class_id)!.push(lecturer);
    else byClass.set(class_id, [lecturer]);
  }
  return byClass;
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

/** Which of a company's programmes a list shows. */
export interface CourseFilter {
  companyId: number;
  /** One programme only. */
  courseId?: string;
  /** Only classes starting after this (service time): the widget API lists upcoming ones. */
  from?: number;
  /** Only these classes, and programmes with at least one of them (a lecturer's view). */
  classIds?: ReadonlySet<string>;
  /** Programmes whose title, summary, category or a class's place contains this, in any letter case. */
  search?: string;
}

/**
 * One page of a company's programmes with their classes, and how many programmes the filter holds
 * in all. Programmes are sorted by their next class (of those the filter keeps; programmes without
 * any last), then by title. What a page costs follows the page, not the company: one query counts and
 * orders the programmes (each by an index lookup of its first class), one reads the page's classes.
 */
export async function pageOfCourses(
  db: Db,
  filter: CourseFilter,
  page: { offset: number; limit: number },
): Promise<{ total: number; entries: { course: CourseRow; classes: ClassRow[] }[] }> {
  const { companyId, courseId, from, classIds, search } = filter;
  if (classIds && classIds.size === 0) return { total: 0, entries: [] };
  const ids = classIds ? [...classIds] : [];
  const courses = db
    .selectFrom('courses as co')
    .where('co.company_id', '=', companyId)
    .$if(courseId !== undefined, (q) => q.where('co.id', '=', courseId!))
    .$if(classIds !== undefined, (q) =>
      q.where((eb) =>
        eb.exists(
          eb.selectFrom('classes as lc').select('lc.id').whereRef('lc.course_id', '=', 'co.id').where('lc.id', 'in', ids),
        ),
      ),
    )
    .$if(search !== undefined && search !== '', (q) =>
      q.where((eb) =>
        eb.or([
          sql<boolean>`lower(co.title || ' ' || co.summary || ' ' || co.category) like ${likeText(search!)} escape '\\'`,
          eb.exists(
            eb
              .selectFrom('classes as sc')
              .select('sc.id')
              .whereRef('sc.course_id', '=', 'co.id')
              .$if(from !== undefined, (s) => s.where('sc.starts_at', '>', from!))
              .where(sql<boolean>`lower(sc.location) like ${likeText(search!)} escape '\\'`),
          ),
        ]),
      ),
    );
  const counted = await courses.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  if (total === 0 || page.offset >= total) return { total, entries: [] };

  const ordered = await db
    .selectFrom(
      courses
        .selectAll('co')
        .select((eb) =>
          eb
            .selectFrom('classes as nc')
            .select((e) => e.fn.min('nc.starts_at').as('t'))
            .whereRef('nc.course_id', '=', 'co.id')
            .$if(from !== undefined, (s) => s.where('nc.starts_at', '>', from!))
            .$if(classIds !== undefined, (s) => s.where('nc.id', 'in', ids))
            .as('next_at'),
        )
        .as('p'),
    )
    .selectAll('p')
    // By the next class, those without one last: one key, so that the next class is looked up once
    // per programme (as two, SQLite looked it up twice: 0.49 → 0.28 ms for 500 programmes).
    .orderBy(sql`coalesce(p.next_at, ${sql.lit(LAST_TIME)})`)
    .orderBy('p.title')
    .orderBy('p.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const pageIds = ordered.map((c) => c.id);
  const classes = pageIds.length
    ? ((
        await classesWithCounts(db)
          .where('cl.course_id', 'in', pageIds)
          .$if(from !== undefined, (q) => q.where('cl.starts_at', '>', from!))
          .$if(classIds !== undefined, (q) => q.where('cl.id', 'in', ids))
          .orderBy('cl.starts_at')
          .orderBy('cl.id')
          .execute()
      ).map(toClassRow) as ClassRow[])
    : [];
  const byCourse = new Map(
    ordered.map(({ id, company_id, title, summary, category }) => [
      id,
      { course: { id, company_id, title, summary, category }, classes: [] as ClassRow[] },
    ]),
  );
  for (const cl of classes) byCourse.get(cl.course_id)?.classes.push(cl);
  return { total, entries: [...byCourse.values()] };
}

/** How many programmes a page of the widget API holds. */
export const COURSES_PAGE = 20;

/**
 * The widget API's programmes (the registration and calendar widgets' first render, and the pages
 * after it): a page of the company's programmes, or the one `courseId` names, each with its classes
 * starting after `now`, and how many there are in all.
 */
export async function upcomingCourses(
  db: Db,
  filter: { companyId: number; courseId?: string | undefined; search?: string | undefined; page?: number },
  now: number,
): Promise<{ courses: Course[]; total: number }> {
  const { companyId, courseId, search, page = 1 } = filter;
  if (courseId !== undefined) await requireCourse(db, companyId, courseId);
  const { total, entries } = await pageOfCourses(
    db,
    { companyId, from: now, ...(courseId !== undefined ? { courseId } : {}), ...(search ? { search } : {}) },
    { offset: (page - 1) * COURSES_PAGE, limit: COURSES_PAGE },
  );
  return {
    total,
    courses: entries.map(({ course, classes }) => ({
      id: course.id,
      title: course.title,
      summary: course.summary,
      category: course.category,
      classes: classes.map(publicClass),
    })),
  };
}
