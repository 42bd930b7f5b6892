/** Vouchers, orders, their lines and the tokens that read an order back. */
import { sql, type Generated, type Kysely } from 'kysely';
import { TIME, autoId } from '../../db/dialect.ts';

export type OrderStatus = 'confirmed' | 'pending_payment' | 'cancelled';
export type PaymentStatus = 'none' | 'due' | 'pending' | 'paid' | 'cancelled';

export interface CheckoutTables {
  /** A company's voucher codes: a percentage or a fixed amount off, perhaps for one programme only. */
  vouchers: {
    id: string;
    company_id: number;
    /** Upper-cased: codes are case-insensitive. */
    code: string;
    /** Percent off (1–100), or null for a fixed amount. */
    percent: number | null;
    /** A fixed amount off in minor units of `currency` (capped at what the lines cost), or null. */
    amount: number | null;
    currency: string | null;
    /** Valid for this programme's classes only; null: any class. */
    course_id: string | null;
    /** Service time from which it no longer works; null: no expiry. */
    expires_at: number | null;
    /** How many orders may use it; null: no limit. */
    max_uses: number | null;
    uses: number;
  };
  orders: {
    id: string;
    company_id: number;
    /** The company's running number (1001, 1002, ...): `number` is the prefix and it. */
    seq: number;
    number: string;
    /** The buyer, found or created by email like a registration's participant. */
    participant_id: string;
    status: OrderStatus;
    buyer_first_name: string;
    buyer_last_name: string;
    /** Lower-cased. */
    buyer_email: string;
    buyer_phone: string | null;
    buyer_organisation: string | null;
    address_line1: string;
    address_line2: string | null;
    postal_code: string;
    city: string;
    country: string;
    voucher_id: string | null;
    voucher_code: string | null;
    /** Money of the order, in minor units of `currency`, as quoted inside the order's transaction. */
    currency: string;
    subtotal: number;
    discount: number;
    tax: number;
    total: number;
    tax_rate_bp: number;
    prices_include_tax: 0 | 1;
    /** null when the total is zero. */
    payment_method: string | null;
    payment_kind: 'offline' | 'redirect' | null;
    payment_status: PaymentStatus;
    /** The provider's payment (a redirect method's): the fake provider's page is `/dev/pay/<payment_id>`. */
    payment_id: string | null;
    /** Where the provider sends the buyer back (validated against the key's origins when ordering). */
    return_url: string | null;
    widget_key: string;
    created_at: number;
    /** While `pending_payment`: when the held seats are released if nobody paid. */
    expires_at: number | null;
    paid_at: number | null;
    cancelled_at: number | null;
  };
  order_items: {
    id: Generated<number>;
    order_id: string;
    /** The line's place in the order (0, 1, ...). */
    position: number;
    class_id: string;
    seats: number;
    unit_price: number;
    discount: number;
    total: number;
    /** JSON array of `{ first_name, last_name }`, one per seat: the order's record of whom it booked. */
    attendees: string;
  };
  /** sha256 of each token that reads an order back (the first answer's, and one per replay of it). */
  order_tokens: { hash: string; order_id: string; created_at: number };
}

export async function createCheckoutTables(db: Kysely<never>): Promise<void> {
  await db.schema
    .createTable('vouchers')
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
  await db.schema.createIndex('orders_pending').on('orders').columns(['status', 'expires_at']).execute();
  await db.schema.createIndex('orders_participant').on('orders').column('participant_id').execute();
  await db.schema
    .createTable('order_items')
    .addColumn('id', 'integer', autoId)
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('class_id', 'text', (c) => c.notNull().references('classes.id'))
    .addColumn('seats', 'integer', (c) => c.notNull().check(sql`seats >= 1`))
    .addColumn('unit_price', 'integer', (c) => c.notNull())
    .addColumn('discount', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('attendees', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_items_order').on('order_items').columns(['order_id', 'position']).execute();
  await db.schema
    .createTable('order_tokens')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
}
