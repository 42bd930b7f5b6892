/**
 * The checkout: a cart's quote (prices, discounts and tax, computed here and never taken from the
 * browser), placing an order, reading it back, and the payment methods (docs/widget-api.md,
 * "Checkout").
 */
import { z } from 'zod';
import { COUNTRIES } from '../countries.ts';
import { CLASS_TEXT, PERSON_TEXT, consent, personEmail, phone, returnUrl, text } from './fields.ts';
import { named } from './registry.ts';
import { say } from './words.ts';
import { isoTime } from './common.ts';
import { ClassStatus, HeldUntil, Money } from './catalog.ts';

/**
 * Seats one line of a cart may hold, lines one cart may hold, and seats one order may hold in all: a
 * group larger than that books in several orders (or through the company), so that one anonymous
 * order cannot hold most of a company's seats.
 */
export const CHECKOUT_LIMITS = { seats: 20, items: 20, orderSeats: 20, voucher: 40 } as const;

const classId = () => text(CLASS_TEXT).meta({ examples: ['cls_web_2'] });

const seats = () =>
  z
    .int({ error: 'Seats must be a whole number, like 2.' })
    .min(1, 'Book at least 1 seat, or remove the class from the cart.')
    .max(CHECKOUT_LIMITS.seats, `Book at most ${CHECKOUT_LIMITS.seats} seats per class in one order.`);

/** A voucher code as typed (letters, digits, hyphens): trimmed and upper-cased; empty or null is none. */
const voucher = () =>
  z
    .string({ error: 'The voucher code must be text (a JSON string).' })
    .trim()
    .max(CHECKOUT_LIMITS.voucher, 'There is no voucher code this long: check the code.')
    // Letters, digits and hyphens only: nothing invisible or reversing is echoed back in the verdict.
    .regex(/^[A-Za-z0-9-]*$/, 'A voucher code has letters, digits and hyphens only: check the code.')
    .transform((v) => (v === '' ? null : v.toUpperCase()))
    .nullable()
    .optional()
    .meta({ examples: ['WELCOME10'] });

/** The message of a nested object that is missing or not an object (its fields have their own). */
const objectError = (message: string) => ({
  error: (issue: { code?: string }) => (issue.code === 'invalid_type' ? message : undefined),
});

export const CartItem = named(
  'CartItem',
  z.strictObject(
    { class_id: classId(), seats: seats() },
    objectError('Each item is an object like { "class_id": "cls_web_2", "seats": 1 }.'),
  ),
);
export type CartItem = z.input<typeof CartItem>;

const items = <T extends z.ZodType>(item: T) =>
  z
    .array(item, { error: 'Send items: the classes of the cart, as a list.' })
    .min(1, 'The cart is empty: add a class first.')
    .max(CHECKOUT_LIMITS.items, `Order at most ${CHECKOUT_LIMITS.items} classes at once.`);

export const QuoteRequest = named('QuoteRequest', z.strictObject({ items: items(CartItem), voucher: voucher() }));
export type QuoteRequest = z.input<typeof QuoteRequest>;

/** Why a line of the cart cannot be ordered as it is. */
export const LineProblem = z.enum(['unknown-class', 'started', 'class-full', 'not-enough-seats']).meta({
  description:
    'unknown-class: no such class (removed); started: it has begun; class-full: no seat left; not-enough-seats: fewer seats left than asked for',
});

