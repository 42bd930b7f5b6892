/**
 * The widget key checks every widget API route makes, in the documented order: `missing-key`,
 * `invalid-key`, `origin-not-allowed`, then `type-mismatch` and `not-available`.
 */
import { WIDGET_TYPES, type WidgetType } from '../core/widget-types.ts';
import { originAllowed, pageOrigin } from '../core/origins.ts';
import type { Db } from '../db/database.ts';
import { findWidgetKey, type WidgetKeyRow } from '../domain/widget-keys.ts';
import type { AppContext } from '../http/context.ts';
import { ApiError, validationError } from '../http/errors.ts';
import { PageOrigin, type WidgetKeyCheckResponse } from '../../contract/api/dev.ts';
import type { BodyCheck } from '../http/routes.ts';
import type { Widget } from '../../contract/api/widget-keys.ts';

export type { WidgetKeyRow };
export { WIDGET_API_PREFIX } from '../domain/links.ts';

export async function lookupKey(db: Db, c: AppContext, opts: { anyRetired?: boolean } = {}): Promise<WidgetKeyRow> {
  return lookupKeyValue(db, c.req.query('key'), c.get('now')(), opts);
}

/**
 * The key named `key`, or the refusal a widget API call with it gets (`missing-key`, `invalid-key`;
 * `revoked` for a key rotated out of its widget whose grace period ended before `now`).
 */
export async function lookupKeyValue(
  db: Db,
  key: string | undefined,
  now: number,
  /** A key rotated out of its widget serves it for good (links in emails that carry it: nothing personal). */
  opts: { anyRetired?: boolean } = {},
): Promise<WidgetKeyRow> {
  if (key === undefined || key.trim() === '') {
    throw new ApiError(400, 'missing-key', 'No widget key: add the key=... parameter (the data-service-id of the placeholder).');
  }
  const row = key.length <= 200 ? await findWidgetKey(db, key) : undefined;
  if (!row || row.revoked_at !== null) throw unknownKey();
  if (row.retired_until !== undefined && row.retired_until <= now && !opts.anyRetired) {
    throw new ApiError(
      401,
      'revoked',
      'This widget key was replaced by a new one and no longer works: put the widget’s new key into data-service-id (GET /v1/widgets/{id} shows it).',
    );
  }
  return row;
}

const unknownKey = () =>
  new ApiError(
    401,
    'invalid-key',
    'The service does not know this widget key, or it was revoked: check data-service-id against the key you were given, or ask the service for a new one.',
  );

export function keyOrigins(key: WidgetKeyRow): string[] {
  return JSON.parse(key.origins) as string[];
}

export function checkOrigin(c: AppContext, key: WidgetKeyRow): void {
  const origin = pageOrigin(c);
  if (origin === undefined) return;
  const refusal = originRefusal(origin, key, c.get('ownOrigins'));
  if (refusal) throw refusal;
  c.set('allowedOrigin', c.req.header('origin'));
}

/**
 * The `origin-not-allowed` refusal for a page on `origin` (`unknown`: withheld by the browser), if the
 * key refuses it. Every key serves the service's own pages (`own`): the app previews its widgets.
 */
export function originRefusal(origin: string, key: WidgetKeyRow, own: readonly string[] = []): ApiError | undefined {
  if (own.includes(origin) || originAllowed(origin, keyOrigins(key))) return undefined;
  const where = origin === 'unknown' ? 'this page (the browser did not send its origin)' : `pages on ${origin}`;
  return new ApiError(
    403,
    'origin-not-allowed',
    `This widget key does not serve ${where}: use a key that serves this origin, or ask the service to add the origin to this key.`,
  );
}

/** The key is of `type`, or of one of `also` (a route that more than one widget calls). */
export function checkType(key: WidgetKeyRow, type: WidgetType, also: readonly WidgetType[] = []): void {
  if (key.type !== type && !also.includes(key.type as WidgetType)) {
    const named = [type, ...also].join(' or ');
    throw new ApiError(
      403,
      'type-mismatch',
      `This key belongs to a ${key.type} widget, not a ${named} widget. Use data-service-widget="${key.type}", or the key of a ${named} widget.`,
    );
  }
}

