/**
 * The company's widgets in the REST API (`/v1/widgets`, `/v1/team`): what the app's Team & Settings >
 * Publish shows and changes. An owner does everything; a member sees the widgets and the team and
 * changes nothing (403 `role-not-allowed`); a lecturer neither (403 `role-not-allowed`). Each change is
 * a write transaction of the shared store code (domain/widgets.ts).
 */
import { isoTime } from '../../core/ids.ts';
import { WIDGET_TYPES as LOADER_OF, type WidgetType } from '../../../contract/index.ts';
import {
  TeamResponse,
  WidgetCreateRequest,
  WidgetResource,
  WidgetUpdateRequest,
  WidgetsResponse,
  type CompanyRole,
  type Role,
} from '../../../contract/api/rest.ts';
import { WIDGET_TYPES } from '../../../contract/api/widget-keys.ts';
import { sendJson, type AppContext, type ServiceDeps } from '../../http/context.ts';
import { error } from '../../http/docs.ts';
import { ApiError, validationError } from '../../http/errors.ts';
import type { SubApp } from '../../http/routes.ts';
import { keyVerdict, verdictQuery } from '../../widget-api/keys.ts';
import { WidgetKeyCheckResponse } from '../../../contract/api/dev.ts';
import {
  KEY_GRACE_MS,
  companyWidget,
  companyWidgets,
  insertWidget,
  retiredKeys,
  rotateWidgetKey,
  updateWidget,
  widgetOptions,
  widgetOrigins,
  type WidgetRow,
} from '../../domain/widgets.ts';

/** What the widget routes need of the REST API's own: who calls, for which company, in which role. */
export type CompanyOfRequest = (c: AppContext) => Promise<CompanyRole>;

const REST = ['REST API'];
/** The longest a rotated key serves its widget, in hours (and the default). */
const GRACE_HOURS = KEY_GRACE_MS / 3_600_000;
const ID = { name: 'id', in: 'path', required: true, description: 'The widget’s id', schema: { type: 'integer', minimum: 1 } };
const ROLE_ERRORS = {
  '400': error('`missing-company`, `invalid-company`'),
  '401': 'Unauthorized',
  '403': error('`company-not-allowed`; `role-not-allowed`: a lecturer (any widget route), a member (any change)'),
};

