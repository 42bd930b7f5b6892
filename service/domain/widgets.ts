/**
 * A company's widgets as their owner manages them: one widget key row each, with an integer `id` that
 * stays when its key is rotated, and a name. The REST API (`/v1/widgets`), the support tool and the
 * development endpoints all make and change widgets here. A rotated key serves its widget for
 * KEY_GRACE_MS more (the site's pages still carry it), then the widget API answers it `revoked`.
 */
import { randomBytes } from 'node:crypto';
import type { WidgetType } from '../core/widget-types.ts';
import type { FieldErrors } from '../core/refusal.ts';
import type { Db, Tables } from '../db/database.ts';
import { OriginPattern } from '../../contract/api/dev.ts';
import { termsUrl } from '../../contract/terms.ts';
import { MapTiles } from '../../contract/api/widget-keys.ts';
import { OPTIONS } from '../../contract/index.ts';
import { siteLink } from '../../contract/links.ts';

export type WidgetRow = Tables['widget_keys'];

/** How long a rotated key keeps serving its widget: a day, for the site to take the new snippet. */
export const KEY_GRACE_MS = 24 * 60 * 60 * 1000;
/** How many origins a widget may serve. */
export const MAX_WIDGET_ORIGINS = 20;

/** A new widget key: `wk_` and 128 random bits (a key is public, on every page that shows the widget). */
export const newWidgetKey = () => `wk_${randomBytes(16).toString('base64url')}`;

/** A widget's name until its owner gives it one: its type ("Calendar"). */
export const titleOf = (type: string) => `${type[0]!.toUpperCase()}${type.slice(1)}`;

/**
 * The origins a widget may serve, each in the form the widget API compares: `https://…` (a host, or
 * `https://host:*` for any of its ports); in development also plain http on this machine. Those
 * kept, and a fault for each other one saying how to write it (the REST API's `fields.origins`, the
 * support tool's `--origin`).
 */
export function checkOrigins(origins: readonly unknown[], development: boolean) {
  const kept: string[] = [];
  const faults: { origin: unknown; message: string }[] = [];
  const insecure = (rest: string) => `widgets show on secure pages only: https://${rest}.`;
  for (const origin of origins) {
    const parsed = OriginPattern.safeParse(origin);
    if (!development && typeof origin === 'string' && /^http:\/\//i.test(origin))
      faults.push({ origin, message: insecure(origin.slice(7)) });
    else if (!parsed.success) faults.push({ origin, message: parsed.error.issues[0]!.message });
    else if (!development && !parsed.data.startsWith('https://'))
      faults.push({ origin, message: insecure(parsed.data.split('://')[1]!) });
    else kept.push(parsed.data);
  }
  return { kept: [...new Set(kept)], faults };
}

/** The origins of a widget as the REST API takes them: 1 to 20; the first fault into `fields.origins`. */
export function widgetOrigins(origins: readonly unknown[], development: boolean, fields: FieldErrors): string[] {
  if (origins.length === 0)
    fields.origins ??= 'Send origins: 1 to 20 origins of the pages the widget shows on, such as https://www.acme.example.';
  if (origins.length > MAX_WIDGET_ORIGINS) fields.origins ??= `A widget serves at most ${MAX_WIDGET_ORIGINS} origins.`;
  const { kept, faults } = checkOrigins(origins, development);
  if (faults[0]) fields.origins ??= faults[0].message;
  return kept;
}

/** A company's widgets, newest first. */
export async function companyWidgets(db: Db, companyId: number, type?: WidgetType): Promise<WidgetRow[]> {
  return db
    .selectFrom('widget_keys')
    .selectAll()
    .where('company_id', '=', companyId)
    .$if(type !== undefined, (q) => q.where('type', '=', type!))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** One of the company's widgets (undefined for another company's, or none). */
export async function companyWidget(db: Db, companyId: number, id: number): Promise<WidgetRow | undefined> {
  return db.selectFrom('widget_keys').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
}

/** The keys rotated out of these widgets that still serve them, by widget, latest first: one query for them all. */
export async function retiredKeys(
  db: Db,
  widgetIds: readonly number[],
  now: number,
): Promise<Map<number, { key: string; valid_until: number }[]>> {
  const byWidget = new Map<number, { key: string; valid_until: number }[]>();
  if (widgetIds.length === 0) return byWidget;
  const rows = await db
    .selectFrom('retired_widget_keys')
    .select(['widget_id', 'key', 'valid_until'])
    .where('widget_id', 'in', widgetIds)
    .where('valid_until', '>', now)
    .orderBy('valid_until', 'desc')
    .execute();
  for (const { widget_id, ...key } of rows) byWidget.set(widget_id, [...(byWidget.get(widget_id) ?? []), key]);
  return byWidget;
}

/**
 * A new widget of the company (in a write transaction: its id is the next). `key` is the seed's or
 * a development key's; a widget made otherwise gets a new random one.
 */
export async function insertWidget(
  tx: Db,
  input: {
    companyId: number;
    type: WidgetType;
    name?: string;
    origins: readonly string[];
    options?: Record<string, unknown>;
    enabled?: boolean;
    note?: string;
    key?: string;
    now: number;
  },
): Promise<WidgetRow> {
  const last = await tx
    .selectFrom('widget_keys')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  const row: WidgetRow = {
    id: Number(last?.id ?? 0) + 1,
    key: input.key ?? newWidgetKey(),
    company_id: input.companyId,
    type: input.type,
    name: input.name ?? titleOf(input.type),
    origins: JSON.stringify([...new Set(input.origins)]),
    options: JSON.stringify(input.options ?? {}),
    enabled: input.enabled === false ? 0 : 1,
    revoked_at: null,
    created_at: input.now,
    note: input.note ?? '',
  };
  await tx.insertInto('widget_keys').values(row).execute();
  return row;
}

/** Changes what is given of a widget: its name, options, the whole list of origins, enabled. */
export async function updateWidget(
  tx: Db,
  row: WidgetRow,
  change: { name?: string; options?: Record<string, unknown>; origins?: readonly string[]; enabled?: boolean },
): Promise<WidgetRow> {
  const set: Partial<WidgetRow> = {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.options !== undefined ? { options: JSON.stringify(change.options) } : {}),
    ...(change.origins !== undefined ? { origins: JSON.stringify([...new Set(change.origins)]) } : {}),
    ...(change.enabled !== undefined ? { enabled: change.enabled ? (1 as const) : (0 as const) } : {}),
  };
  if (Object.keys(set).length > 0) await tx.updateTable('widget_keys').set(set).where('id', '=', row.id).execute();
  return { ...row, ...set };
}

