/**
 * What a cart costs, decided here and nowhere else: each line's problem, the voucher's verdict and
 * its share of each line, the tax, the payment methods. Pure: the quote and the order (inside its
 * transaction) give it what they read and get the same answer.
 */
import { humanWait } from '../../core/rate-limit.ts';
import type { Tables } from '../../db/database.ts';
import { classState, type ClassState, type CompanyClassRow } from '../../domain/classes.ts';
import { formatMoney } from '../../domain/format.ts';
import type { LineSeats } from '../../domain/seats.ts';
import type { PaymentMethod, QuoteLine, QuoteResponse, VoucherResult } from '../../../contract/api/checkout.ts';

export type Company = Pick<
  Tables['companies'],
  'id' | 'name' | 'vat_rate_bp' | 'prices_include_tax' | 'currency' | 'order_prefix'
>;
export type VoucherRow = Tables['vouchers'];

/** The payment methods there are; `card` only where a provider is configured (in development, the fake one). */
export const PAYMENT_METHODS: Record<'invoice' | 'on_site' | 'card', PaymentMethod> = {
  invoice: { id: 'invoice', kind: 'offline', label: 'Invoice' },
  on_site: { id: 'on_site', kind: 'offline', label: 'Pay on site' },
  card: { id: 'card', kind: 'redirect', label: 'Card (secure payment page)' },
};

/** n/d rounded half up, for whole non-negative numbers. */
export const roundHalfUp = (n: number, d: number) => Math.floor((2 * n + d) / (2 * d));

/** A line of the cart as read: its class (undefined when the company has no such class) and its seats. */
export interface CartLine {
  class_id: string;
  seats: number;
  cls: CompanyClassRow | undefined;
  /** The seat decision of a class that can still be booked (not for an unknown or started one). */
  decision: LineSeats | undefined;
}

type Problem = NonNullable<QuoteLine['problem']>;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A line's problem and what the visitor can do about it. */
function problemOf(line: CartLine, now: number): { problem: Problem; message: string } | undefined {
  const { cls, decision } = line;
  if (!cls) return { problem: 'unknown-class', message: 'This class is no longer offered: remove it from the cart.' };
  if (cls.starts_at <= now) return { problem: 'started', message: 'This class has already started: remove it from the cart.' };
  if (decision && !decision.enough) {
    const left = decision.before.seats_left;
    // Seats held by orders waiting for their payment may free: say when, rather than "full".
    const held = cls.held_until !== null ? humanWait(Math.max(1, Math.ceil((cls.held_until - now) / 1000))) : undefined;
    if (held !== undefined) {
      return left === 0
        ? {
            problem: 'class-full',
            message: `The last seats of this class are held by orders waiting for their payment: try again in ${held}, or remove it.`,
          }
        : {
            problem: 'not-enough-seats',
            message: `Only ${plural(left, 'seat is', 'seats are')} left in this class (more are held by orders waiting for their payment, the first hold ending in ${held}): book at most ${left}, or remove it.`,
          };
    }
    return left === 0
      ? {
          problem: 'class-full',
          message:
            cls.waitlist === 1
              ? 'This class is full: remove it from the cart (its registration form offers the waitlist).'
              : 'This class is full: remove it from the cart.',
        }
      : {
          problem: 'not-enough-seats',
          message: `Only ${plural(left, 'seat is', 'seats are')} left in this class: book at most ${left}, or remove it.`,
        };
  }
  return undefined;
}

/** The voucher's verdict on the cart, and the lines it applies to. */
function judgeVoucher(
  code: string,
  voucher: VoucherRow | undefined,
  opts: {
    now: number;
    currency: string;
    courseTitle: string | undefined;
    lines: { line: CartLine; orderable: boolean; subtotal: number }[];
  },
): { result: VoucherResult; applies: Set<number> } {
  const verdict = (status: VoucherResult['status'], message: string, applies = new Set<number>()) => ({
    result: { code, status, message },
    applies,
  });
  if (!voucher) return verdict('unknown', `There is no voucher ${code}: check the code.`);
  if (voucher.expires_at !== null && voucher.expires_at <= opts.now)
    return verdict('expired', `The voucher ${code} has expired.`);
  if (voucher.max_uses !== null && voucher.uses >= voucher.max_uses) {
    return verdict('used-up', `The voucher ${code} has been used up.`);
  }
  const applies = new Set<number>();
  opts.lines.forEach(({ line, orderable, subtotal }, index) => {
    const ofCourse = voucher.course_id === null || line.cls?.course_id === voucher.course_id;
    if (orderable && subtotal > 0 && ofCourse) applies.add(index);
  });
  const fixed = voucher.amount !== null ? formatMoney(voucher.amount, voucher.currency!) : undefined;
  if (voucher.currency !== null && voucher.currency !== opts.currency) {
    return verdict(
      'not-applicable',
      `The voucher ${code} is for classes priced in ${voucher.currency}: it does not apply to this cart.`,
    );
  }
  if (applies.size === 0) {
    return verdict(
      'not-applicable',
      voucher.course_id !== null
        ? `The voucher ${code} is valid for ${opts.courseTitle ?? 'another programme'} only: it does not apply to the classes in your cart.`
        : `The voucher ${code} does not apply to the classes in your cart.`,
    );
  }
  const what =
    fixed !== undefined
      ? `${fixed} off your order`
      : `${voucher.percent} % off ${voucher.course_id !== null ? `the classes of ${opts.courseTitle}` : 'every class'}`;
  return verdict('applied', `${what}.`, applies);
}

