/** Registrations: a participant's place (or waitlist place) in a class. */
import { sql, type Kysely } from 'kysely';
import { TIME } from '../../db/dialect.ts';

export type RegistrationStatus = 'confirmed' | 'waitlisted' | 'cancelled';

export interface RegistrationTables {
  registrations: {
    id: string;
    class_id: string;
    participant_id: string;
    first_name: string;
    last_name: string;
    /** Lower-cased. */
    email: string;
    phone: string | null;
    status: RegistrationStatus;
    created_at: number;
    /** The widget key it came through (null: seeded). */
    widget_key: string | null;
    cancelled_at: number | null;
    /**
     * The order this seat belongs to (one registration per seat, named after its attendee, with the
     * buyer's email); null for a registration of its own.
     */
    order_id: string | null;
  };
}

export async function createRegistrationTables(db: Kysely<never>): Promise<void> {
  await db.schema
    .createTable('registrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('class_id', 'text', (c) => c.notNull().references('classes.id'))
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('confirmed', 'waitlisted', 'cancelled')`))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('widget_key', 'text')
    .addColumn('cancelled_at', TIME)
    .addColumn('order_id', 'text', (c) => c.references('orders.id'))
    .execute();
  await db.schema.createIndex('registrations_class').on('registrations').columns(['class_id', 'status']).execute();
  await db.schema.createIndex('registrations_email').on('registrations').column('email').execute();
  await db.schema.createIndex('registrations_participant').on('registrations').column('participant_id').execute();
  await db.schema.createIndex('registrations_order').on('registrations').column('order_id').execute();
}
