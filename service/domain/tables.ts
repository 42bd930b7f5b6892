/**
 * Tables of the shared domain modules: the widget keys (each binds one widget of one type of one
 * company, for some page origins), and the sign-in's PINs and tokens (sign-in.ts), one pair for
 * REST users and participants, both stored as hashes.
 */
import { sql, type Generated, type Kysely } from 'kysely';
import { TIME, autoId } from '../db/dialect.ts';
import type { Audience, PinPurpose } from './sign-in.ts';

export interface DomainTables {
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
  sign_in_pins: {
    id: Generated<number>;
    audience: Audience;
    /** The application (users) or the company (participants) it signs in to. */
    realm: number;
    /** `sign-in`: a login's PIN, sent to `email`; `email-change`: the PIN that confirms a new address (`email`), sent to it. */
    purpose: PinPurpose;
    /** The user's or participant's id; null: a login for an email that is nobody's (a PIN nobody knows). */
    account: string | null;
    email: string;
    pin_hash: string;
    expires_at: number;
    attempts: Generated<number>;
    used_at: number | null;
    /** A newer login (or email change) replaced it. */
    replaced_at: number | null;
  };
  sign_in_tokens: {
    /** sha256 of the token; the token itself is never stored. */
    hash: string;
    audience: Audience;
    realm: number;
    account: string;
    /** The account's email (it follows a confirmed change), so that invalidating by email finds every token. */
    email: string;
    created_at: number;
    /** Null: until invalidated (users). */
    expires_at: number | null;
    invalidated_at: number | null;
    /** An emailed token (a link's key) dies unused after LINK_TTL_MS; its first use keeps it. */
    emailed: 0 | 1;
    used_at: number | null;
    /** The link of an email change: its first use confirms that change (sign_in_pins.id). */
    confirms_pin: number | null;
  };
}

export async function createDomainTables(db: Kysely<never>): Promise<void> {
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
  await db.schema
    .createTable('sign_in_pins')
    .addColumn('id', 'integer', autoId)
    .addColumn('audience', 'text', (c) => c.notNull().check(sql`audience in ('user', 'participant')`))
    .addColumn('realm', 'integer', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('sign-in', 'email-change')`))
    .addColumn('account', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('pin_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', TIME, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', TIME)
    .addColumn('replaced_at', TIME)
    .execute();
  await db.schema.createIndex('sign_in_pins_email').on('sign_in_pins').columns(['audience', 'realm', 'email']).execute();
  await db.schema.createIndex('sign_in_pins_account').on('sign_in_pins').column('account').execute();
  await db.schema
    .createTable('sign_in_tokens')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('audience', 'text', (c) => c.notNull().check(sql`audience in ('user', 'participant')`))
    .addColumn('realm', 'integer', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('expires_at', TIME)
    .addColumn('invalidated_at', TIME)
    .addColumn('emailed', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`emailed in (0, 1)`),
    )
    .addColumn('used_at', TIME)
    .addColumn('confirms_pin', 'integer', (c) => c.references('sign_in_pins.id'))
    .execute();
  await db.schema.createIndex('sign_in_tokens_email').on('sign_in_tokens').column('email').execute();
  await db.schema.createIndex('sign_in_tokens_account').on('sign_in_tokens').column('account').execute();
}
