/**
 * Quotes and orders. An order is placed in one transaction (the idempotency's): its classes and
 * seats are read and decided there, the quote is computed again there, and every write (the order,
 * its lines, one registration per seat, the voucher's use, the email) commits together or not at
 * all. An order paid by card holds its seats for `PAYMENT_HOLD_MS` of the service clock; unpaid by
 * then, it is cancelled and its seats released (`expireOrders`, run before anything reads seats).
 */
import { createHmac } from 'node:crypto';
import type { z } from 'zod';
import { isoTime, randomId, sha256Hex } from '../../core/ids.ts';
import { queueEmail } from '../../core/outbox.ts';
import type { Db, Store, Tx } from '../../db/database.ts';
import { Refusal, invalid, newFieldErrors } from '../../core/refusal.ts';
import { getClasses, type CompanyClassRow } from '../../domain/classes.ts';
import { orderEmail } from '../../domain/emails.ts';
import { formatMoney, type MailLocale } from '../../domain/format.ts';
import { calendarFileUrl, paymentPageUrl } from '../../domain/links.ts';
import { orderItems } from '../../domain/orders.ts';
import { participantFor } from '../../domain/participants.ts';
import { bookableClasses, decideLineSeats } from '../../domain/seats.ts';
import { promoteWaitlist } from '../../domain/waitlist.ts';
import type { WidgetKeyRow } from '../../domain/widget-keys.ts';
import { priceCart, type CartLine, type Company, type PricedCart } from './pricing.ts';
import type { Order, OrderRequest } from '../../../contract/api/checkout.ts';
import type { OrderStatus, PaymentStatus } from './tables.ts';

/**
 * How long an order paid on the provider's page holds its seats: enough to type a card's details
 * (Stripe Checkout's own pages ask for them in one screen), short enough that an order nobody pays
 * keeps nobody else out for long. Seat holds of ticket shops are 10 to 20 minutes.
 */
export const PAYMENT_HOLD_MS = 15 * 60 * 1000;
/** The first order number of a company (`A-1001`). */
const FIRST_ORDER_SEQ = 1001;

