/**
 * A company's widgets as the owner manages them (the REST API's `/v1/widgets`, the app's Publish):
 * each key row is a widget with an integer `id` and a `name`; a key replaced by a new one (rotated)
 * is kept in `retired_widget_keys`, and serves its widget until its grace period ends, then answers
 * `revoked`. Widgets of a store from before get ids in the order they were made, and a name of
 * their type.
 */
import type { Kysely } from 'kysely';
import { TIME } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('widget_keys').addColumn('id', 'integer').execute();
  await db.schema
    .alterTable('widget_keys')
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const keys = db as unknown as Kysely<{
    widget_keys: { key: string; type: string; created_at: number | null; id: number; name: string };
  }>;
  const rows = await keys.selectFrom('widget_keys').select(['key', 'type']).orderBy('created_at').orderBy('key').execute();
  let id = 0;
  for (const row of rows) {
    await keys
      .updateTable('widget_keys')
      .set({ id: ++id, name: `${row.type[0]!.toUpperCase()}${row.type.slice(1)}` })
      .where('key', '=', row.key)
      .execute();
  }
  await db.schema.createIndex('widget_keys_id').on('widget_keys').column('id').unique().execute();
  await db.schema
    .createTable('retired_widget_keys')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('widget_id', 'integer', (c) => c.notNull())
    .addColumn('retired_at', TIME, (c) => c.notNull())
    .addColumn('valid_until', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('retired_widget_keys_widget').on('retired_widget_keys').column('widget_id').execute();
}