export const QuoteLine = named(
  'QuoteLine',
  z.object({
    class_id: z.string(),
    seats: z.int().min(1),
    course_id: z.string().nullable().meta({ description: 'null for an unknown class' }),
    course_title: z.string().nullable(),
    starts_at: isoTime().nullable(),
    ends_at: isoTime().nullable(),
    timezone: z.string().nullable(),
    location: z.string().nullable(),
    seats_left: z.int().min(0),
    status: ClassStatus,
    held_until: HeldUntil.meta({
      description:
        'A line short of seats because orders waiting for their payment hold some: when the first hold ends; null otherwise',
    }),
    unit_price: Money,
    discount: Money.meta({ description: 'The voucher’s share of this line' }),
    total: Money.meta({
      description:
        'seats × unit_price − discount; 0 for a line with a `problem` (the totals count only the lines that can be ordered)',
    }),
    problem: LineProblem.nullable(),
    message: z.string().nullable().meta({ description: 'What the problem means and what to do, or null' }),
  }),
);
export type QuoteLine = z.output<typeof QuoteLine>;

export const VoucherStatus = z.enum(['applied', 'unknown', 'expired', 'used-up', 'not-applicable', 'not-checked']).meta({
  description:
    'not-checked: too many codes that do not apply were tried from this client address (or, while codes are guessed from many addresses, a few): the code was not looked at and the cart is priced without it; `retry_after` says when codes are checked again',
});

export const VoucherResult = named(
  'VoucherResult',
  z.object({
    code: z.string(),
    status: VoucherStatus,
    message: z.string().meta({
      description: 'For the visitor: what the voucher gives, or why it does not apply',
      examples: ['10 % off every class.'],
    }),
    retry_after: z
      .int()
      .min(1)
      .optional()
      .meta({ description: '`not-checked` only: seconds until this address’s codes are checked again' }),
  }),
);
export type VoucherResult = z.output<typeof VoucherResult>;

export const PaymentMethod = named(
  'PaymentMethod',
  z.object({
    id: z.string().meta({ examples: ['invoice', 'on_site', 'card'] }),
    kind: z.enum(['offline', 'redirect']).meta({
      description:
        'offline: paid later (an invoice, at the venue); redirect: paid on the provider’s page at `payment.redirect_url`',
    }),
    label: z.string().meta({ description: 'English; widgets name the methods they know in their own words' }),
  }),
);
export type PaymentMethod = z.output<typeof PaymentMethod>;

/** What a cart or an order costs: every amount computed by the service. */
const Totals = {
  subtotal: Money.meta({ description: 'Before the discount' }),
  discount: Money,
  tax: Money.meta({ description: 'The tax in `total` (prices with tax) or added to it (prices without)' }),
  total: Money.meta({ description: 'What the buyer pays' }),
  tax_rate: z
    .number()
    .min(0)
    .meta({ description: 'The company’s VAT rate, in percent', examples: [19] }),
  prices_include_tax: z.boolean(),
};

export const QuoteResponse = named(
  'QuoteResponse',
  z.object({
    items: z.array(QuoteLine),
    voucher: VoucherResult.nullable(),
    ...Totals,
    orderable: z.boolean().meta({ description: 'Every line can be ordered as it is (no `problem`)' }),
    payment_methods: z.array(PaymentMethod).meta({ description: 'Empty when the total is zero: nothing to pay' }),
  }),
);
export type QuoteResponse = z.output<typeof QuoteResponse>;

export const Attendee = named(
  'Attendee',
  z.strictObject(
    {
      first_name: text(PERSON_TEXT.first_name).meta({ examples: ['Ada'] }),
      last_name: text(PERSON_TEXT.last_name).meta({ examples: ['Lovelace'] }),
    },
    objectError('Each attendee is an object with first_name and last_name.'),
  ),
);
export type Attendee = z.input<typeof Attendee>;

export const OrderItem = named(
  'OrderItem',
  z
    .strictObject(
      {
        class_id: classId(),
        seats: seats(),
        attendees: z
          .array(Attendee, { error: 'Send attendees: a name for each seat.' })
          .min(1, 'Give a name for each seat.')
          .max(CHECKOUT_LIMITS.seats, `Book at most ${CHECKOUT_LIMITS.seats} seats per class in one order.`)
          .optional()
          .meta({
            description:
              'A name for each seat. Required when the order costs something; in a free order, seats without names are booked in the buyer’s name',
          }),
      },
      objectError(
        'Each item is an object like { "class_id": "cls_web_2", "seats": 1, "attendees": [{ "first_name", "last_name" }] }.',
      ),
    )
    .refine((item) => !item.attendees || item.attendees.length === item.seats, {
      message: 'Give one name for each seat: as many attendees as seats.',
      path: ['attendees'],
    }),
);
export type OrderItem = z.input<typeof OrderItem>;

