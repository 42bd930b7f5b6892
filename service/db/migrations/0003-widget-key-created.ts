/**
 * A widget key knows when it was made (the owner's list of widgets shows it, and lists keys in that
 * order). Keys of a SQLite store from before keep their order: their number is the row's own.
 */
import { sql, type Kysely } from 'kysely';
import { TIME, dialectOf } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('widget_keys').addColumn('created_at', TIME).execute();
  if (dialectOf(db) === 'sqlite') await sql`update widget_keys set created_at = rowid`.execute(db);
  else await sql`update widget_keys set created_at = 0`.execute(db);
  await db.schema.createIndex('widget_keys_company').on('widget_keys').columns(['company_id', 'created_at']).execute();
}
