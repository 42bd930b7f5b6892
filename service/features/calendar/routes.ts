/**
 * The calendar widget's month (`GET /calendar`) and the iCalendar file of some classes
 * (`GET /calendar.ics`) (docs/widget-api.md, "Calendar").
 */
import { localDate } from '../../core/time-zones.ts';
import { sendJson, type AppContext, type ServiceDeps } from '../../http/context.ts';
import { error } from '../../http/docs.ts';
import { ApiError, newFieldErrors, pageOf, validationError } from '../../http/errors.ts';
import { SubApp } from '../../http/routes.ts';
import { getClasses, requireCourse } from '../../domain/classes.ts';
import type { WidgetKeyRow } from '../../domain/widget-keys.ts';
import { coursesPart } from '../../widget-api/first-render.ts';
import { WIDGET_API_PREFIX, checkEnabled, checkOrigin, lookupKey, widgetInfo, widgetKey } from '../../widget-api/keys.ts';
import { icsCalendar } from './ics.ts';
import { CalendarResponse, MONTH } from '../../../contract/api/calendar.ts';
import { CLASS_PAGE, calendarClasses, calendarFilters, calendarMonth } from './store.ts';

/** The months a calendar may ask for. */
export const MONTH_YEARS = { min: 2000, max: 2100 } as const;
/** How long a `location` filter may be, and how many classes one `.ics` file may hold. */
export const CALENDAR_LIMITS = { location: 200, icsClasses: 20 } as const;

const BAD_MONTH = `month is a month as YYYY-MM (for example 2026-12), from ${MONTH_YEARS.min}-01 to ${MONTH_YEARS.max}-12; leave it out for this month.`;

/**
 * The calendar's query: `month` (default: the service clock's month in UTC), `day` (one of the
 * month's), `page`, `course`, `location`.
 */
function calendarQuery(
  c: AppContext,
  now: number,
): { month: string; day?: string; page: number; course?: string; location?: string } {
  const fields = newFieldErrors();
  const month = c.req.query('month')?.trim() || localDate(now, 'UTC').slice(0, 7);
  const year = Number(month.slice(0, 4));
  if (!MONTH.test(month) || year < MONTH_YEARS.min || year > MONTH_YEARS.max) fields.month = BAD_MONTH;
  const day = c.req.query('day')?.trim() || undefined;
  const realDay = (d: string) => /^\d{4}-\d\d-\d\d$/.test(d) && new Date(Date.parse(d) || 0).toISOString().slice(0, 10) === d;
  if (day !== undefined && !(day.startsWith(month) && realDay(day))) {
    fields.day = `day is a day of the month asked for, as YYYY-MM-DD (for example ${month}-01); leave it out for the whole month.`;
  }
  const page = pageOf(c.req.query('page'), fields);
  // Empty parameters (an unset attribute) filter nothing.
  const course = c.req.query('course')?.trim() || undefined;
  const location = c.req.query('location')?.trim() || undefined;
  if (location !== undefined && location.length > CALENDAR_LIMITS.location) {
    fields.location = `Shorten location to at most ${CALENDAR_LIMITS.location} characters: a part of a place’s name, like Berlin.`;
  }
  if (course !== undefined && course.length > 100) fields.course = 'This is no programme id: check data-service-course.';
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return {
    month,
    page,
    ...(day !== undefined ? { day } : {}),
    ...(course !== undefined ? { course } : {}),
    ...(location !== undefined ? { location } : {}),
  };
}

/**
 * The key of the calendar file: a calendar's or a checkout's. A plain link (a navigation, a
 * download, a link in an email) sends no `Origin`, and the file holds nothing but what the
 * calendar shows anyone, so only a request that names its page's origin is origin-checked.
 */