const CHOOSE_COUNTRY = say('Choose the country.', 'Wählen Sie das Land.');

export const Address = named(
  'Address',
  z.strictObject(
    {
      line1: text({
        label: 'Street and number',
        max: 200,
        missing: 'Enter the street and number.',
        de: { label: 'Straße und Hausnummer', missing: 'Geben Sie Straße und Hausnummer ein.' },
      }),
      line2: text({
        label: 'Address line 2',
        max: 200,
        missing: 'Leave address line 2 out, or fill it in.',
        de: { label: 'Adresszusatz', missing: 'Lassen Sie den Adresszusatz weg, oder füllen Sie ihn aus.' },
      })
        .nullable()
        .optional(),
      postal_code: text({
        label: 'Postal code',
        max: 20,
        missing: 'Enter the postal code.',
        de: { label: 'Postleitzahl', missing: 'Geben Sie die Postleitzahl ein.' },
      }),
      city: text({
        label: 'City',
        max: 100,
        missing: 'Enter the city.',
        de: { label: 'Ort', missing: 'Geben Sie den Ort ein.' },
      }),
      country: z
        .enum(COUNTRIES as [string, ...string[]], {
          error: (issue) =>
            issue.input === undefined ? CHOOSE_COUNTRY : 'Choose the country by its two-letter ISO 3166 code, such as DE.',
        })
        .meta({ description: 'ISO 3166-1 alpha-2', examples: ['DE'] }),
    },
    objectError('Send address: the billing address, an object with line1, postal_code, city and country.'),
  ),
);
export type Address = z.input<typeof Address>;

export const Buyer = named(
  'Buyer',
  z.strictObject(
    {
      first_name: text(PERSON_TEXT.first_name).meta({ examples: ['Ada'] }),
      last_name: text(PERSON_TEXT.last_name).meta({ examples: ['Lovelace'] }),
      email: personEmail(),
      phone: phone(),
      organisation: text({
        label: 'Organisation',
        max: 200,
        missing: 'Leave the organisation out, or fill it in.',
        de: { label: 'Organisation', missing: 'Lassen Sie die Organisation weg, oder füllen Sie sie aus.' },
      })
        .nullable()
        .optional(),
      address: Address.nullable()
        .optional()
        .meta({ description: 'The billing address: required when the order costs something, none for a free order' }),
    },
    objectError(
      'Send buyer: an object with first_name, last_name, email and, for an order that costs something, address (and phone, organisation if you like).',
    ),
  ),
);
export type Buyer = z.input<typeof Buyer>;

const EXPECTED_TOTAL =
  'expected_total is the total of the quote the buyer saw, like { "amount": 44100, "currency": "EUR" }; or leave it out.';

export const OrderRequest = named(
  'OrderRequest',
  z.strictObject({
    items: items(OrderItem),
    buyer: Buyer,
    voucher: voucher(),
    payment_method: z
      .string({ error: 'Choose how to pay.' })
      .max(40, 'Choose one of the payment methods of the quote.')
      .nullable()
      .optional()
      .meta({ description: 'The id of one of the quote’s `payment_methods`; none when the total is zero' }),
    expected_total: z
      .strictObject(
        {
          amount: z.int({ error: EXPECTED_TOTAL }).min(0, EXPECTED_TOTAL),
          currency: z.string({ error: EXPECTED_TOTAL }).regex(/^[A-Z]{3}$/, EXPECTED_TOTAL),
        },
        objectError(EXPECTED_TOTAL),
      )
      .optional()
      .meta({
        description:
          'The total the buyer was shown (the quote’s `total`, as `Money`): another total answers 409 `price-changed` and books nothing',
      }),
    return_url: returnUrl(
      'The page that holds the widget (an origin the key serves): a `redirect` payment method returns there',
      false,
    )
      .nullable()
      .optional(),
    consent: consent(
      say('Agree to the terms to place the order.', 'Stimmen Sie den Bedingungen zu, um die Bestellung aufzugeben.'),
    ),
  }),
);
export type OrderRequest = z.input<typeof OrderRequest>;

