/**
 * Sliding-window rate limits on the service clock (so a test passes a window with /dev/clock).
 * In memory: a restart or /dev/reset forgets them.
 */
import type { Clock } from './clock.ts';
import { ApiError } from './errors.ts';

export interface Limit {
  /** Bucket name, e.g. `login:email:ada@example.org`. */
  key: string;
  max: number;
  windowMs: number;
}

export class RateLimiter {
  readonly #clock: Clock;
  readonly #hits = new Map<string, number[]>();
  #calls = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /**
   * Counts one attempt against every limit, or throws 429 `rate-limited` (with `Retry-After`)
   * when any of them is used up; a refused attempt is not counted.
   */
  take(limits: Limit[]): void {
    const now = this.#clock.now();
    if (++this.#calls % 1000 === 0) this.#sweep(now);
    let retryAfterMs = 0;
    for (const limit of limits) {
      const hits = this.#recent(limit.key, now, limit.windowMs);
      if (hits.length >= limit.max) {
        retryAfterMs = Math.max(retryAfterMs, hits[0]! + limit.windowMs - now);
      }
    }
    if (retryAfterMs > 0) {
      const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
      throw new ApiError(
        429,
        'rate-limited',
        `Too many attempts. Try again in ${seconds} seconds.`,
        undefined,
        { 'Retry-After': String(seconds) },
      );
    }
    for (const limit of limits) this.#recent(limit.key, now, limit.windowMs).push(now);
  }

  reset(): void {
    this.#hits.clear();
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