async function icsKey(deps: ServiceDeps, c: AppContext): Promise<WidgetKeyRow> {
  // An order's link keeps working after its widget's key was rotated: the file holds nothing personal.
  const key = await lookupKey(deps.store.db, c, { anyRetired: true });
  if (c.req.header('origin') !== undefined) checkOrigin(c, key);
  if (!['calendar', 'checkout', 'registration'].includes(key.type)) {
    throw new ApiError(
      403,
      'type-mismatch',
      `This key belongs to a ${key.type} widget: the calendar file takes the key of a calendar, checkout or registration widget.`,
    );
  }
  checkEnabled(key);
  return key;
}

export function calendarRoutes(deps: ServiceDeps): SubApp[] {
  const app = new SubApp(WIDGET_API_PREFIX);
  const { db } = deps.store;
  deps.firstRenders.add('calendar', coursesPart(deps));

  deps.api.add(
    app,
    {
      method: 'get',
      path: `${WIDGET_API_PREFIX}/calendar`,
      tags: ['Widget API'],
      operationId: 'calendar',
      summary: 'A month of the company’s upcoming classes (calendar keys)',
      description: `A CORS simple request, like \`GET /widget\`. A class belongs to the month of the day it starts on in its venue’s time zone (\`local_date\`): a class at 23:30 UTC on 31 January in Berlin is on 1 February. Only classes that start after the service’s \`now\` are counted and listed, by start. \`days\` holds each day of the month with classes (their count and first two programmes); \`classes\` a page of ${CLASS_PAGE} of the month’s classes, or of \`day\`’s, with \`classes_total\`. \`filters\` lists every programme and place with upcoming classes whatever the filters (a list of more than 50 is empty); \`next_month\` is the first later month with a matching class (or null), for an empty month to offer.`,
      security: [{ widgetKey: [] }],
      parameters: [
        {
          name: 'month',
          in: 'query',
          required: false,
          description: `The month (\`YYYY-MM\`, ${MONTH_YEARS.min}–${MONTH_YEARS.max}); default: the month of the service clock’s now in UTC`,
          schema: { type: 'string', pattern: MONTH.source, examples: ['2026-12'] },
        },
        {
          name: 'day',
          in: 'query',
          required: false,
          description: 'Only this day’s classes (`YYYY-MM-DD`, a day of `month`) in `classes`',
          schema: { type: 'string', examples: ['2026-12-01'] },
        },
        {
          name: 'page',
          in: 'query',
          required: false,
          description: `The page of \`classes\`, from 1 (${CLASS_PAGE} to a page)`,
          schema: { type: 'integer', minimum: 1, examples: [2] },
        },
        {
          name: 'course',
          in: 'query',
          required: false,
          description: 'Only this programme’s classes (`course-not-found` if the company has no such programme)',
          schema: { type: 'string', maxLength: 100, examples: ['crs_web'] },
        },
        {
          name: 'location',
          in: 'query',
          required: false,
          description: 'Only classes whose place contains this text, in any letter case (`Berlin`)',
          schema: { type: 'string', maxLength: CALENDAR_LIMITS.location, examples: ['Berlin'] },
        },
      ],
      responses: {
        '200': { description: 'The month', schema: CalendarResponse },
        '400': error('`missing-key`'),
        '401': error('`invalid-key`: unknown or revoked'),
        '403': error('`origin-not-allowed`, `type-mismatch` (not a calendar key), `not-available`'),
        '404': error('`course-not-found`'),
        '422': error(
          '`validation`: `fields.month` (not `YYYY-MM` of 2000–2100), `fields.day` (not a day of the month), `fields.page` (not a whole number from 1), `fields.location` (too long)',
        ),
      },
    },
    async (c) => {
      const key = await widgetKey(db, c, 'calendar');
      const now = deps.clock.now();
      const query = calendarQuery(c, now);
      if (query.course !== undefined) await requireCourse(db, key.company_id, query.course);

      const { days, classes, total, nextMonth } = await calendarMonth(
        db,
        {
          companyId: key.company_id,
          month: query.month,
          page: query.page,
          ...(query.day !== undefined ? { day: query.day } : {}),
          ...(query.course !== undefined ? { courseId: query.course } : {}),
          ...(query.location !== undefined ? { place: query.location } : {}),
        },
        now,
      );
      return sendJson({
        widget: widgetInfo(key),
        now: new Date(now).toISOString(),
        month: query.month,
        filters: await calendarFilters(db, key.company_id, now),
        days,
        classes: await calendarClasses(db, classes),
        classes_total: total,
        page: query.page,
        next_month: nextMonth,
      } satisfies CalendarResponse);
    },
  );

  deps.api.add(
    app,
    {
      method: 'get',
      path: `${WIDGET_API_PREFIX}/calendar.ics`,
      tags: ['Widget API'],
      operationId: 'calendarFile',
      summary: 'Some classes as an iCalendar file (calendar, checkout and registration keys)',
      description: `For “add to calendar”: one VEVENT per class (SUMMARY the programme, LOCATION the place, a UID stable per class), its DTSTART and DTEND in the venue’s time zone (\`TZID\`) with a VTIMEZONE for each zone, derived from the platform’s time zone data. It holds nothing personal, so it needs no token and works as a plain link: a request without \`Origin\` (a navigation, a download) is not origin-checked. At most ${CALENDAR_LIMITS.icsClasses} classes of the key’s company, past ones too.`,
      security: [{ widgetKey: [] }],
      parameters: [
        {
          name: 'classes',
          in: 'query',
          required: true,
          description: `Class ids, comma-separated (1–${CALENDAR_LIMITS.icsClasses})`,
          schema: { type: 'string', examples: ['cls_web_1,cls_ts_2'] },
        },
      ],
      responses: {
        '200': {
          description: 'The file (`Content-Disposition: attachment; filename="classes.ics"`)',
          content: { 'text/calendar': { schema: { type: 'string' } } },
        },
        '400': error('`missing-key`'),
        '401': error('`invalid-key`: unknown or revoked'),
        '403': error('`origin-not-allowed` (a request naming a page the key does not serve), `type-mismatch`, `not-available`'),
        '422': error('`validation`: `fields.classes` (missing, more than 20, or a class the company does not have)'),
      },
    },
    async (c) => {
      const key = await icsKey(deps, c);
      const ids = [
        ...new Set(
          (c.req.query('classes') ?? '')
            .split(',')
            .map((id) => id.trim())
            .filter(Boolean),
        ),
      ];
      const bad = (message: string) => validationError({ classes: message });
      if (ids.length === 0) throw bad('Add classes=<id>,<id>: the ids of the classes to put into the file.');
      if (ids.length > CALENDAR_LIMITS.icsClasses)
        throw bad(`Ask for at most ${CALENDAR_LIMITS.icsClasses} classes in one file.`);
      const found = ids.some((id) => id.length > 100) ? [] : await getClasses(db, ids);
      const byId = new Map(found.filter((cl) => cl.company_id === key.company_id).map((cl) => [cl.id, cl]));
      const unknown = ids.filter((id) => !byId.has(id));
      if (unknown.length > 0) {
        throw bad(`There is no class ${unknown.map((id) => `"${id.slice(0, 100)}"`).join(', ')} for this key: check the ids.`);
      }
      const host = new URL(deps.publicUrl).host;
      const classes = [...byId.values()].sort((a, b) => a.starts_at - b.starts_at || (a.id < b.id ? -1 : 1));
      const body = icsCalendar(
        classes.map((cl) => ({
          uid: `${cl.id}@${host}`,
          startsAt: cl.starts_at,
          endsAt: cl.ends_at,
          timezone: cl.timezone,
          summary: cl.title,
          location: cl.location,
        })),
        { now: deps.clock.now(), name: key.company_name },
      );
      return new Response(body, {
        status: 200,
        headers: {
          'Content-Type': 'text/calendar; charset=utf-8',
          'Content-Disposition': 'attachment; filename="classes.ics"',
        },
      });
    },
  );
  return [app];
}