export const OrderStatus = z.enum(['confirmed', 'pending_payment', 'cancelled']).meta({
  description:
    'confirmed: the seats are booked; pending_payment: held while the buyer pays on the provider’s page; cancelled: payment cancelled or not made in time, seats released',
});

export const OrderLine = named(
  'OrderLine',
  z.object({
    class_id: z.string(),
    course_id: z.string(),
    course_title: z.string(),
    starts_at: isoTime(),
    ends_at: isoTime(),
    timezone: z.string(),
    location: z.string(),
    seats: z.int().min(1),
    unit_price: Money,
    discount: Money,
    total: Money,
    attendees: z.array(z.object({ first_name: z.string(), last_name: z.string() })),
  }),
);
export type OrderLine = z.output<typeof OrderLine>;

export const Order = named(
  'Order',
  z.object({
    id: z.string().meta({ examples: ['ord_Jm3k9Q2xWb7TnA4e'] }),
    number: z.string().meta({ description: 'What the buyer quotes', examples: ['A-1001'] }),
    status: OrderStatus,
    created_at: isoTime(),
    items: z.array(OrderLine),
    voucher: z.string().nullable(),
    ...Totals,
    buyer: z.object({ first_name: z.string(), last_name: z.string(), email: z.string().meta({ format: 'email' }) }),
    payment: z.object({
      method: z.string().nullable().meta({ description: 'null when the total is zero' }),
      kind: z.enum(['offline', 'redirect']).nullable(),
      status: z.enum(['none', 'due', 'pending', 'paid', 'cancelled']).meta({
        description:
          'none: nothing to pay; due: to be paid offline; pending: waiting for the provider; paid; cancelled at the provider or expired',
      }),
      redirect_url: z
        .string()
        .nullable()
        .meta({ format: 'uri', description: 'While pending: the provider’s page to send the buyer to' }),
    }),
    calendar_url: z.string().meta({ format: 'uri', description: 'The order’s classes as an iCalendar file (`.ics`)' }),
  }),
);
export type Order = z.output<typeof Order>;

export const OrderResponse = named(
  'OrderResponse',
  z.object({
    order: Order,
    token: z.string().meta({
      description: 'Reads the order back (`X-Order-Token`), for example after the payment page: keep it like a password',
      examples: ['otok_…'],
    }),
  }),
);
export type OrderResponse = z.output<typeof OrderResponse>;

export const OrderReadResponse = named('OrderReadResponse', z.object({ order: Order }));
export type OrderReadResponse = z.output<typeof OrderReadResponse>;

/** An order as the participant's profile lists it. */
export const ParticipantOrder = named(
  'ParticipantOrder',
  z.object({
    id: z.string(),
    number: z.string(),
    status: OrderStatus,
    created_at: isoTime(),
    total: Money,
    items: z.array(
      z.object({
        class_id: z.string(),
        course_title: z.string(),
        starts_at: isoTime(),
        ends_at: isoTime(),
        timezone: z.string(),
        location: z.string(),
        seats: z.int().min(1),
        past: z.boolean().meta({ description: 'The class has started, by the service’s clock' }),
      }),
    ),
  }),
);
export type ParticipantOrder = z.output<typeof ParticipantOrder>;
