/** Tables of the service's own machinery: its settings, the idempotency records, the outbox. */
import type { Generated, Kysely } from 'kysely';
import { TIME, autoId } from '../db/dialect.ts';

export interface CoreTables {
  meta: { k: string; v: string };
  /** One row per (scope, Idempotency-Key): the hash of the request and the answer it got. */
  idempotency: {
    scope: string;
    key: string;
    request_hash: string;
    status: number;
    response: string;
    created_at: number;
  };
  outbox: {
    id: Generated<number>;
    to_addr: string;
    subject: string;
    text: string;
    link: string | null;
    pin: string | null;
    sent_at: number;
  };
}

export async function createCoreTables(db: Kysely<never>): Promise<void> {
  await db.schema
    .createTable('meta')
    .addColumn('k', 'text', (c) => c.primaryKey())
    .addColumn('v', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('idempotency')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_pk', ['scope', 'key'])
    .execute();
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'integer', autoId)
    .addColumn('to_addr', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('pin', 'text')
    .addColumn('sent_at', TIME, (c) => c.notNull())
    .execute();
}
