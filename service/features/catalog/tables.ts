/** Companies, their programmes ("courses") and the classes of each. */
import { sql, type Kysely } from 'kysely';
import { TIME } from '../../db/dialect.ts';

export interface CatalogTables {
  companies: {
    /** The company's id: the REST API's `company_id` and `X-SERVICE-COMPANY`. */
    id: number;
    /** How the widget API names the company (`widget.company.id`, `c_acme`). */
    public_id: string;
    name: string;
    /** Where contact messages are notified. */
    contact_email: string;
    /** The company's VAT rate in basis points (1900 = 19 %). */
    vat_rate_bp: number;
    /** 1: class prices include the VAT; 0: the VAT is added to them. */
    prices_include_tax: 0 | 1;
    /** ISO 4217: the currency of an order whose classes name none (an empty cart). */
    currency: string;
    /** Starts the company's order numbers (`A` → `A-1001`). */
    order_prefix: string;
  };
  courses: { id: string; company_id: number; title: string; summary: string; category: string };
  /** Times are epoch milliseconds (service clock); money is minor units. */
  classes: {
    id: string;
    course_id: string;
    starts_at: number;
    ends_at: number;
    timezone: string;
    location: string;
    price_amount: number;
    currency: string;
    capacity: number;
    waitlist: 0 | 1;
    /** null: no limit (only meaningful when waitlist = 1). */
    waitlist_capacity: number | null;
  };
}

export async function createCatalogTables(db: Kysely<never>): Promise<void> {
  await db.schema
    .createTable('companies')
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
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('courses_company').on('courses').column('company_id').execute();
  await db.schema
    .createTable('classes')
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
  await db.schema.createIndex('classes_course').on('classes').columns(['course_id', 'starts_at']).execute();
}
