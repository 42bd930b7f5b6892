/**
 * Widget keys in development: list them, create one or let one serve more origins (a developer's
 * own page, a staging site), and ask what a key would answer on a page of some origin (the demo's
 * snippet checker). Changes last until `POST /dev/reset` or a re-seed.
 */
import { randomBytes } from 'node:crypto';
import { WIDGET_TYPES, type WidgetType } from '../../core/widget-types.ts';
import { sendJson, type ServiceDeps } from '../../http/context.ts';
import { error } from '../../http/docs.ts';
import { SubApp, type RouteSpec } from '../../http/routes.ts';
import { keyVerdict, verdictQuery } from '../../widget-api/keys.ts';
import { insertWidget } from '../../domain/widgets.ts';
import { WidgetKeyCheckResponse, WidgetKeyInfo, WidgetKeyRequest, WidgetKeysResponse } from '../../../contract/api/dev.ts';

/** The parts of a route's spec that every development route shares (routes.ts). */
type DevSpec = Pick<RouteSpec, 'method' | 'path' | 'tags' | 'operationId' | 'summary' | 'security' | 'dev'>;

interface KeyRow {
  key: string;
  type: string;
  company_id: number;
  origins: string;
  options: string;
  enabled: 0 | 1;
  revoked_at: number | null;
  note: string;
  created_at?: number | null;
}

const info = (row: KeyRow) => ({
  key: row.key,
  type: row.type as WidgetType,
  company_id: row.company_id,
  origins: JSON.parse(row.origins) as string[],
  enabled: row.enabled === 1,
  revoked: row.revoked_at !== null,
  note: row.note,
});

export function registerDevWidgetKeyRoutes(
  app: SubApp,
  deps: ServiceDeps,
  spec: (method: 'get' | 'post', path: string, operationId: string, summary: string) => DevSpec,
): void {
  const { db } = deps.store;
  const keys = () =>
    db
      .selectFrom('widget_keys')
      .select(['key', 'type', 'company_id', 'origins', 'options', 'enabled', 'revoked_at', 'note'])
      .orderBy('created_at')
      .orderBy('key')
      .execute() as Promise<KeyRow[]>;

  deps.api.add(
    app,
    {
      ...spec('get', '/dev/widget-keys', 'devWidgetKeys', 'Every widget key as it is now: its type, company and origins'),
      responses: { '200': { description: 'The keys, seeded ones first', schema: WidgetKeysResponse } },
    },
    async () => sendJson({ widget_keys: (await keys()).map(info) }),
  );

  deps.api.add(
    app,
    {
      ...spec('post', '/dev/widget-keys', 'devWidgetKey', 'Creates a widget key, or lets a key serve more origins'),
      description:
        'With `key`: adds `origins` to that key (200). Without: creates a key of `type` for `company_id` (default 1) serving `origins` (201); it takes the options (contact topics, map tiles) of the company’s first key of that type. Kept until `POST /dev/reset` or a re-seed.',
      body: WidgetKeyRequest,
      responses: {
        '200': { description: 'The key, serving the origins added', schema: WidgetKeyInfo },
        '201': { description: 'The new key', schema: WidgetKeyInfo },
        '400': 'BadRequest',
        '415': 'UnsupportedMediaType',
        '422': 'Validation',
      },
    },
    async (_c, body) => {
      const companies = await db.selectFrom('companies').select(['id', 'name']).orderBy('id').execute();
      const all = await keys();
      let existing: KeyRow | undefined;
      const request = await body((raw, fields) => {
        if (!('key' in fields) && typeof raw.key === 'string') {
          existing = all.find((k) => k.key === raw.key);
          if (!existing)
            fields.key = `There is no widget key "${raw.key.slice(0, 60)}": send one of GET /dev/widget-keys, or leave key out to create one.`;
          else if (existing.revoked_at !== null) fields.key = `${existing.key} is revoked: leave key out to create a new key.`;
        }
        if (existing) {
          if (!('type' in fields) && raw.type !== undefined && raw.type !== existing.type)
            fields.type = `${existing.key} is a ${existing.type} key: leave type out, or leave key out to create a ${String(raw.type)} key.`;
          if (!('company_id' in fields) && raw.company_id !== undefined && raw.company_id !== existing.company_id)
            fields.company_id = `${existing.key} belongs to company ${existing.company_id}: leave company_id out, or leave key out to create a key.`;
        } else if (raw.key === undefined) {
          if (raw.type === undefined)
            fields.type ??= `Send type (one of ${WIDGET_TYPES.join(', ')}) to create a key, or key to add origins to one.`;
          if (!('company_id' in fields) && raw.company_id !== undefined && !companies.some((c) => c.id === raw.company_id))
            fields.company_id = `Send company_id, one of: ${companies.map((c) => `${c.id} (${c.name})`).join(', ')}.`;
        }
      });

      if (existing) {
        const origins = [...new Set([...(JSON.parse(existing.origins) as string[]), ...request.origins])];
        await db
          .updateTable('widget_keys')
          .set({ origins: JSON.stringify(origins) })
          .where('key', '=', existing.key)
          .execute();
        return sendJson(info({ ...existing, origins: JSON.stringify(origins) }));
      }
      const type = request.type!;
      const companyId = request.company_id ?? companies[0]!.id;
      const model = all.find((k) => k.type === type && k.company_id === companyId && k.revoked_at === null);
      const row = await deps.store.transaction((tx) =>
        insertWidget(tx, {
          key: `wk_dev_${type}_${randomBytes(6).toString('base64url')}`,
          companyId,
          type,
          origins: request.origins,
          options: JSON.parse(model?.options ?? '{}') as Record<string, unknown>,
          now: deps.clock.now(),
          note: `the ${type} widget of ${companies.find((c) => c.id === companyId)!.name}, created by POST /dev/widget-keys`,
        }),
      );
      return sendJson(info(row), 201);
    },
  );

  deps.api.add(
    app,
    {
      ...spec(
        'get',
        '/dev/widget-keys/check',
        'devCheckWidgetKey',
        'What the widget API would answer a widget of `type` with `key` on a page of `origin`',
      ),
      description:
        'The widget API’s own key checks, in their order (`missing-key`, `invalid-key`, `origin-not-allowed`, `type-mismatch`, `not-available`), for a page the request does not come from. Without `origin` or `type`, that check is left out.',
      parameters: [
        { name: 'key', in: 'query', required: false, schema: { type: 'string', examples: ['wk_demo_registration'] } },
        { name: 'type', in: 'query', required: false, schema: { type: 'string', enum: WIDGET_TYPES } },
        {
          name: 'origin',
          in: 'query',
          required: false,
          schema: { type: 'string', examples: ['https://www.acme.example'] },
        },
      ],
      responses: {
        '200': { description: 'The verdict, and the refusal with its message', schema: WidgetKeyCheckResponse },
        '422': error('`validation`: `type` is no widget type, or `origin` no origin'),
      },
    },
    async (c) => {
      return sendJson(await keyVerdict(db, c.req.query('key'), { now: deps.clock.now(), ...verdictQuery(c) }));
    },
  );
}
