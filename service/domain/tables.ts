/** The widget keys: each binds one widget of one type of one company, for some page origins. */
import { sql, type Kysely } from 'kysely';
import { TIME } from '../db/dialect.ts';

export interface WidgetKeyTables {
  widget_keys: {
    key: string;
    company_id: number;
    type: string;
    /** JSON array of origin patterns. */
    origins: string;
    /** JSON object handed to the widget. */
    options: string;
    enabled: 0 | 1;
    revoked_at: number | null;
    note: string;
  };
}

export async function createWidgetKeyTables(db: Kysely<never>): Promise<void> {
  await db.schema
    .createTable('widget_keys')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('origins', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().check(sql`enabled in (0, 1)`))
    .addColumn('revoked_at', TIME)
    .addColumn('note', 'text', (c) => c.notNull())
    .execute();
}