export async function companyOf(db: Db, companyId: number): Promise<Company> {
  return db
    .selectFrom('companies')
    .select(['id', 'name', 'vat_rate_bp', 'prices_include_tax', 'currency', 'order_prefix'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
}

/**
 * The quote of a cart: its classes (of the company; `classes` when the caller has read them), the
 * seat decision of each line, the voucher, the prices. Invalid (`fields.items`) for a cart of several
 * currencies.
 */
export async function quoteCart(
  db: Db,
  opts: {
    company: Company;
    items: readonly { class_id: string; seats: number }[];
    voucher: string | null | undefined;
    now: number;
    card: boolean;
    classes?: readonly CompanyClassRow[];
  },
): Promise<PricedCart> {
  const read = opts.classes ?? (await getClasses(db, [...new Set(opts.items.map((i) => i.class_id))]));
  const found = new Map(read.filter((cl) => cl.company_id === opts.company.id).map((cl) => [cl.id, cl]));
  const known = opts.items.map((item) => found.get(item.class_id));
  const currencies = [...new Set(known.flatMap((cl) => (cl ? [cl.currency] : [])))];
  if (currencies.length > 1) {
    throw invalid({
      items: `The cart holds classes priced in ${currencies.join(' and ')}: order the classes of one currency at a time.`,
    });
  }
  // Seats are decided for the classes that can still be booked, line by line.
  const bookable = opts.items.flatMap((item, index) => {
    const cls = known[index];
    return cls && cls.starts_at > opts.now ? [{ index, cls, seats: item.seats }] : [];
  });
  const decisions = new Map(decideLineSeats(bookable).map((d, k) => [bookable[k]!.index, d]));
  const lines: CartLine[] = opts.items.map((item, index) => ({
    class_id: item.class_id,
    seats: item.seats,
    cls: known[index],
    decision: decisions.get(index),
  }));

  const code = opts.voucher ?? null;
  const voucher =
    code === null
      ? undefined
      : await db
          .selectFrom('vouchers')
          .selectAll()
          .where('company_id', '=', opts.company.id)
          .where('code', '=', code)
          .executeTakeFirst();
  const courseTitle =
    voucher?.course_id != null
      ? (await db.selectFrom('courses').select('title').where('id', '=', voucher.course_id).executeTakeFirst())?.title
      : undefined;
  return priceCart(lines, {
    company: opts.company,
    now: opts.now,
    voucherCode: code,
    voucher,
    voucherCourseTitle: courseTitle,
    card: opts.card,
  });
}

/** An order as validated (emails lower-cased, texts trimmed, the voucher upper-cased). */
export type OrderInput = z.output<typeof OrderRequest>;

/**
 * The token that reads an order back: one per order, made from the order's id under the service's
 * secret, so that a replay of the order's submission answers the same token rather than a new
 * credential, and no token is stored in clear (only its hash, to look it up).
 */
export const orderToken = (secret: string, orderId: string) =>
  `otok_${createHmac('sha256', secret).update(`order-token\n${orderId}`).digest('base64url')}`;

/**
 * The order's token, its hash kept so that it reads the order back. Kept again on a replay: an order
 * placed by an older service (a random token) gets it on its first replay.
 */
export async function keepOrderToken(tx: Tx, secret: string, orderId: string, now: number): Promise<string> {
  const token = orderToken(secret, orderId);
  await tx
    .insertInto('order_tokens')
    .values({ hash: sha256Hex(token), order_id: orderId, created_at: now })
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
  return token;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Places an order inside the caller's transaction, in this order of refusal: a class unknown or
 * started (invalid, `items.N.class_id`), the rate limit (`countAttempt`), several currencies (invalid),
 * too few seats in any line (a conflict, `class-full` with `lines`), the voucher (invalid,
 * `fields.voucher`), the total (a conflict, `price-changed`), the payment method and its
 * `return_url` (invalid), a paid order's billing address and attendees (invalid). Then it books.
 */
export async function placeOrder(
  tx: Tx,
  ctx: {
    now: number;
    key: WidgetKeyRow;
    company: Company;
    input: OrderInput;
    publicUrl: string;
    /** The service's secret, which the order's token is made with. */
    secret: string;
    card: boolean;
    /** The widget's language: the confirmation is written in it, now or after the payment. */
    locale: MailLocale;
    countAttempt: () => Promise<void>;
    /** The seats booked from the client's address: checked with the attempt, counted once booked. */
    seats: { check(seats: number): Promise<void>; count(seats: number): Promise<void> };
    /** Voucher codes from this address that do not apply are counted, and refused once too many were. */
    voucherGuard: {
      waitSeconds(): Promise<number>;
      count(): Promise<void>;
      notChecked(code: string, wait: number): { message: string };
    };
    mayEmail: (to: string) => Promise<boolean>;
  },
): Promise<{ status: number; body: { order: Order }; secret: { token: string } }> {
  const { now, key, company, input } = ctx;
  await expireOrders(tx, now);
  const classes = await bookableClasses(tx, {
    companyId: company.id,
    classIds: input.items.map((i) => i.class_id),
    now,
    field: (index) => `items.${index}.class_id`,
  });
  await ctx.countAttempt();
  const seatCount = input.items.reduce((sum, item) => sum + item.seats, 0);
  await ctx.seats.check(seatCount);
  const voucherWait = input.voucher ? await ctx.voucherGuard.waitSeconds() : 0;
  const priced = await quoteCart(tx, {
    company,
    items: input.items,
    voucher: voucherWait > 0 ? null : input.voucher,
    now,
    card: ctx.card,
    classes,
  });
  const quote = priced.response;

  const short = quote.items.flatMap((line, index) => (line.problem === null ? [] : [{ line, index }]));
  if (short.length > 0) {
    const fields = newFieldErrors();
    for (const { line, index } of short) {
      fields[`items.${index}.seats`] =
        line.held_until !== null
          ? line.message!
          : line.seats_left === 0
            ? 'This class is full: remove it from the order.'
            : `Only ${plural(line.seats_left, 'seat is', 'seats are')} left in this class: book at most ${line.seats_left}.`;
    }
    throw new Refusal(
      'conflict',
      'class-full',
      `${short.length === 1 ? 'A class has' : 'Some classes have'} fewer seats left than ordered, so nothing was booked: change the seats or remove ${short.length === 1 ? 'that class' : 'those classes'}, then order again.`,
      {
        fields,
        extra: {
          lines: short.map(({ line }) => ({
            class_id: line.class_id,
            seats_left: line.seats_left,
            status: line.status,
            held_until: line.held_until,
          })),
        },
      },
    );
  }
  if (voucherWait > 0) throw invalid({ voucher: ctx.voucherGuard.notChecked(input.voucher!, voucherWait).message });
  if (quote.voucher && quote.voucher.status !== 'applied') {
    ctx.voucherGuard.count();
    throw invalid({ voucher: quote.voucher.message });
  }
  const total = quote.total;
  if (
    input.expected_total &&
    (input.expected_total.amount !== total.amount || input.expected_total.currency !== total.currency)
  ) {
    throw new Refusal(
      'conflict',
      'price-changed',
      `The total is now ${formatMoney(total.amount, total.currency)}, not the ${formatMoney(input.expected_total.amount, input.expected_total.currency)} you were shown: check the new total and order again. Nothing was booked.`,
    );
  }

  const method = total.amount === 0 ? undefined : quote.payment_methods.find((m) => m.id === input.payment_method);
  if (total.amount > 0 && !method) {
    const ids = quote.payment_methods.map((m) => m.id).join(', ');
    throw invalid({
      payment_method: input.payment_method ? `Choose one of the payment methods: ${ids}.` : `Choose how to pay: one of ${ids}.`,
    });
  }
  if (method?.kind === 'redirect' && !input.return_url) {
    throw invalid({
      return_url: 'Send return_url, the page that holds the widget: the payment page sends the buyer back there.',
    });
  }
  const { buyer } = input;
  // An order that costs something is billed: it needs the billing address and whom each seat is for.
  // A free one asks neither: its seats without names are the buyer's.
  if (total.amount > 0) {
    const fields = newFieldErrors();
    if (!buyer.address) {
      fields['buyer.address'] =
        `Send the billing address (line1, postal_code, city, country): the order costs ${formatMoney(total.amount, total.currency)}.`;
    }
    input.items.forEach((item, index) => {
      if (!item.attendees) fields[`items.${index}.attendees`] = 'Send attendees: a name for each seat.';
    });
    if (Object.keys(fields).length > 0) throw invalid(fields);
  }
  const attendeesOf = (item: OrderInput['items'][number]) =>
    item.attendees ?? Array.from({ length: item.seats }, () => ({ first_name: buyer.first_name, last_name: buyer.last_name }));

  // The buyer is the company's participant of that email; an anonymous form never rewrites a profile.
  const participantId = await participantFor(tx, now, company.id, { ...buyer, phone: buyer.phone ?? null, locale: ctx.locale });

  if (priced.voucher) {
    // The quote read the uses in this transaction; the condition keeps the count right whatever else holds the lock.
    const counted = await tx
      .updateTable('vouchers')
      .set((eb) => ({ uses: eb('uses', '+', 1) }))
      .where('id', '=', priced.voucher.id)
      .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) === 0) throw invalid({ voucher: `The voucher ${priced.voucher.code} has been used up.` });
  }

  // Booked from here on (nothing below refuses): only seats really booked count against the address.
  await ctx.seats.count(seatCount);
  const last = await tx
    .selectFrom('orders')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('company_id', '=', company.id)
    .executeTakeFirst();
  const seq = Math.max(FIRST_ORDER_SEQ - 1, Number(last?.seq ?? 0)) + 1;
  const id = randomId('ord');
  const redirect = method?.kind === 'redirect';
  const status: OrderStatus = redirect ? 'pending_payment' : 'confirmed';
  const paymentStatus: PaymentStatus = !method ? 'none' : redirect ? 'pending' : 'due';
  await tx
    .insertInto('orders')
    .values({
      id,
      company_id: company.id,
      seq,
      number: `${company.order_prefix}-${seq}`,
      participant_id: participantId,
      status,
      buyer_first_name: buyer.first_name,
      buyer_last_name: buyer.last_name,
      buyer_email: buyer.email,
      buyer_phone: buyer.phone ?? null,
      buyer_organisation: buyer.organisation ?? null,
      // A free order has no billing address: empty.
      address_line1: buyer.address?.line1 ?? '',
      address_line2: buyer.address?.line2 ?? null,
      postal_code: buyer.address?.postal_code ?? '',
      city: buyer.address?.city ?? '',
      country: buyer.address?.country ?? '',
      voucher_id: priced.voucher?.id ?? null,
      voucher_code: priced.voucher?.code ?? null,
      currency: priced.currency,
      subtotal: quote.subtotal.amount,
      discount: quote.discount.amount,
      tax: quote.tax.amount,
      total: total.amount,
      tax_rate_bp: company.vat_rate_bp,
      prices_include_tax: company.prices_include_tax,
      payment_method: method?.id ?? null,
      payment_kind: method?.kind ?? null,
      payment_status: paymentStatus,
      payment_id: redirect ? randomId('pay') : null,
      return_url: redirect ? new URL(input.return_url!).href : null,
      widget_key: key.key,
      created_at: now,
      expires_at: redirect ? now + PAYMENT_HOLD_MS : null,
      paid_at: null,
      cancelled_at: null,
      locale: ctx.locale,
    })
    .execute();

  for (const [position, item] of input.items.entries()) {
    const line = quote.items[position]!;
    await tx
      .insertInto('order_items')
      .values({
        order_id: id,
        position,
        class_id: item.class_id,
        seats: item.seats,
        unit_price: line.unit_price.amount,
        discount: line.discount.amount,
        total: line.total.amount,
        attendees: JSON.stringify(attendeesOf(item).map((a) => ({ first_name: a.first_name, last_name: a.last_name }))),
      })
      .execute();
    // One registration per seat, named after its attendee; the buyer's email reaches them.
    await tx
      .insertInto('registrations')
      .values(
        attendeesOf(item).map((a) => ({
          id: randomId('reg'),
          class_id: item.class_id,
          participant_id: participantId,
          first_name: a.first_name,
          last_name: a.last_name,
          email: buyer.email,
          phone: buyer.phone ?? null,
          status: 'confirmed' as const,
          created_at: now,
          widget_key: key.key,
          cancelled_at: null,
          order_id: id,
        })),
      )
      .execute();
  }

  const order = await orderView(tx, id, ctx.publicUrl);
  if (status === 'confirmed' && (await ctx.mayEmail(buyer.email)))
    await queueEmail(tx, now, orderEmail(ctx.locale, order, company.name));
  return { status: 201, body: { order }, secret: { token: await keepOrderToken(tx, ctx.secret, id, now) } };
}

/** The order as the API answers it. */
export async function orderView(db: Db, orderId: string, publicUrl: string): Promise<Order> {
  const o = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const items = await orderItems(db, [orderId]);
  const money = (amount: number) => ({ amount, currency: o.currency });
  return {
    id: o.id,
    number: o.number,
    status: o.status,
    created_at: isoTime(o.created_at),
    items: items.map((i) => ({
      class_id: i.class_id,
      course_id: i.course_id,
      course_title: i.course_title,
      starts_at: isoTime(i.starts_at),
      ends_at: isoTime(i.ends_at),
      timezone: i.timezone,
      location: i.location,
      seats: i.seats,
      unit_price: money(i.unit_price),
      discount: money(i.discount),
      total: money(i.total),
      attendees: JSON.parse(i.attendees) as { first_name: string; last_name: string }[],
    })),
    voucher: o.voucher_code,
    subtotal: money(o.subtotal),
    discount: money(o.discount),
    tax: money(o.tax),
    total: money(o.total),
    tax_rate: o.tax_rate_bp / 100,
    prices_include_tax: o.prices_include_tax === 1,
    buyer: { first_name: o.buyer_first_name, last_name: o.buyer_last_name, email: o.buyer_email },
    payment: {
      method: o.payment_method,
      kind: o.payment_kind,
      status: o.payment_status,
      redirect_url: o.payment_status === 'pending' && o.payment_id ? paymentPageUrl(publicUrl, o.payment_id) : null,
    },
    calendar_url: calendarFileUrl(
      publicUrl,
      o.widget_key,
      items.map((i) => i.class_id),
    ),
  };
}

/**
 * Who may read an order back: the holder of one of its tokens (`X-Order-Token`), or the signed-in
 * participant who bought it. Undefined for anyone else, and for an order of another company.
 */
export async function readableOrder(
  db: Db,
  opts: { orderId: string; companyId: number; token: string | undefined; participantId: string | undefined },
): Promise<string | undefined> {
  const order = await db
    .selectFrom('orders')
    .select(['id', 'participant_id'])
    .where('id', '=', opts.orderId)
    .where('company_id', '=', opts.companyId)
    .executeTakeFirst();
  if (!order) return undefined;
  if (opts.participantId !== undefined && opts.participantId === order.participant_id) return order.id;
  if (opts.token === undefined) return undefined;
  const held = await db
    .selectFrom('order_tokens')
    .select('order_id')
    .where('hash', '=', sha256Hex(opts.token))
    .where('order_id', '=', order.id)
    .executeTakeFirst();
  return held ? order.id : undefined;
}

/**
 * Cancels an order waiting for its payment: its seats are released (the waitlists move up), its
 * voucher's use is given back. Nothing was charged.
 */
async function cancelPendingOrder(tx: Tx, now: number, orderId: string): Promise<void> {
  const order = await tx
    .selectFrom('orders as o')
    .innerJoin('companies as co', 'co.id', 'o.company_id')
    .select(['o.id', 'o.voucher_id', 'co.name as company_name'])
    .where('o.id', '=', orderId)
    .where('o.status', '=', 'pending_payment')
    .executeTakeFirst();
  if (!order) return;
  await tx
    .updateTable('orders')
    .set({ status: 'cancelled', payment_status: 'cancelled', cancelled_at: now, expires_at: null })
    .where('id', '=', order.id)
    .execute();
  await tx
    .updateTable('registrations')
    .set({ status: 'cancelled', cancelled_at: now })
    .where('order_id', '=', order.id)
    .where('status', '<>', 'cancelled')
    .execute();
  if (order.voucher_id !== null) {
    await tx
      .updateTable('vouchers')
      .set((eb) => ({ uses: eb('uses', '-', 1) }))
      .where('id', '=', order.voucher_id)
      .where('uses', '>', 0)
      .execute();
  }
  const classes = await tx
    .selectFrom('order_items as i')
    .innerJoin('classes as cl', 'cl.id', 'i.class_id')
    .innerJoin('courses as co', 'co.id', 'cl.course_id')
    .select(['i.class_id', 'co.title'])
    .where('i.order_id', '=', order.id)
    .execute();
  for (const cl of classes) await promoteWaitlist(tx, now, cl.class_id, cl.title, order.company_name);
}

/** The buyer cancels their order waiting for its payment (a cancelled one stays so); answers its status. */
export async function cancelWaitingOrder(tx: Tx, now: number, orderId: string): Promise<OrderStatus> {
  await cancelPendingOrder(tx, now, orderId);
  const { status } = await tx.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow();
  return status;
}

/** Cancels every order whose payment did not come within PAYMENT_HOLD_MS, in the caller's transaction. */
export async function expireOrders(tx: Tx, now: number): Promise<void> {
  const due = await tx
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'pending_payment')
    .where('expires_at', '<=', now)
    .execute();
  for (const { id } of due) await cancelPendingOrder(tx, now, id);
}