/**
 * The widget under a new key; the old one serves it for `grace` ms more (at most KEY_GRACE_MS is
 * documented; 0 ends it at once), then answers `revoked`.
 */
export async function rotateWidgetKey(tx: Db, row: WidgetRow, now: number, grace = KEY_GRACE_MS): Promise<WidgetRow> {
  const key = newWidgetKey();
  await tx.updateTable('widget_keys').set({ key }).where('id', '=', row.id).execute();
  await tx
    .insertInto('retired_widget_keys')
    .values({ key: row.key, widget_id: row.id, retired_at: now, valid_until: now + grace })
    .execute();
  return { ...row, key };
}

/** How large a widget's options may be (JSON, in bytes). */
const MAX_OPTIONS_BYTES = 4096;
const CONTROL = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

/**
 * A widget's options, as `options` is sent: the snippet's attributes of its type (and `locale`), each a
 * text, and the service's own (`topics` of a contact form, `tiles` of a map, `terms` of a checkout). The first fault goes
 * into `fields.options`, saying how to write it.
 */
/** A colour the snippet's CSS may carry: nothing that could end its declaration. */
const COLOUR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,30}|(rgb|rgba|hsl|hsla|oklch|oklab|lab|lch)\([0-9a-z.,%\s/+-]{1,60}\))$/;

export function widgetOptions(type: WidgetType, raw: Record<string, unknown>, fields: FieldErrors): Record<string, unknown> {
  const attributes = ['locale', ...OPTIONS[type]];
  const own = type === 'contact' ? ['topics'] : type === 'map' ? ['tiles'] : type === 'checkout' ? ['terms'] : [];
  const fault = (message: string) => void (fields.options ??= message);
  if (Buffer.byteLength(JSON.stringify(raw)) > MAX_OPTIONS_BYTES)
    fault(`options may hold at most ${MAX_OPTIONS_BYTES} bytes of JSON.`);
  for (const [name, value] of Object.entries(raw)) {
    if (name === 'locale') {
      if (value !== 'en' && value !== 'de') fault('options.locale is the widget’s language: "en" or "de".');
    } else if (attributes.includes(name) || (/^prefill-/.test(name) && type === 'contact')) {
      if (typeof value !== 'string' || value.length > 200 || CONTROL.test(value))
        fault(`options.${name} is a text of at most 200 characters (the snippet’s data-service-${name}).`);
      // A page of the owner's site the widget links to: one the widget would not link is refused here.
      else if (/-url$/.test(name) && value.trim() && !siteLink(value)) {
        const page = name.slice(0, -4);
        fault(
          `options.${name} is a page of your site: an https:// address (https://www.example.com/${page}) or a path of your site (/${page}).`,
        );
      }
    } else if (name === 'theme') {
      const entries = value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : undefined;
      const ok =
        entries !== undefined &&
        entries.length <= 12 &&
        entries.every(
          ([property, colour]) =>
            /^--service-[a-z0-9-]{1,40}$/.test(property) && typeof colour === 'string' && COLOUR.test(colour),
        );
      if (!ok)
        fault(
          'options.theme is the snippet’s colours: { "--service-accent": "#0b5fff" }, at most 12 of the widget’s custom properties, each a colour (#rgb, #rrggbb, a name, or rgb()/hsl()).',
        );
    } else if (name === 'topics' && own.includes(name)) {
      const ok =
        Array.isArray(value) &&
        value.length <= 20 &&
        value.every((t) => typeof t === 'string' && t.trim() && t.length <= 100 && !CONTROL.test(t));
      if (!ok)
        fault(
          'options.topics is a list of at most 20 subjects a message may be filed under, each a text of 1 to 100 characters.',
        );
    } else if (name === 'tiles' && own.includes(name)) {
      const tiles = MapTiles.safeParse(value);
      if (
        !tiles.success ||
        !/^(https:\/\/|[^:]*$)/.test(tiles.data.url) ||
        tiles.data.url.length > 500 ||
        tiles.data.attribution.length > 200
      )
        fault(
          'options.tiles is { "url": "https://…/{z}/{x}/{y}.png", "attribution": "© …" }: an https tile URL template and the text shown on the map.',
        );
    } else if (name === 'terms' && own.includes(name)) {
      if (!termsUrl(value) || CONTROL.test(value as string))
        fault(
          'options.terms is the address of the terms a buyer agrees to: an https URL of at most 500 characters, such as https://www.acme.example/terms.',
        );
    } else {
      fault(`A ${type} widget takes no option "${name.slice(0, 40)}": it takes ${[...attributes, 'theme', ...own].join(', ')}.`);
    }
  }
  return raw;
}
