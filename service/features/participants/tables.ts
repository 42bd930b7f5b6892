/** The people who book classes (the profile widget's users), per company (their sign-in: domain/sign-in.ts). */
import type { Kysely } from 'kysely';
import { TIME } from '../../db/dialect.ts';

export interface ParticipantTables {
  participants: {
    id: string;
    company_id: number;
    /** Lower-cased. */
    email: string;
    first_name: string;
    last_name: string;
    phone: string | null;
    created_at: number;
  };
}

export async function createParticipantTables(db: Kysely<never>): Promise<void> {
  await db.schema
    .createTable('participants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('participants_company_email', ['company_id', 'email'])
    .execute();
}
