/**
 * Idempotent writes: the first request under an Idempotency-Key runs `create` and stores its
 * answer; the same key with the same body gets that answer again (replayed), with another body
 * a conflict (`idempotency-key-reused`). Lookup, `create` and the stored answer share one
 * transaction (on SQLite `BEGIN IMMEDIATE`), so concurrent retries cannot both create. Failed attempts store
 * nothing: a retry after a 4xx runs again. A key is remembered for `IDEMPOTENCY_TTL_MS` of the
 * service clock (a day, far longer than any client retries), then forgotten, so the table stays small.
 */
import type { Store, Tx } from '../db/database.ts';
import { Refusal } from './refusal.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface Answer<T = unknown> {
  status: number;
  body: T;
  /**
   * Members of the answer that are secrets (a token that reads the record back): sent with `body`
   * but never stored. A replay asks `replay` for them again (the same ones: a replay never mints a
   * new credential), so that no secret is kept in clear.
   */
  secret?: Record<string, unknown>;
}

export interface IdempotentResult extends Answer {
  replayed: boolean;
}

export function runIdempotent(
  store: Store,
  opts: {
    scope: string;
    key: string;
    requestHash: string;
    now: number;
    create: (tx: Tx) => Promise<Answer>;
    /** The secrets of a replayed answer (see `Answer.secret`): the first answer's, made again from what they derive from. */
    replay?: (tx: Tx, body: unknown) => Promise<Record<string, unknown>>;
  },
): Promise<IdempotentResult> {
  return store.transaction(async (tx): Promise<IdempotentResult> => {
    await tx
      .deleteFrom('idempotency')
      .where('created_at', '<=', opts.now - IDEMPOTENCY_TTL_MS)
      .execute();
    const stored = await tx
      .selectFrom('idempotency')
      .select(['request_hash', 'response'])
      .where('scope', '=', opts.scope)
      .where('key', '=', opts.key)
      .executeTakeFirst();
    if (stored) {
      if (stored.request_hash !== opts.requestHash) {
        throw new Refusal(
          'conflict',
          'idempotency-key-reused',
          'This Idempotency-Key was already used for a different request. Use a new key for a new submission.',
        );
      }
      const body = JSON.parse(stored.response) as unknown;
      return {
        status: 200,
        body: opts.replay ? { ...(body as object), ...(await opts.replay(tx, body)) } : body,
        replayed: true,
      };
    }
    const { secret, ...result } = await opts.create(tx);
    await tx
      .insertInto('idempotency')
      .values({
        scope: opts.scope,
        key: opts.key,
        request_hash: opts.requestHash,
        status: result.status,
        response: JSON.stringify(result.body),
        created_at: opts.now,
      })
      .execute();
    return {
      status: result.status,
      body: secret ? { ...(result.body as Record<string, unknown>), ...secret } : result.body,
      replayed: false,
    };
  });
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
