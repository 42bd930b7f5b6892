/** Messages from contact widgets. Spam (a filled honeypot) is kept, marked, and notifies nobody. */
import { sql, type Kysely } from 'kysely';
import { TIME } from '../../db/dialect.ts';

export interface ContactTables {
  contact_messages: {
    id: string;
    company_id: number;
    widget_key: string;
    name: string;
    email: string;
    subject: string;
    topic: string | null;
    message: string;
    spam: 0 | 1;
    form_issued_at: number;
    /** A form token sends one message. */
    form_nonce: string;
    created_at: number;
  };
}

export async function createContactTables(db: Kysely<never>): Promise<void> {
  await db.schema
    .createTable('contact_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('widget_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('topic', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('spam', 'integer', (c) => c.notNull().check(sql`spam in (0, 1)`))
    .addColumn('form_issued_at', TIME, (c) => c.notNull())
    .addColumn('form_nonce', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('contact_messages_form', ['widget_key', 'form_nonce'])
    .execute();
  await db.schema.createIndex('contact_messages_company').on('contact_messages').columns(['company_id', 'created_at']).execute();
}
