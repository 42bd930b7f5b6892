/**
 * Idempotent writes: the first request under an Idempotency-Key runs `create` and stores its
 * answer; the same key with the same body gets that answer again (replayed), with another body
 * 409 `idempotency-key-reused`. Lookup, `create` and the stored answer share one
 * `BEGIN IMMEDIATE` transaction, so concurrent retries cannot both create. Failed attempts store
 * nothing: a retry after a 4xx runs again. A key is remembered for `IDEMPOTENCY_TTL_MS` of the
 * service clock (a day, far longer than any client retries), then forgotten, so the table stays small.
 */
import type { Db } from './db.ts';
import { ApiError } from './errors.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface IdempotentResult {
  status: number;
  body: unknown;
  replayed: boolean;
}

export function runIdempotent(
  db: Db,
  opts: {
    scope: string;
    key: string;
    requestHash: string;
    now: number;
    create: () => { status: number; body: unknown };
  },
): IdempotentResult {
  const tx = db.transaction((): IdempotentResult => {
    db.prepare('DELETE FROM idempotency WHERE created_at <= ?').run(opts.now - IDEMPOTENCY_TTL_MS);
    const stored = db
      .prepare('SELECT request_hash, response FROM idempotency WHERE scope = ? AND key = ?')
      .get(opts.scope, opts.key) as { request_hash: string; response: string } | undefined;
    if (stored) {
      if (stored.request_hash !== opts.requestHash) {
        throw new ApiError(
          409,
          'idempotency-key-reused',
          'This Idempotency-Key was already used for a different request. Use a new key for a new submission.',
        );
      }
      return { status: 200, body: JSON.parse(stored.response) as unknown, replayed: true };
    }
    const result = opts.create();
    db.prepare(
      `INSERT INTO idempotency (scope, key, request_hash, status, response, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(opts.scope, opts.key, opts.requestHash, result.status, JSON.stringify(result.body), opts.now);
    return { ...result, replayed: false };
  });
  return tx.immediate();
}

/**
 * JSON with object keys sorted, so that key order does not make two bodies differ. No recursion of
 * ours: JSON.stringify walks the value, and bodies are at most MAX_BODY_DEPTH deep (body.ts).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