/** Releases the seats of unpaid orders whose time is up; a look, and a transaction only when there are some. */
export async function releaseExpiredOrders(store: Store, now: number): Promise<void> {
  const due = await store.db
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'pending_payment')
    .where('expires_at', '<=', now)
    .limit(1)
    .executeTakeFirst();
  if (due) await store.transaction((tx) => expireOrders(tx, now));
}

export interface PaymentOrder {
  id: string;
  number: string;
  status: OrderStatus;
  payment_status: PaymentStatus;
  return_url: string | null;
  total: number;
  currency: string;
  company_name: string;
  /** The language of the widget it was placed through. */
  locale: string;
}

/** The order of a provider's payment (after releasing orders whose time is up). */
export async function orderOfPayment(tx: Tx, now: number, paymentId: string): Promise<PaymentOrder | undefined> {
  await expireOrders(tx, now);
  return tx
    .selectFrom('orders as o')
    .innerJoin('companies as co', 'co.id', 'o.company_id')
    .select([
      'o.id',
      'o.number',
      'o.status',
      'o.payment_status',
      'o.return_url',
      'o.total',
      'o.currency',
      'co.name as company_name',
      'o.locale',
    ])
    .where('o.payment_id', '=', paymentId)
    .where('o.payment_kind', '=', 'redirect')
    .executeTakeFirst();
}

