/**
 * `GET /widget-api/v1/widget`: a widget's whole first render in one request. The key's checks are
 * made here; what each type adds is its feature's part (`deps.firstRenders`, widget-api/first-render.ts).
 */
import { WIDGET_TYPES, type WidgetType } from '../../core/widget-types.ts';
import { sendJson, type ServiceDeps } from '../../http/context.ts';
import { error } from '../../http/docs.ts';
import { ApiError, newFieldErrors, pageOf, validationError } from '../../http/errors.ts';
import { SubApp } from '../../http/routes.ts';
import { WIDGET_API_PREFIX, checkEnabled, checkOrigin, checkType, lookupKey } from '../../widget-api/keys.ts';
import { CoursesPage, WidgetResponse } from '../../../contract/api/catalog.ts';
import { COURSES_PAGE, upcomingCourses } from '../../domain/classes.ts';

export function catalogRoutes(deps: ServiceDeps): SubApp[] {
  const app = new SubApp(WIDGET_API_PREFIX);
  const { db } = deps.store;
  deps.api.add(
    app,
    {
      method: 'get',
      path: `${WIDGET_API_PREFIX}/widget`,
      tags: ['Widget API'],
      operationId: 'widget',
      summary: "A widget's whole first render in one request",
      description:
        'A CORS simple request (no preflight). Successful answers carry `Access-Control-Allow-Origin` only for origins the key allows; errors carry it for any origin. Registration and calendar keys get `courses`: only upcoming classes are listed, sorted by start; programmes by their next class; a programme without upcoming classes is listed with `classes: []`. Contact keys get `form`; other types `widget` alone.',
      security: [{ widgetKey: [] }],
      parameters: [
        {
          name: 'type',
          in: 'query',
          required: true,
          description: 'The widget type the page asked for',
          schema: { type: 'string', enum: [...WIDGET_TYPES] },
        },
        {
          name: 'course',
          in: 'query',
          required: false,
          description: 'Registration and calendar keys: limit the answer to one programme (`course-not-found` if unknown)',
          schema: { type: 'string' },
        },
        {
          name: 'video',
          in: 'query',
          required: false,
          description: 'Video widgets: limit the answer to one video (`video-not-found` if unknown)',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': { description: 'The widget and its data', schema: WidgetResponse },
        '400': error('`missing-key`'),
        '401': error('`invalid-key`: unknown or revoked'),
        '403': error('`origin-not-allowed`, `type-mismatch`, `not-available`'),
        '404': error('`course-not-found`, `video-not-found`'),
        '422': 'Validation',
      },
    },
    async (c) => {
      const key = await lookupKey(db, c);
      checkOrigin(c, key);
      const type = c.req.query('type');
      if (type === undefined || type === '') {
        throw validationError({ type: `Add the widget type, for example type=${key.type}.` });
      }
      if (!(WIDGET_TYPES as readonly string[]).includes(type)) {
        throw validationError({ type: `Unknown widget type "${type}". Use one of: ${WIDGET_TYPES.join(', ')}.` });
      }
      checkType(key, type as WidgetType);
      checkEnabled(key);

      return sendJson((await deps.firstRenders.of(key, (name) => c.req.query(name))) satisfies WidgetResponse);
    },
  );

  deps.api.add(
    app,
    {
      method: 'get',
      path: `${WIDGET_API_PREFIX}/courses`,
      tags: ['Widget API'],
      operationId: 'widgetCourses',
      summary: 'A page of the programmes (registration and calendar keys), or those a search finds',
      description: `A CORS simple request, like \`GET /widget\`, whose \`courses\` are this list's first page. Pages hold ${COURSES_PAGE} programmes, sorted by their next class, each with its upcoming classes; \`courses_total\` says how many match in all.`,
      security: [{ widgetKey: [] }],
      parameters: [
        {
          name: 'page',
          in: 'query',
          required: false,
          description: 'The page, from 1 (the default)',
          schema: { type: 'integer', minimum: 1, examples: [2] },
        },
        {
          name: 'q',
          in: 'query',
          required: false,
          description: 'Only programmes whose title, summary, category or a class’s place contains this text, in any letter case',
          schema: { type: 'string', maxLength: SEARCH_MAX, examples: ['Berlin'] },
        },
      ],
      responses: {
        '200': { description: 'The page', schema: CoursesPage },
        '400': error('`missing-key`'),
        '401': error('`invalid-key`: unknown or revoked'),
        '403': error('`origin-not-allowed`, `type-mismatch` (not a registration or calendar key), `not-available`'),
        '422': error('`validation`: `fields.page` (not a whole number from 1), `fields.q` (too long)'),
      },
    },
    async (c) => {
      const key = await lookupKey(db, c);
      checkOrigin(c, key);
      if (key.type !== 'registration' && key.type !== 'calendar') {
        throw new ApiError(
          403,
          'type-mismatch',
          `This key belongs to a ${key.type} widget: programmes are listed for registration and calendar widgets.`,
        );
      }
      checkEnabled(key);
      const fields = newFieldErrors();
      const page = pageOf(c.req.query('page'), fields);
      const q = c.req.query('q')?.trim() ?? '';
      if (q.length > SEARCH_MAX) fields.q = `Shorten the search to at most ${SEARCH_MAX} characters.`;
      if (Object.keys(fields).length > 0) throw validationError(fields);
      const { courses, total } = await upcomingCourses(db, { companyId: key.company_id, search: q, page }, deps.clock.now());
      return sendJson({ courses, courses_total: total, page } satisfies CoursesPage);
    },
  );
  return [app];
}

/** How long a search of the programmes may be. */
const SEARCH_MAX = 100;
