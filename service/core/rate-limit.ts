/**
 * Sliding-window rate limits on the service clock (so a test passes a window with /dev/clock).
 * In memory: a restart or /dev/reset forgets them. The limits are settings (`StartOptions.limits`);
 * the defaults below are documented in docs/service.md's security section and the OpenAPI document.
 */
import type { Clock } from './clock.ts';
import { Refusal } from './refusal.ts';

export interface Rule {
  max: number;
  windowMs: number;
}

export interface Limit extends Rule {
  /** Bucket name, e.g. `login:email:ada@example.org`. */
  key: string;
  /** How many of `max` one attempt takes (the seats of an order); default 1. */
  weight?: number;
}

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/** Every limit of the service, per what it counts. */
export const DEFAULT_LIMITS = {
  /** Logins (REST users and participants): each one emails a PIN. */
  login: { perEmail: { max: 5, windowMs: 10 * MINUTE }, perAddress: { max: 50, windowMs: 10 * MINUTE } },
  /**
   * PIN checks (REST users and participants): every check per client address, and the wrong PINs
   * entered for one email (a check with no PIN to judge locks nobody out).
   */
  verify: { perEmail: { max: 10, windowMs: 10 * MINUTE }, perAddress: { max: 100, windowMs: 10 * MINUTE } },
  /** Anonymous registrations (idempotent replays are not counted). */
  registration: { perAddress: { max: 10, windowMs: 10 * MINUTE }, perKey: { max: 1000, windowMs: 10 * MINUTE } },
  /** Anonymous contact messages. */
  contact: { perAddress: { max: 5, windowMs: 10 * MINUTE }, perKey: { max: 200, windowMs: 10 * MINUTE } },
  /** Anonymous orders of the checkout (idempotent replays are not counted). */
  order: { perAddress: { max: 10, windowMs: 10 * MINUTE }, perKey: { max: 1000, windowMs: 10 * MINUTE } },
  /**
   * Seats booked at a company from one address (an order's seats, a registration's confirmed place),
   * paid or not: one visitor cannot hold most of a company's seats (an order holds at most 20). Only
   * seats actually booked count; the window is longer than an unpaid order's hold, so that a hold
   * that runs out cannot be taken again at once.
   */
  seats: { perAddress: { max: 40, windowMs: HOUR } },
  /**
   * Voucher codes the service did not apply (a wrong guess tells whether a code exists). Guessing from
   * one address is slowed per address; guessing from many (the key's count passes `perKey`) tightens
   * every address's allowance to `perAddressUnderAttack` for as long. Nobody is refused for others'
   * guesses, and a code that applies is not counted, so a buyer's own quotes never lock them out.
   */
  voucher: {
    perAddress: { max: 30, windowMs: 10 * MINUTE },
    perKey: { max: 300, windowMs: 10 * MINUTE },
    perAddressUnderAttack: { max: 5, windowMs: 10 * MINUTE },
  },
  /** Emails a registration or an order sends to the address typed into the form; beyond this they are not sent. */
  confirmationEmail: { perRecipient: { max: 5, windowMs: HOUR } },
  /** A signed-in participant's requests to change their email (each emails the new address). */
  emailChange: { perParticipant: { max: 5, windowMs: HOUR }, perRecipient: { max: 5, windowMs: HOUR } },
} satisfies Record<string, Record<string, Rule>>;

export type Limits = typeof DEFAULT_LIMITS;
export type LimitOverrides = { [K in keyof Limits]?: { [R in keyof Limits[K]]?: Rule } };

/** What an anonymous write counts against. */
export type AnonymousWrite = 'registration' | 'contact' | 'order';

/** The limits of an anonymous write (`registration`, `contact`, `order`): per client address and per widget key. */
export function anonymousWriteLimits(limits: Limits, what: AnonymousWrite, address: string, widgetKey: string): Limit[] {
  return [
    { key: `${what}:address:${address}`, ...limits[what].perAddress },
    { key: `${what}:key:${widgetKey}`, ...limits[what].perKey },
  ];
}

/**
 * The seats booked at a company from one client address (orders and registrations): `check(n)` before
 * booking `n` seats (refused, saying how many may still be booked), `count(n)` once they are booked.
 */
export function seatGuard(limiter: RateLimiter, limits: Limits, companyId: number, address: string) {
  const rule = limits.seats.perAddress;
  const limit = (weight: number): Limit => ({ key: `seats:${companyId}:address:${address}`, ...rule, weight });
  const hours = rule.windowMs / HOUR;
  const per = hours === 1 ? 'an hour' : `in ${humanWait(rule.windowMs / 1000)}`;
  return {
    check(seats: number) {
      const left = limiter.room(limit(seats));
      limiter.check([limit(seats)], 'seats', 'from here', (wait) =>
        left > 0
          ? `At most ${rule.max} seats ${per} may be booked from here: ${left} more can be booked now (this booking has ${seats}), or more in ${wait}.`
          : `At most ${rule.max} seats ${per} may be booked from here: try again in ${wait}.`,
      );
    },
    count: (seats: number) => limiter.count([limit(seats)]),
  };
}
export type SeatGuard = ReturnType<typeof seatGuard>;