export function checkEnabled(key: WidgetKeyRow): void {
  if (key.enabled !== 1) {
    throw new ApiError(
      403,
      'not-available',
      `The ${key.type} widget is not enabled for this key: use a key with it enabled, or ask the service to enable it.`,
    );
  }
}

/** The `type` and `origin` query parameters of a key check, each left out when not sent; 422 for a wrong one. */
export function verdictQuery(c: AppContext): { type?: WidgetType; origin?: string } {
  const type = c.req.query('type');
  const origin = c.req.query('origin');
  const fields: Record<string, string> = {};
  if (type !== undefined && !(WIDGET_TYPES as readonly string[]).includes(type))
    fields.type = `type must be a widget type: one of ${WIDGET_TYPES.join(', ')}.`;
  const parsedOrigin = origin === undefined ? undefined : PageOrigin.safeParse(origin);
  if (parsedOrigin && (!parsedOrigin.success || parsedOrigin.data.endsWith(':*')))
    fields.origin = 'origin must be the origin of a page, such as https://www.acme.example.';
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return {
    ...(type !== undefined ? { type: type as WidgetType } : {}),
    ...(parsedOrigin?.success ? { origin: parsedOrigin.data } : {}),
  };
}

/**
 * What the widget API would answer a placeholder with `key` of `type` on a page of `origin` (each
 * left out when not given), in its order, as `{ ok, error }`: the snippet checkers' verdict (the
 * demo's, by `/dev`, and the app's, by the REST API). `companyId`: a key of another company is one
 * the service does not know.
 */
export async function keyVerdict(
  db: Db,
  key: string | undefined,
  check: { type?: WidgetType; origin?: string; now: number; own?: readonly string[]; companyId?: number },
): Promise<WidgetKeyCheckResponse> {
  try {
    const row = await lookupKeyValue(db, key, check.now);
    if (check.companyId !== undefined && row.company_id !== check.companyId) throw unknownKey();
    const refusal = check.origin === undefined ? undefined : originRefusal(check.origin, row, check.own);
    if (refusal) throw refusal;
    if (check.type !== undefined) checkType(row, check.type);
    checkEnabled(row);
    return { ok: true, error: null };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { ok: false, error: { code: err.code as NonNullable<WidgetKeyCheckResponse['error']>['code'], message: err.message } };
  }
}

/**
 * The key, its page origin, its type (when the route belongs to one, or, with `also`, to several)
 * and whether it is enabled.
 */
export async function widgetKey(db: Db, c: AppContext, type?: WidgetType, also?: readonly WidgetType[]): Promise<WidgetKeyRow> {
  const key = await lookupKey(db, c);
  checkOrigin(c, key);
  if (type !== undefined) checkType(key, type, also);
  checkEnabled(key);
  return key;
}

export function requireIdempotencyKey(c: AppContext): string {
  const value = c.req.header('idempotency-key');
  if (value === undefined || value.length < 8 || value.length > 200) {
    throw new ApiError(
      400,
      'missing-idempotency-key',
      'Send an Idempotency-Key header (8 to 200 characters, for example a UUID) that stays the same when this submission is retried.',
    );
  }
  return value;
}

/** The `widget` object of a first render. */
export function widgetInfo(key: WidgetKeyRow): Widget {
  return {
    type: key.type,
    company: { id: key.company_public_id, name: key.company_name },
    options: JSON.parse(key.options) as Widget['options'],
  };
}

/**
 * `return_url` must be a page the key serves: an emailed link or a payment provider sends people
 * there. (The schema has checked that it is an absolute http(s) URL.)
 */
export const servedReturnUrl =
  (key: WidgetKeyRow): BodyCheck =>
  (raw, fields) => {
    if ('return_url' in fields || typeof raw.return_url !== 'string' || raw.return_url === '') return;
    const { origin } = new URL(raw.return_url);
    if (!originAllowed(origin, keyOrigins(key))) {
      fields.return_url = `This widget key does not serve pages on ${origin}: return_url must be a page the key serves.`;
    }
  };
