/**
 * The rate limits of a service on PostgreSQL, in the database, so that every process counts against
 * the same limits. Each check takes the keys' advisory locks (in a fixed order) for its transaction,
 * reads their hits inside the longest window and writes the new ones: two processes never both pass
 * the last unit. It uses a small pool of its own, without the store's write lock, so that a limit
 * checked inside a booking's transaction never waits for that transaction. Hits older than the
 * longest window are deleted once a minute.
 */
import type pg from 'pg';
import type { Clock } from '../core/clock.ts';
import { RateLimiter, waitFor, type Limit } from '../core/rate-limit.ts';
import { postgresPool } from './dialect.ts';

export class PostgresLimiter extends RateLimiter {
  readonly #pool: pg.Pool;
  readonly #longestWindowMs: number;
  #nextPurge = 0;

  constructor(url: string, clock: Clock, longestWindowMs: number) {
    super(clock);
    this.#pool = postgresPool(url, 4);
    this.#longestWindowMs = longestWindowMs;
  }

  protected async apply(limits: Limit[], mode: 'peek' | 'count' | 'take'): Promise<number> {
    const now = this.clock.now();
    const keys = [...new Set(limits.map((l) => l.key))].sort();
    const client = await this.#pool.connect();
    try {
      await client.query('begin');
      if (mode !== 'peek') {
        for (const key of keys) await client.query('select pg_advisory_xact_lock(hashtextextended($1, 7201))', [key]);
      }
      let wait = 0;
      if (mode !== 'count') {
        const longest = Math.max(...limits.map((l) => l.windowMs));
        const { rows } = await client.query<{ key: string; at: number; weight: number }>(
          'select key, at, weight from rate_limit_hits where key = any($1) and at > $2 and at <= $3 order by at',
          [keys, now - longest, now],
        );
        const hits = new Map<string, number[]>();
        for (const row of rows) {
          const list = hits.get(row.key) ?? [];
          for (let i = 0; i < row.weight; i++) list.push(row.at);
          hits.set(row.key, list);
        }
        wait = waitFor(limits, (limit) => (hits.get(limit.key) ?? []).filter((t) => t > now - limit.windowMs), now);
      }
      if (mode === 'count' || (mode === 'take' && wait === 0)) {
        const values = limits.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`).join(', ');
        await client.query(
          `insert into rate_limit_hits (key, at, weight) values ${values}`,
          limits.flatMap((l) => [l.key, now, l.weight ?? 1]),
        );
      }
      await client.query('commit');
      if (now >= this.#nextPurge) {
        this.#nextPurge = now + 60_000;
        await client.query('delete from rate_limit_hits where at <= $1', [now - this.#longestWindowMs]);
      }
      return wait;
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async room(limit: Limit): Promise<number> {
    const now = this.clock.now();
    const { rows } = await this.#pool.query<{ used: number | null }>(
      'select sum(weight) as used from rate_limit_hits where key = $1 and at > $2 and at <= $3',
      [limit.key, now - limit.windowMs, now],
    );
    return Math.max(0, limit.max - Number(rows[0]?.used ?? 0));
  }

  async reset(): Promise<void> {
    await this.#pool.query('delete from rate_limit_hits');
  }

  override async close(): Promise<void> {
    await this.#pool.end();
  }
}