export function registerWidgetRoutes(app: SubApp, deps: ServiceDeps, companyOf: CompanyOfRequest): void {
  const { store, clock } = deps;
  const { db } = store;

  /** The company of the request, if the caller's role there is one of `roles`. */
  const inRole = async (c: AppContext, roles: readonly Role[]) => {
    const company = await companyOf(c);
    if (!roles.includes(company.role)) {
      throw new ApiError(
        403,
        'role-not-allowed',
        company.role === 'lecturer'
          ? 'Lecturers do not publish the company’s widgets: an owner or a member of the company sees them.'
          : 'Only an owner of the company changes its widgets; a member sees them. Ask an owner.',
      );
    }
    return company;
  };

  /** The widgets as the API answers them, with the keys rotated out of them that still serve them. */
  const views = async (rows: readonly WidgetRow[]): Promise<WidgetResource[]> => {
    const retired = await retiredKeys(
      db,
      rows.map((r) => r.id),
      clock.now(),
    );
    return rows.map((row) => ({
      id: row.id,
      key: row.key,
      type: row.type as WidgetType,
      loader: `v${LOADER_OF[row.type as WidgetType]}` as 'v1' | 'v2',
      name: row.name,
      origins: JSON.parse(row.origins) as string[],
      enabled: row.enabled === 1,
      options: JSON.parse(row.options) as Record<string, unknown>,
      created_at: row.created_at === null ? null : isoTime(Number(row.created_at)),
      previous_keys: (retired.get(row.id) ?? []).map((k) => ({ key: k.key, valid_until: isoTime(Number(k.valid_until)) })),
    }));
  };
  const view = async (row: WidgetRow) => (await views([row]))[0]!;

  /** The widget of the path's id, read in `on` (a change reads it in its own transaction, as it is then). */
  const widgetOf = async (c: AppContext, companyId: number, on: typeof db = db) => {
    const raw = c.req.param('id') ?? '';
    // Ids are 32-bit integers: a longer number names no widget (and PostgreSQL would refuse it).
    const id = /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : NaN;
    const row = Number.isNaN(id) ? undefined : await companyWidget(on, companyId, id);
    if (!row || row.revoked_at !== null) {
      throw new ApiError(404, 'not-found', 'This company has no widget with this id: GET /v1/widgets lists them.');
    }
    return row;
  };

  deps.api.add(
    app,
    {
      method: 'get',
      path: '/v1/widgets',
      tags: REST,
      operationId: 'listWidgets',
      summary: 'The company’s widgets, newest first (owners and members)',
      security: [{ apiKey: [], userToken: [] }],
      parameters: [
        { $ref: '#/components/parameters/Company' },
        {
          name: 'type',
          in: 'query',
          required: false,
          description: 'Only widgets of this type',
          schema: { type: 'string', enum: WIDGET_TYPES },
        },
      ],
      responses: { '200': { description: 'The widgets', schema: WidgetsResponse }, ...ROLE_ERRORS, '422': 'Validation' },
    },
    async (c) => {
      const company = await inRole(c, ['owner', 'member']);
      const type = c.req.query('type') || undefined;
      if (type !== undefined && !(WIDGET_TYPES as readonly string[]).includes(type)) {
        throw validationError({ type: `type is one of ${WIDGET_TYPES.join(', ')}, or left out for every widget.` });
      }
      const rows = (await companyWidgets(db, company.id, type as WidgetType | undefined)).filter((r) => r.revoked_at === null);
      return sendJson({ widgets: await views(rows) } satisfies WidgetsResponse);
    },
  );

  deps.api.add(
    app,
    {
      method: 'get',
      path: '/v1/widgets/check',
      tags: REST,
      operationId: 'checkWidgetKey',
      summary: 'What the widget API would answer a placeholder with `key` of `type` on a page of `origin` (owners and members)',
      description:
        'The widget API’s own key checks, in their order (`missing-key`, `invalid-key`, `revoked`, `origin-not-allowed`, `type-mismatch`, `not-available`), for a page the request does not come from: the app’s snippet check. A key of another company is `invalid-key`. Without `origin` or `type`, that check is left out.',
      security: [{ apiKey: [], userToken: [] }],
      parameters: [
        { $ref: '#/components/parameters/Company' },
        { name: 'key', in: 'query', required: true, schema: { type: 'string', examples: ['wk_3q2…'] } },
        { name: 'type', in: 'query', required: false, schema: { type: 'string', enum: WIDGET_TYPES } },
        { name: 'origin', in: 'query', required: false, schema: { type: 'string', examples: ['https://www.acme.example'] } },
      ],
      responses: {
        '200': { description: 'The verdict, and the refusal with its message', schema: WidgetKeyCheckResponse },
        ...ROLE_ERRORS,
        '422': error('`validation`: `type` is no widget type, or `origin` no origin'),
      },
    },
    async (c) => {
      const company = await inRole(c, ['owner', 'member']);
      const verdict = await keyVerdict(db, c.req.query('key'), {
        now: clock.now(),
        own: c.get('ownOrigins'),
        companyId: company.id,
        ...verdictQuery(c),
      });
      return sendJson(verdict);
    },
  );

  deps.api.add(
    app,
    {
      method: 'post',
      path: '/v1/widgets',
      tags: REST,
      operationId: 'createWidget',
      summary: 'Creates a widget of the company, with a new widget API key (owners)',
      description:
        'Its `origins` are the pages it shows on: `https://…` origins (in development also plain http on this machine); any other is 422 naming `origins`.',
      security: [{ apiKey: [], userToken: [] }],
      parameters: [{ $ref: '#/components/parameters/Company' }],
      body: WidgetCreateRequest,
      responses: {
        '201': { description: 'The widget', schema: WidgetResource },
        ...ROLE_ERRORS,
        '413': 'PayloadTooLarge',
        '415': 'UnsupportedMediaType',
        '422': 'Validation',
      },
    },
    async (c, body) => {
      const company = await inRole(c, ['owner']);
      let origins: string[] = [];
      const input = await body((raw, fields) => {
        if (!('origins' in fields) && Array.isArray(raw.origins)) origins = widgetOrigins(raw.origins, deps.dev, fields);
        if (!('options' in fields) && !('type' in fields) && raw.options && typeof raw.options === 'object')
          widgetOptions(raw.type as WidgetType, raw.options as Record<string, unknown>, fields);
      });
      const row = await store.transaction((tx) =>
        insertWidget(tx, {
          companyId: company.id,
          type: input.type,
          ...(input.name !== undefined ? { name: input.name } : {}),
          origins,
          options: input.options ?? {},
          now: clock.now(),
        }),
      );
      return sendJson(await view(row), 201);
    },
  );

  deps.api.add(
    app,
    {
      method: 'get',
      path: '/v1/widgets/{id}',
      tags: REST,
      operationId: 'getWidget',
      summary: 'One of the company’s widgets (owners and members)',
      security: [{ apiKey: [], userToken: [] }],
      parameters: [{ $ref: '#/components/parameters/Company' }, ID],
      responses: { '200': { description: 'The widget', schema: WidgetResource }, ...ROLE_ERRORS, '404': error('`not-found`') },
    },
    async (c) => {
      const company = await inRole(c, ['owner', 'member']);
      return sendJson(await view(await widgetOf(c, company.id)));
    },
  );

  deps.api.add(
    app,
    {
      method: 'patch',
      path: '/v1/widgets/{id}',
      tags: REST,
      operationId: 'updateWidget',
      summary: 'Changes a widget: its name, options, the whole list of origins, enabled (owners)',
      description:
        'What is left out stays. A disabled widget answers `not-available` to its pages; enabling it again brings it back.',
      security: [{ apiKey: [], userToken: [] }],
      parameters: [{ $ref: '#/components/parameters/Company' }, ID],
      body: WidgetUpdateRequest,
      responses: {
        '200': { description: 'The widget as it is now', schema: WidgetResource },
        ...ROLE_ERRORS,
        '404': error('`not-found`'),
        '413': 'PayloadTooLarge',
        '415': 'UnsupportedMediaType',
        '422': 'Validation',
      },
    },
    async (c, body) => {
      const company = await inRole(c, ['owner']);
      const { type } = await widgetOf(c, company.id);
      let origins: string[] | undefined;
      const input = await body((raw, fields) => {
        if (!('origins' in fields) && Array.isArray(raw.origins)) origins = widgetOrigins(raw.origins, deps.dev, fields);
        if (!('options' in fields) && raw.options && typeof raw.options === 'object')
          widgetOptions(type as WidgetType, raw.options as Record<string, unknown>, fields);
      });
      // Read again in the change's own transaction: what another change made meanwhile is kept.
      const changed = await store.transaction(async (tx) =>
        updateWidget(tx, await widgetOf(c, company.id, tx), {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.options !== undefined ? { options: input.options } : {}),
          ...(origins !== undefined ? { origins } : {}),
          ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        }),
      );
      return sendJson(await view(changed));
    },
  );

  deps.api.add(
    app,
    {
      method: 'post',
      path: '/v1/widgets/{id}/rotate',
      tags: REST,
      operationId: 'rotateWidgetKey',
      summary: 'Gives a widget a new key; the old one serves it for a day more, then answers `revoked` (owners)',
      description: `For a key that must change (a site moved; it was shown where it should not be). The answer holds the new key, and the old one in \`previous_keys\` with its \`valid_until\`: \`grace_hours\` of the service clock for the site to take the new snippet (default and most ${GRACE_HOURS}; 0 ends the old key at once, for one that leaked). After it, the widget API answers the old key \`revoked\`. A key rotated out before keeps its own \`valid_until\`.`,
      security: [{ apiKey: [], userToken: [] }],
      parameters: [
        { $ref: '#/components/parameters/Company' },
        ID,
        {
          name: 'grace_hours',
          in: 'query',
          required: false,
          description: `How long the old key still serves the widget, in hours (0 to ${GRACE_HOURS}, default ${GRACE_HOURS})`,
          schema: { type: 'integer', minimum: 0, maximum: GRACE_HOURS },
        },
      ],
      responses: {
        '200': { description: 'The widget under its new key', schema: WidgetResource },
        ...ROLE_ERRORS,
        '404': error('`not-found`'),
        '422': error('`validation`: `fields.grace_hours` (not a whole number from 0 to 24)'),
      },
    },
    async (c) => {
      const company = await inRole(c, ['owner']);
      const raw = c.req.query('grace_hours') ?? String(GRACE_HOURS);
      const hours = /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
      if (!(hours >= 0 && hours <= GRACE_HOURS)) {
        throw validationError({
          grace_hours: `grace_hours is a whole number of hours from 0 (the old key stops at once) to ${GRACE_HOURS} (the default).`,
        });
      }
      // In the rotation's own transaction: two at once retire one key each, in turn.
      const rotated = await store.transaction(async (tx) =>
        rotateWidgetKey(tx, await widgetOf(c, company.id, tx), clock.now(), hours * 3_600_000),
      );
      return sendJson(await view(rotated));
    },
  );

  deps.api.add(
    app,
    {
      method: 'get',
      path: '/v1/team',
      tags: REST,
      operationId: 'team',
      summary: 'Who holds which role in the company (owners and members)',
      security: [{ apiKey: [], userToken: [] }],
      parameters: [{ $ref: '#/components/parameters/Company' }],
      responses: { '200': { description: 'The team, by role and name', schema: TeamResponse }, ...ROLE_ERRORS },
    },
    async (c) => {
      const company = await inRole(c, ['owner', 'member']);
      const rows = await db
        .selectFrom('memberships as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'm.role'])
        .where('m.company_id', '=', company.id)
        .execute();
      const order: Role[] = ['owner', 'member', 'lecturer'];
      const team = rows
        .map((r) => ({ id: r.id, first_name: r.first_name, last_name: r.last_name, email: r.email, role: r.role as Role }))
        .sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role) || a.last_name.localeCompare(b.last_name, 'en'));
      return sendJson({ company, team } satisfies TeamResponse);
    },
  );
}
