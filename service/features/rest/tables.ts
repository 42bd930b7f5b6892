/** The REST API's company users, their roles and the applications (their sign-in: domain/sign-in.ts). */
import { sql, type Kysely } from 'kysely';

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
}
