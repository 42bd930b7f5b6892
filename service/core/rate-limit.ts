/**
 * Sliding-window rate limits on the service clock (so a test passes a window with /dev/clock).
 * In memory for one process (a restart or /dev/reset forgets them); in the database on PostgreSQL,
 * shared by every process (db/postgres-limiter.ts). The limits are settings (`StartOptions.limits`);
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
    async check(seats: number) {
      const left = await limiter.room(limit(seats));
      await limiter.check([limit(seats)], 'seats', 'from here', (wait) =>
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
    async check() {
      await limiter.check([perAddress], 'PIN checks');
      await limiter.check([perEmail], 'wrong PINs', 'for this email');
      await limiter.count([perAddress]);
    },
    async judged(wrong: boolean) {
      if (wrong) await limiter.count([perEmail]);
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

/**
 * The rate limits' policy, over a store of hits: in memory (one process: SQLite's service) or in the
 * database (PostgreSQL, shared by every process: `PostgresLimiter`). Every method is async, and
 * `take()` checks and counts at once, so that two requests never both pass the last unit.
 */
export abstract class RateLimiter {
  protected readonly clock: Clock;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /**
   * The wait until every limit has room for its attempt's weight (0: now); `count` counts the
   * attempt whatever the wait, `take` counts it only when the wait is 0, `peek` never.
   */
  protected abstract apply(limits: Limit[], mode: 'peek' | 'count' | 'take'): Promise<number>;
  /** How many of a limit's units are free now. */
  abstract room(limit: Limit): Promise<number>;
  /** Forgets every hit (`/dev/reset`). */
  abstract reset(): Promise<void>;
  /** Lets go of what it holds (a connection pool). */
  async close(): Promise<void> {}

  /**
   * Counts one attempt against every limit, or refuses (`too-many`, `rate-limited`, with `retryAfter`
   * and `retry_after` in seconds in the error object) when any of them is used up; a refused attempt is
   * not counted. `what` names what was counted, for the message ("registrations").
   */
  async take(limits: Limit[], what = 'attempts'): Promise<void> {
    refuseAfter(await this.apply(limits, 'take'), what, 'from here');
  }

  /**
   * Refuses as `take()` does when a limit is used up; counts nothing. The message
   * says "Too many <what> <where>" ("from here", "for this email"), or `message(wait)` when given.
   */
  async check(limits: Limit[], what = 'attempts', where = 'from here', message?: (wait: string) => string): Promise<void> {
    refuseAfter(await this.apply(limits, 'peek'), what, where, message);
  }

  /** Counts the attempt against every limit, room or not. */
  async count(limits: Limit[]): Promise<void> {
    await this.apply(limits, 'count');
  }

  /** Counts the attempt if every limit has room; false (and nothing counted) if one is used up. */
  async tryTake(limits: Limit[]): Promise<boolean> {
    return (await this.apply(limits, 'take')) === 0;
  }

  /** How long until every limit has room again for its attempt's weight (0: now). */
  waitMs(limits: Limit[]): Promise<number> {
    return this.apply(limits, 'peek');
  }
}

function refuseAfter(wait: number, what: string, where: string, message?: (wait: string) => string): void {
  if (wait <= 0) return;
  const seconds = Math.max(1, Math.ceil(wait / 1000));
  throw new Refusal(
    'too-many',
    'rate-limited',
    message?.(humanWait(seconds)) ?? `Too many ${what} ${where}. Try again in ${humanWait(seconds)}.`,
    { retryAfter: seconds, extra: { retry_after: seconds } },
  );
}

/**
 * The wait until every limit has room for its weight, given each key's hits inside its window (oldest
 * first): room for `weight` more once the oldest hits beyond `max - weight` have left the window.
 */
export function waitFor(limits: readonly Limit[], hitsOf: (limit: Limit) => number[], now: number): number {
  let wait = 0;
  for (const limit of limits) {
    const weight = limit.weight ?? 1;
    // More than the limit allows at all (an operator's limit below an order's size): a window's wait.
    if (weight > limit.max) return limit.windowMs;
    const hits = hitsOf(limit);
    const over = hits.length + weight - limit.max;
    if (over > 0) wait = Math.max(wait, hits[over - 1]! + limit.windowMs - now);
  }
  return wait;
}

/** The limits in one process's memory: a restart forgets them (SQLite's service, one process). */
export class MemoryLimiter extends RateLimiter {
  /** Per key: its hits (times, oldest first) and how long they count. */
  readonly #buckets = new Map<string, { hits: number[]; windowMs: number }>();
  #nextSweep = 0;

  /** How many keys are remembered now (each with a hit inside its window, or since the last sweep). */
  get size(): number {
    return this.#buckets.size;
  }

  protected async apply(limits: Limit[], mode: 'peek' | 'count' | 'take'): Promise<number> {
    const now = this.clock.now();
    if (now >= this.#nextSweep) this.#sweep(now);
    const wait = mode === 'count' ? 0 : waitFor(limits, (limit) => this.#recent(limit.key, now, limit.windowMs), now);
    if (mode === 'count' || (mode === 'take' && wait === 0)) {
      for (const limit of limits) {
        const hits = this.#recent(limit.key, now, limit.windowMs);
        for (let i = 0; i < (limit.weight ?? 1); i++) hits.push(now);
      }
    }
    return wait;
  }

  async room(limit: Limit): Promise<number> {
    return Math.max(0, limit.max - this.#recent(limit.key, this.clock.now(), limit.windowMs).length);
  }

  async reset(): Promise<void> {
    this.#buckets.clear();
  }

  #recent(key: string, now: number, windowMs: number): number[] {
    const bucket = this.#buckets.get(key);
    const hits = (bucket?.hits ?? []).filter((t) => t > now - windowMs && t <= now);
    this.#buckets.set(key, { hits, windowMs: Math.max(windowMs, bucket?.windowMs ?? 0) });
    return hits;
  }

  /**
   * Forgets, once a minute, every key with no hit inside its window: memory follows the writers of
   * the last window (an hour at most), not of the day.
   */
  #sweep(now: number): void {
    this.#nextSweep = now + 60_000;
    for (const [key, { hits, windowMs }] of this.#buckets) {
      if (!hits.some((t) => t > now - windowMs && t <= now)) this.#buckets.delete(key);
    }
  }
}