/**
 * PIN checks (REST users and participants): `check()` before the PIN is looked at (every check from
 * one address counts; an email whose wrong PINs are used up is refused, saying so), `judged(wrong)`
 * once it was (only a wrong PIN counts for the email, so that checks with no PIN to judge lock
 * nobody out).
 */
export function pinChecks(limiter: RateLimiter, rules: Limits['verify'], keys: { address: string; email: string }) {
  const perAddress = { key: keys.address, ...rules.perAddress };
  const perEmail = { key: keys.email, ...rules.perEmail };
  return {
    check() {
      limiter.check([perAddress], 'PIN checks');
      limiter.check([perEmail], 'wrong PINs', 'for this email');
      limiter.count([perAddress]);
    },
    judged(wrong: boolean) {
      if (wrong) limiter.count([perEmail]);
    },
  };
}

/** The throttle of confirmation emails (registrations, orders) to one address typed into a form. */
export function confirmationEmailLimit(limits: Limits, to: string): Limit[] {
  return [{ key: `confirmation-email:${to}`, ...limits.confirmationEmail.perRecipient }];
}

export function mergeLimits(overrides: LimitOverrides = {}): Limits {
  const merged = structuredClone(DEFAULT_LIMITS) as Record<string, Record<string, Rule>>;
  for (const [name, rules] of Object.entries(overrides)) {
    if (!merged[name]) throw new Error(`There is no limit "${name}": the limits are ${Object.keys(merged).join(', ')}.`);
    Object.assign(merged[name], rules);
  }
  return merged as Limits;
}

/** "7 minutes", "1 hour", "40 seconds": when to try again, for a person. */
export function humanWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

export class RateLimiter {
  readonly #clock: Clock;
  readonly #hits = new Map<string, number[]>();
  #calls = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /**
   * Counts one attempt against every limit, or refuses (`too-many`, `rate-limited`, with `retryAfter`
   * and `retry_after` in seconds in the error object) when any of them is used up; a refused attempt is
   * not counted. `what` names what was counted, for the message ("registrations").
   */
  take(limits: Limit[], what = 'attempts'): void {
    this.check(limits, what);
    this.count(limits);
  }

  /**
   * Refuses as `take()` does when a limit is used up; counts nothing. The message
   * says "Too many <what> <where>" ("from here", "for this email"), or `message(wait)` when given.
   */
  check(limits: Limit[], what = 'attempts', where = 'from here', message?: (wait: string) => string): void {
    const wait = this.waitMs(limits);
    if (wait > 0) {
      const seconds = Math.max(1, Math.ceil(wait / 1000));
      throw new Refusal(
        'too-many',
        'rate-limited',
        message?.(humanWait(seconds)) ?? `Too many ${what} ${where}. Try again in ${humanWait(seconds)}.`,
        { retryAfter: seconds, extra: { retry_after: seconds } },
      );
    }
  }

  /** How many of a limit's units are free now. */
  room(limit: Limit): number {
    return Math.max(0, limit.max - this.#recent(limit.key, this.#clock.now(), limit.windowMs).length);
  }

  /** Counts the attempt if every limit has room; false (and nothing counted) if one is used up. */
  tryTake(limits: Limit[]): boolean {
    if (this.waitMs(limits) > 0) return false;
    this.count(limits);
    return true;
  }

  reset(): void {
    this.#hits.clear();
  }

  /** How long until every limit has room again for its attempt's weight (0: now). */
  waitMs(limits: Limit[]): number {
    const now = this.#clock.now();
    if (++this.#calls % 1000 === 0) this.#sweep(now);
    let wait = 0;
    for (const limit of limits) {
      const weight = limit.weight ?? 1;
      // More than the limit allows at all (an operator's limit below an order's size): a window's wait.
      if (weight > limit.max) return limit.windowMs;
      const hits = this.#recent(limit.key, now, limit.windowMs);
      // Room for `weight` more once the oldest hits beyond `max - weight` have left the window.
      const over = hits.length + weight - limit.max;
      if (over > 0) wait = Math.max(wait, hits[over - 1]! + limit.windowMs - now);
    }
    return wait;
  }

  count(limits: Limit[]): void {
    const now = this.#clock.now();
    for (const limit of limits) {
      const hits = this.#recent(limit.key, now, limit.windowMs);
      for (let i = 0; i < (limit.weight ?? 1); i++) hits.push(now);
    }
  }

  #recent(key: string, now: number, windowMs: number): number[] {
    const hits = (this.#hits.get(key) ?? []).filter((t) => t > now - windowMs && t <= now);
    this.#hits.set(key, hits);
    return hits;
  }

  /** Forgets buckets with no hit in the last day, so memory stays bounded. */
  #sweep(now: number): void {
    for (const [key, hits] of this.#hits) {
      if (hits.every((t) => t <= now - 24 * 60 * 60 * 1000)) this.#hits.delete(key);
    }
  }
}
