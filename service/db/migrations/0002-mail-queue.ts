/**
 * The outbox becomes a queue of mail: each message waits (`queued`) until the mail worker has handed
 * it to the SMTP server (`sent`), is retried with a growing wait, and is given up (`failed`) after
 * too many tries; `outbox` is a message of a development service without a mail server, kept for
 * `/dev/outbox` only. Messages of a store from before are `outbox` ones. Each has its sender's name
 * (the company's), its HTML and its language; a participant and an order keep the language of the
 * widget they came through, for the emails that come later (a place freed, a payment received).
 */
import { sql, type Kysely } from 'kysely';
import { TIME } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const add = (build: (t: ReturnType<Kysely<unknown>['schema']['alterTable']>) => { execute(): Promise<void> }) =>
    build(db.schema.alterTable('outbox')).execute();
  await add((t) =>
    t.addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('outbox')
        .check(sql`status in ('queued', 'sent', 'failed', 'outbox')`),
    ),
  );
  await add((t) => t.addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0)));
  await add((t) => t.addColumn('next_attempt_at', TIME));
  await add((t) => t.addColumn('last_error', 'text'));
  await add((t) => t.addColumn('delivered_at', TIME));
  await add((t) => t.addColumn('from_name', 'text'));
  await add((t) => t.addColumn('html', 'text'));
  await add((t) => t.addColumn('locale', 'text', (c) => c.notNull().defaultTo('en')));
  await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'next_attempt_at']).execute();
  for (const table of ['participants', 'orders']) {
    await db.schema
      .alterTable(table)
      .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
      .execute();
  }
}
