/** The REST API's company users, their roles, the applications, and the users' PINs and tokens. */
import { sql, type Generated, type Kysely } from 'kysely';
import { TIME, autoId } from '../../db/dialect.ts';

export type Role = 'owner' | 'member' | 'lecturer';

export interface RestTables {
  users: {
    id: number;
    /** Lower-cased. */
    email: string;
    first_name: string;
    last_name: string;
    valid: 0 | 1;
  };
  memberships: { user_id: number; company_id: number; role: Role };
  class_lecturers: { class_id: string; user_id: number };
  applications: {
    id: number;
    company_id: number;
    name: string;
    api_key_hash: string;
    client_secret_hash: string;
    /** The page the emailed link opens (absolute, or relative to the service); ?key=<token> is added. */
    login_link: string;
  };
  /** The companies an application may act for (its own first). */
  application_companies: { application_id: number; company_id: number };
  user_pins: {
    id: Generated<number>;
    user_id: number;
    email: string;
    application_id: number;
    pin_hash: string;
    expires_at: number;
    attempts: Generated<number>;
    used_at: number | null;
  };
  user_tokens: {
    /** sha256 of the token; the token itself is never stored. */
    hash: string;
    user_id: number;
    email: string;
    application_id: number;
    created_at: number;
    invalidated_at: number | null;
    /** An emailed token (a link's key) dies unused after LINK_TTL_MS; its first use keeps it. */
    emailed: 0 | 1;
    used_at: number | null;
  };
}

export async function createRestTables(db: Kysely<never>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('valid', 'integer', (c) => c.notNull().check(sql`valid in (0, 1)`))
    .execute();
  await db.schema
    .createTable('memberships')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'member', 'lecturer')`))
    .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'company_id'])
    .execute();
  await db.schema
    .createTable('class_lecturers')
    .addColumn('class_id', 'text', (c) => c.notNull().references('classes.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('class_lecturers_pk', ['class_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('applications')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('api_key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_secret_hash', 'text', (c) => c.notNull())
    .addColumn('login_link', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('application_companies')
    .addColumn('application_id', 'integer', (c) => c.notNull().references('applications.id'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addPrimaryKeyConstraint('application_companies_pk', ['application_id', 'company_id'])
    .execute();
  await db.schema
    .createTable('user_pins')
    .addColumn('id', 'integer', autoId)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('application_id', 'integer', (c) => c.notNull().references('applications.id'))
    .addColumn('pin_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', TIME, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', TIME)
    .execute();
  await db.schema.createIndex('user_pins_email').on('user_pins').columns(['email', 'application_id']).execute();
  await db.schema
    .createTable('user_tokens')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('application_id', 'integer', (c) => c.notNull().references('applications.id'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('invalidated_at', TIME)
    .addColumn('emailed', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`emailed in (0, 1)`),
    )
    .addColumn('used_at', TIME)
    .execute();
  await db.schema.createIndex('user_tokens_email').on('user_tokens').column('email').execute();
}
