/** Widget keys as the widget API reads them. */
import type { Db } from '../db/database.ts';
import type { WidgetType } from '../core/widget-types.ts';

export interface WidgetKeyRow {
  key: string;
  company_id: number;
  /** The company's id in the widget API (`c_acme`). */
  company_public_id: string;
  company_name: string;
  type: WidgetType;
  /** JSON array of origin patterns. */
  origins: string;
  /** JSON object. */
  options: string;
  enabled: 0 | 1;
  revoked_at: number | null;
  /** A key rotated out of its widget: until when it still serves it (service time). */
  retired_until?: number;
}

/** The widget of a key: its current key, or a key rotated out of it (with `retired_until`). */
export async function findWidgetKey(db: Db, key: string): Promise<WidgetKeyRow | undefined> {
  const row = await widgets(db).where('k.key', '=', key).executeTakeFirst();
  if (row) return row as WidgetKeyRow;
  const retired = await db
    .selectFrom('retired_widget_keys')
    .select(['widget_id', 'valid_until'])
    .where('key', '=', key)
    .executeTakeFirst();
  if (!retired) return undefined;
  const widget = await widgets(db).where('k.id', '=', retired.widget_id).executeTakeFirst();
  return widget && ({ ...widget, key, retired_until: Number(retired.valid_until) } as WidgetKeyRow);
}

const widgets = (db: Db) =>
  db
    .selectFrom('widget_keys as k')
    .innerJoin('companies as co', 'co.id', 'k.company_id')
    .select([
      'k.key',
      'k.company_id',
      'co.public_id as company_public_id',
      'co.name as company_name',
      'k.type',
      'k.origins',
      'k.options',
      'k.enabled',
      'k.revoked_at',
    ]);

/** Whether `value` is a widget key (a REST call made with one is told so). */
export async function isWidgetKey(db: Db, value: string): Promise<boolean> {
  return (await db.selectFrom('widget_keys').select('key').where('key', '=', value).executeTakeFirst()) !== undefined;
}
