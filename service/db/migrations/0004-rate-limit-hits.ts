/**
 * Rate limits kept in the store, so that every process of a service on one PostgreSQL database
 * counts against the same limits (db/postgres-limiter.ts). A SQLite service keeps them in memory
 * (one process); the table is there alike, the schema being one.
 */
import type { Kysely } from 'kysely';
import { TIME } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', TIME, (c) => c.notNull())
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('rate_limit_hits_key').on('rate_limit_hits').columns(['key', 'at']).execute();
  await db.schema.createIndex('rate_limit_hits_at').on('rate_limit_hits').column('at').execute();
}
