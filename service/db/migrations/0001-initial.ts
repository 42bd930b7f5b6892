/**
 * The first schema: every table as the service had it when migrations began (schema version 8 of the
 * files that came before). Frozen: a change of the schema is a new migration after it, never an edit
 * here. `ifNotExists`, so that a store of schema version 8, made before migrations, takes it as done.
 */
import { sql, type Kysely } from 'kysely';
import { REAL, TIME, autoId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The service's machinery: settings, idempotency records, the outbox.
  await db.schema
    .createTable('meta')
    .ifNotExists()
    .addColumn('k', 'text', (c) => c.primaryKey())
    .addColumn('v', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('idempotency')
    .ifNotExists()
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
    .ifNotExists()
    .addColumn('id', 'integer', autoId(db))
    .addColumn('to_addr', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('pin', 'text')
    .addColumn('sent_at', TIME, (c) => c.notNull())
    .execute();

  // Companies, programmes, classes.
  await db.schema
    .createTable('companies')
    .ifNotExists()
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('contact_email', 'text', (c) => c.notNull())
    .addColumn('vat_rate_bp', 'integer', (c) => c.notNull().check(sql`vat_rate_bp between 0 and 10000`))
    .addColumn('prices_include_tax', 'integer', (c) => c.notNull().check(sql`prices_include_tax in (0, 1)`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('order_prefix', 'text', (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createTable('courses')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('courses_company').ifNotExists().on('courses').column('company_id').execute();
  await db.schema
    .createTable('classes')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id'))
    .addColumn('starts_at', TIME, (c) => c.notNull())
    .addColumn('ends_at', TIME, (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('price_amount', 'integer', (c) => c.notNull().check(sql`price_amount >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull().check(sql`capacity >= 0`))
    .addColumn('waitlist', 'integer', (c) => c.notNull().check(sql`waitlist in (0, 1)`))
    .addColumn('waitlist_capacity', 'integer')
    .execute();
  await db.schema.createIndex('classes_course').ifNotExists().on('classes').columns(['course_id', 'starts_at']).execute();

  // Widget keys, sign-in PINs and tokens.
  await db.schema
    .createTable('widget_keys')
    .ifNotExists()
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
    .ifNotExists()
    .addColumn('id', 'integer', autoId(db))
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
  await db.schema
    .createIndex('sign_in_pins_email')
    .ifNotExists()
    .on('sign_in_pins')
    .columns(['audience', 'realm', 'email'])
    .execute();
  await db.schema.createIndex('sign_in_pins_account').ifNotExists().on('sign_in_pins').column('account').execute();
  await db.schema
    .createTable('sign_in_tokens')
    .ifNotExists()
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
  await db.schema.createIndex('sign_in_tokens_email').ifNotExists().on('sign_in_tokens').column('email').execute();
  await db.schema.createIndex('sign_in_tokens_account').ifNotExists().on('sign_in_tokens').column('account').execute();

  // Participants.
  await db.schema
    .createTable('participants')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('participants_company_email', ['company_id', 'email'])
    .execute();

  // Vouchers, orders, their lines and tokens.
  await db.schema
    .createTable('vouchers')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('percent', 'integer', (c) => c.check(sql`percent between 1 and 100`))
    .addColumn('amount', 'integer', (c) => c.check(sql`amount > 0`))
    .addColumn('currency', 'text')
    .addColumn('course_id', 'text', (c) => c.references('courses.id'))
    .addColumn('expires_at', TIME)
    .addColumn('max_uses', 'integer')
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('vouchers_company_code', ['company_id', 'code'])
    .addCheckConstraint('vouchers_kind', sql`(percent is null) <> (amount is null) and (amount is null or currency is not null)`)
    .execute();
  await db.schema
    .createTable('orders')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('confirmed', 'pending_payment', 'cancelled')`))
    .addColumn('buyer_first_name', 'text', (c) => c.notNull())
    .addColumn('buyer_last_name', 'text', (c) => c.notNull())
    .addColumn('buyer_email', 'text', (c) => c.notNull())
    .addColumn('buyer_phone', 'text')
    .addColumn('buyer_organisation', 'text')
    .addColumn('address_line1', 'text', (c) => c.notNull())
    .addColumn('address_line2', 'text')
    .addColumn('postal_code', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('voucher_id', 'text', (c) => c.references('vouchers.id'))
    .addColumn('voucher_code', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('subtotal', 'integer', (c) => c.notNull())
    .addColumn('discount', 'integer', (c) => c.notNull())
    .addColumn('tax', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('tax_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('prices_include_tax', 'integer', (c) => c.notNull())
    .addColumn('payment_method', 'text')
    .addColumn('payment_kind', 'text')
    .addColumn('payment_status', 'text', (c) =>
      c.notNull().check(sql`payment_status in ('none', 'due', 'pending', 'paid', 'cancelled')`),
    )
    .addColumn('payment_id', 'text', (c) => c.unique())
    .addColumn('return_url', 'text')
    .addColumn('widget_key', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('expires_at', TIME)
    .addColumn('paid_at', TIME)
    .addColumn('cancelled_at', TIME)
    .addUniqueConstraint('orders_company_seq', ['company_id', 'seq'])
    .execute();
  await db.schema.createIndex('orders_pending').ifNotExists().on('orders').columns(['status', 'expires_at']).execute();
  await db.schema.createIndex('orders_participant').ifNotExists().on('orders').column('participant_id').execute();
  await db.schema
    .createTable('order_items')
    .ifNotExists()
    .addColumn('id', 'integer', autoId(db))
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('class_id', 'text', (c) => c.notNull().references('classes.id'))
    .addColumn('seats', 'integer', (c) => c.notNull().check(sql`seats >= 1`))
    .addColumn('unit_price', 'integer', (c) => c.notNull())
    .addColumn('discount', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('attendees', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_items_order').ifNotExists().on('order_items').columns(['order_id', 'position']).execute();
  await db.schema
    .createTable('order_tokens')
    .ifNotExists()
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();

  // Registrations.
  await db.schema
    .createTable('registrations')
    .ifNotExists()
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
  await db.schema.createIndex('registrations_class').ifNotExists().on('registrations').columns(['class_id', 'status']).execute();
  await db.schema.createIndex('registrations_email').ifNotExists().on('registrations').column('email').execute();
  await db.schema.createIndex('registrations_participant').ifNotExists().on('registrations').column('participant_id').execute();
  await db.schema.createIndex('registrations_order').ifNotExists().on('registrations').column('order_id').execute();

  // Contact messages.
  await db.schema
    .createTable('contact_messages')
    .ifNotExists()
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
  await db.schema
    .createIndex('contact_messages_company')
    .ifNotExists()
    .on('contact_messages')
    .columns(['company_id', 'created_at'])
    .execute();

  // Company users, roles, applications.
  await db.schema
    .createTable('users')
    .ifNotExists()
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('valid', 'integer', (c) => c.notNull().check(sql`valid in (0, 1)`))
    .execute();
  await db.schema
    .createTable('memberships')
    .ifNotExists()
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'member', 'lecturer')`))
    .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'company_id'])
    .execute();
  await db.schema
    .createTable('class_lecturers')
    .ifNotExists()
    .addColumn('class_id', 'text', (c) => c.notNull().references('classes.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('class_lecturers_pk', ['class_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('applications')
    .ifNotExists()
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('api_key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_secret_hash', 'text', (c) => c.notNull())
    .addColumn('login_link', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('application_companies')
    .ifNotExists()
    .addColumn('application_id', 'integer', (c) => c.notNull().references('applications.id'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addPrimaryKeyConstraint('application_companies_pk', ['application_id', 'company_id'])
    .execute();

  // Videos.
  await db.schema
    .createTable('videos')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('course_id', 'text', (c) => c.references('courses.id'))
    .addColumn('duration_s', REAL(db), (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('access', 'text', (c) => c.notNull().check(sql`access in ('public', 'participants')`))
    .addColumn('media', 'text', (c) => c.notNull())
    .addColumn('captions', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('videos_company').ifNotExists().on('videos').columns(['company_id', 'position']).execute();

  // Places.
  await db.schema
    .createTable('places')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('lat', REAL(db))
    .addColumn('lng', REAL(db))
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addUniqueConstraint('places_location', ['company_id', 'location'])
    .execute();
}