/**
 * The provider's verdict on a payment: `paid` confirms a waiting order (and emails the buyer),
 * `cancelled` cancels it and releases its seats. Anything but a waiting order stays as it is, so a
 * second post changes nothing. Answers the order as it then is.
 */
export async function settlePayment(
  tx: Tx,
  ctx: {
    now: number;
    paymentId: string;
    outcome: 'paid' | 'cancelled';
    publicUrl: string;
    mayEmail: (to: string) => Promise<boolean>;
  },
): Promise<PaymentOrder | undefined> {
  const order = await orderOfPayment(tx, ctx.now, ctx.paymentId);
  if (!order || order.status !== 'pending_payment') return order;
  if (ctx.outcome === 'cancelled') {
    await cancelPendingOrder(tx, ctx.now, order.id);
    return { ...order, status: 'cancelled', payment_status: 'cancelled' };
  }
  await tx
    .updateTable('orders')
    .set({ status: 'confirmed', payment_status: 'paid', paid_at: ctx.now, expires_at: null })
    .where('id', '=', order.id)
    .execute();
  const view = await orderView(tx, order.id, ctx.publicUrl);
  if (await ctx.mayEmail(view.buyer.email))
    await queueEmail(tx, ctx.now, orderEmail(order.locale as MailLocale, view, order.company_name));
  return { ...order, status: 'confirmed', payment_status: 'paid' };
}
