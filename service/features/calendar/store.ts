/** The calendar's classes: upcoming ones, each on the day it starts in its venue's time zone. */
import { sql, type SelectQueryBuilder } from 'kysely';
import { dayDate } from '../../core/time-zones.ts';
import type { Db, Tables } from '../../db/database.ts';
import { getClasses, lecturersOf, placeMatches, publicClass, type CompanyClassRow } from '../../domain/classes.ts';
import type { CalendarClass, CalendarDay } from '../../../contract/api/calendar.ts';

/** How many classes a page of a month (or of a day) holds. */
export const CLASS_PAGE = 20;
/** How many programmes or places the filters list at most: of more, the list is left empty. */
export const FILTER_LIMIT = 50;

/** A calendar's month: its days, a page of its classes (or of one day's), and the first later month with one (or null). */
export interface CalendarMonth {
  days: CalendarDay[];
  classes: CompanyClassRow[];
  /** How many classes the month (or the day) holds. */
  total: number;
  nextMonth: string | null;
}

const DAY = 86_400_000;

/**
 * The classes of the company that start after `now` in `month` (`YYYY-MM`), on the day they start in
 * their venue's time zone (`local_day`), of one programme or at places containing `place`: each day
 * of the month with its count and its first two programmes, page `page` of the month's classes by
 * start (or of `day`'s, `YYYY-MM-DD`), and the first later month with such a class. What it reads is
 * what the answer holds, whatever the month holds (classes_local_day).
 */
export async function calendarMonth(
  db: Db,
  filter: { companyId: number; month: string; day?: string; page: number; courseId?: string; place?: string },
  now: number,
): Promise<CalendarMonth> {
  const [year, month] = filter.month.split('-').map(Number) as [number, number];
  const first = Date.UTC(year, month - 1, 1) / DAY;
  const end = Date.UTC(year, month, 1) / DAY;
  const upcoming = <O>(q: SelectQueryBuilder<Tables, 'classes' | 'courses', O>) =>
    q
      .where('courses.company_id', '=', filter.companyId)
      .where('classes.starts_at', '>', now)
      .$if(filter.courseId !== undefined, (q) => q.where('classes.course_id', '=', filter.courseId!))
      .$if(filter.place !== undefined, (q) => q.where(placeMatches('classes.location', filter.place!)));
  const classes = () => db.selectFrom('classes').innerJoin('courses', 'courses.id', 'classes.course_id');
  // The classes first, by their day (classes_local_day), then their programme: a day's few classes
  // or the next month's first (SQLite takes a CROSS JOIN's order as it is written).
  const byDay = () => db.selectFrom('classes').crossJoin('courses').whereRef('courses.id', '=', 'classes.course_id');

  // Each day's count, and the programmes of its first two classes by start.
  const counts = upcoming(classes())
    .select((eb) => ['classes.local_day', eb.fn.countAll<number>().as('count')])
    .where('classes.local_day', '>=', first)
    .where('classes.local_day', '<', end)
    .groupBy('classes.local_day');
  const title = (offset: number) =>
    upcoming(byDay())
      .select('courses.title')
      .where(sql<boolean>`${sql.ref('classes.local_day')} = ${sql.ref('d.local_day')}`)
      .orderBy('classes.starts_at')
      .orderBy('classes.id')
      .limit(1)
      .offset(offset);
  const rows = await db
    .selectFrom(counts.as('d'))
    .select(['d.local_day', 'd.count'])
    .select([title(0).as('first'), title(1).as('second')])
    .orderBy('d.local_day')
    .execute();
  const days: CalendarDay[] = rows.map((row) => ({
    date: dayDate(Number(row.local_day)),
    classes: Number(row.count),
    titles: [row.first, row.second].filter((t): t is string => t !== null),
  }));

  const [from, until] = filter.day ? [Date.parse(filter.day) / DAY, Date.parse(filter.day) / DAY + 1] : [first, end];
  const total = days.filter((d) => d.date >= dayDate(from) && d.date < dayDate(until)).reduce((n, d) => n + d.classes, 0);
  // The page's ids first: what a class's seats cost is paid for the page only.
  const ids = await upcoming(classes())
    .select('classes.id')
    .where('classes.local_day', '>=', from)
    .where('classes.local_day', '<', until)
    .orderBy('classes.starts_at')
    .orderBy('classes.id')
    .limit(CLASS_PAGE)
    .offset((filter.page - 1) * CLASS_PAGE)
    .execute();
  const page = (
    await getClasses(
      db,
      ids.map((r) => r.id),
    )
  ).sort((a, b) => a.starts_at - b.starts_at || (a.id < b.id ? -1 : 1));

  const next = await upcoming(byDay())
    .select('classes.local_day')
    .where('classes.local_day', '>=', end)
    .orderBy('classes.local_day')
    .limit(1)
    .executeTakeFirst();
  return { days, classes: page, total, nextMonth: next ? dayDate(Number(next.local_day)).slice(0, 7) : null };
}

/**
 * The programmes and places with upcoming classes (the calendar's filters), by name: each list when
 * it holds at most FILTER_LIMIT, else empty (a select of hundreds helps no one; the owner places a
 * calendar per programme or place instead).
 */
export async function calendarFilters(
  db: Db,
  companyId: number,
  now: number,
): Promise<{ courses: { id: string; title: string }[]; locations: string[] }> {
  // Programmes grow with a company: counted first (one row), listed when they are few.
  const upcomingCourses = db
    .selectFrom('courses')
    .select(['courses.id', 'courses.title'])
    .where('courses.company_id', '=', companyId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('classes')
          .select('classes.id')
          .whereRef('classes.course_id', '=', 'courses.id')
          .where('classes.starts_at', '>', now),
      ),
    );
  const counted = await db
    .selectFrom(upcomingCourses.limit(FILTER_LIMIT + 1).as('f'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const courses = Number(counted.n) > FILTER_LIMIT ? [] : await upcomingCourses.execute();
  // A company's places are few: listed at once (what a count would read, the list reads).
  const places = await db
    .selectFrom('classes')
    .innerJoin('courses', 'courses.id', 'classes.course_id')
    .select('classes.location')
    .distinct()
    .where('courses.company_id', '=', companyId)
    .where('classes.starts_at', '>', now)
    .limit(FILTER_LIMIT + 1)
    .execute();
  return {
    courses: courses.sort((a, b) => a.title.localeCompare(b.title, 'en')),
    locations: (places.length > FILTER_LIMIT ? [] : places.map((p) => p.location)).sort((a, b) => a.localeCompare(b, 'en')),
  };
}

/** The classes as the calendar answers them, with their lecturers. */
export async function calendarClasses(db: Db, classes: readonly CompanyClassRow[]): Promise<CalendarClass[]> {
  const lecturers = await lecturersOf(
    db,
    classes.map((c) => c.id),
  );
  return classes.map((cls) => ({
    ...publicClass(cls),
    course_id: cls.course_id,
    course_title: cls.title,
    local_date: dayDate(cls.local_day),
    lecturers: (lecturers.get(cls.id) ?? []).map((l) => ({ name: `${l.first_name} ${l.last_name}` })),
  }));
}
