/** Companies, their programmes ("courses") and the classes of each. */

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
    /** The day it starts on in its venue's time zone, as days since 1970-01-01 (`localDay`). */
    local_day: number;
    location: string;
    price_amount: number;
    currency: string;
    capacity: number;
    waitlist: 0 | 1;
    /** null: no limit (only meaningful when waitlist = 1). */
    waitlist_capacity: number | null;
  };
}
