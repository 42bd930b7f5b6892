/**
 * The people who book classes (the profile widget's users), per company, and their passwordless
 * sign-in: PINs (stored as hashes) and tokens (stored as hashes).
 */
import { sql, type Generated, type Kysely } from 'kysely';
import { TIME, autoId } from '../../db/dialect.ts';

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
  participant_pins: {
    id: Generated<number>;
    /** `sign-in`: a login's PIN, sent to `email`; `email`: the PIN that confirms a new address (`email`), sent to it. */
    kind: 'sign-in' | 'email';
    /** null: a login for an email that is no participant's (a PIN nobody knows). */
    participant_id: string | null;
    email: string;
    company_id: number;
    pin_hash: string;
    expires_at: number;
    attempts: Generated<number>;
    used_at: number | null;
    /** A newer login (or email change) replaced it. */
    replaced_at: number | null;
  };
  participant_tokens: {
    /** sha256 of the token; the token itself is never stored. */
    hash: string;
    participant_id: string;
    email: string;
    company_id: number;
    created_at: number;
    invalidated_at: number | null;
    /** An emailed token (a link's key) dies unused after LINK_TTL_MS; its first use keeps it. */
    emailed: 0 | 1;
    used_at: number | null;
    /** The link of an email change: its first use confirms that change (participant_pins.id). */
    confirms_pin: number | null;
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
  await db.schema
    .createTable('participant_pins')
    .addColumn('id', 'integer', autoId)
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('sign-in', 'email')`))
    .addColumn('participant_id', 'text', (c) => c.references('participants.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('pin_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', TIME, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', TIME)
    .addColumn('replaced_at', TIME)
    .execute();
  await db.schema.createIndex('participant_pins_email').on('participant_pins').columns(['company_id', 'email']).execute();
  await db.schema
    .createTable('participant_tokens')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('invalidated_at', TIME)
    .addColumn('emailed', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`emailed in (0, 1)`),
    )
    .addColumn('used_at', TIME)
    .addColumn('confirms_pin', 'integer', (c) => c.references('participant_pins.id'))
    .execute();
  await db.schema.createIndex('participant_tokens_email').on('participant_tokens').column('email').execute();
}