/** A fixed amount spread over lines in proportion to their cost; the shares add up to it exactly. */
function spread(amount: number, costs: number[]): number[] {
  const total = costs.reduce((a, b) => a + b, 0);
  const exact = costs.map((cost) => (amount * cost) / total);
  const shares = exact.map(Math.floor);
  let left = amount - shares.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

export interface PricedCart {
  response: QuoteResponse;
  currency: string;
  /** The voucher that applies, to be counted when an order uses it. */
  voucher: VoucherRow | undefined;
}

/**
 * Prices a cart. Lines with a problem count nothing (their `total` is 0): the totals are what the
 * order costs once they are removed or changed. A percentage comes off each line it applies to,
 * rounded half up per line; a fixed amount is capped at those lines' cost and spread over them. With
 * prices that include the tax, `tax` is the tax share of `total`; otherwise it is added to it.
 */
export function priceCart(
  lines: readonly CartLine[],
  opts: {
    company: Company;
    now: number;
    voucherCode: string | null;
    voucher: VoucherRow | undefined;
    /** The title of the programme a voucher is limited to, for its message. */
    voucherCourseTitle: string | undefined;
    /** Whether a redirect payment provider is there (`card`). */
    card: boolean;
  },
): PricedCart {
  const currency = lines.find((l) => l.cls)?.cls!.currency ?? opts.company.currency;
  const judged = lines.map((line) => {
    const problem = problemOf(line, opts.now);
    const subtotal = problem ? 0 : line.seats * line.cls!.price_amount;
    return { line, problem, orderable: !problem, subtotal };
  });

  const verdict =
    opts.voucherCode === null
      ? undefined
      : judgeVoucher(opts.voucherCode, opts.voucher, {
          now: opts.now,
          currency,
          courseTitle: opts.voucherCourseTitle,
          lines: judged,
        });
  const discounts = judged.map(() => 0);
  if (verdict && verdict.applies.size > 0) {
    const indices = [...verdict.applies];
    const voucher = opts.voucher!;
    if (voucher.percent !== null) {
      for (const i of indices) discounts[i] = roundHalfUp(judged[i]!.subtotal * voucher.percent, 100);
    } else {
      const costs = indices.map((i) => judged[i]!.subtotal);
      const capped = Math.min(
        voucher.amount!,
        costs.reduce((a, b) => a + b, 0),
      );
      spread(capped, costs).forEach((share, k) => (discounts[indices[k]!] = share));
    }
  }

  const money = (amount: number) => ({ amount, currency });
  const items: QuoteLine[] = judged.map(({ line, problem, subtotal }, i) => {
    const cls = line.cls;
    const state: ClassState = line.decision?.before ?? (cls ? classState(cls) : { seats_left: 0, status: 'full' });
    return {
      class_id: line.class_id,
      seats: line.seats,
      course_id: cls?.course_id ?? null,
      course_title: cls?.title ?? null,
      starts_at: cls ? new Date(cls.starts_at).toISOString() : null,
      ends_at: cls ? new Date(cls.ends_at).toISOString() : null,
      timezone: cls?.timezone ?? null,
      location: cls?.location ?? null,
      seats_left: state.seats_left,
      status: state.status,
      held_until: problem && line.decision && cls?.held_until != null ? new Date(cls.held_until).toISOString() : null,
      unit_price: money(cls?.price_amount ?? 0),
      discount: money(discounts[i]!),
      total: money(subtotal - discounts[i]!),
      problem: problem?.problem ?? null,
      message: problem?.message ?? null,
    };
  });

  const subtotal = judged.reduce((sum, l) => sum + l.subtotal, 0);
  const discount = discounts.reduce((a, b) => a + b, 0);
  const { vat_rate_bp: rate, prices_include_tax: included } = opts.company;
  const net = subtotal - discount;
  const tax = included === 1 ? roundHalfUp(net * rate, 10_000 + rate) : roundHalfUp(net * rate, 10_000);
  const total = included === 1 ? net : net + tax;
  const methods =
    total === 0 ? [] : [PAYMENT_METHODS.invoice, PAYMENT_METHODS.on_site, ...(opts.card ? [PAYMENT_METHODS.card] : [])];

  return {
    currency,
    voucher: verdict?.result.status === 'applied' ? opts.voucher : undefined,
    response: {
      items,
      voucher: verdict?.result ?? null,
      subtotal: money(subtotal),
      discount: money(discount),
      tax: money(tax),
      total: money(total),
      tax_rate: rate / 100,
      prices_include_tax: included === 1,
      orderable: judged.every((l) => l.orderable),
      payment_methods: methods,
    },
  };
}
