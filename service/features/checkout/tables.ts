/** Vouchers, orders, their lines and the tokens that read an order back. */
import type { Generated } from 'kysely';

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
    /** The billing address; empty ('') for a free order, which is asked none. */
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
    /** The language of the widget it was placed through: its confirmation after the payment is written in it. */
    locale: Generated<string>;
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
