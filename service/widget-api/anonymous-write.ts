/** An anonymous widget API write (a registration, a contact message, an order): idempotent and rate-limited. */
import { canonicalJson, runIdempotent, type Answer } from '../core/idempotency.ts';
import { sha256Hex } from '../core/ids.ts';
import { anonymousWriteLimits, type AnonymousWrite } from '../core/rate-limit.ts';
import type { Tx } from '../db/database.ts';
import type { WidgetKeyRow } from '../domain/widget-keys.ts';
import { clientAddress } from '../http/client-address.ts';
import { idempotentAnswer, type AppContext, type ServiceDeps } from '../http/context.ts';

/**
 * Runs `create` under the submission's Idempotency-Key, scoped to the widget key. `countAttempt`
 * takes one try of the per-address and per-key limits; `create` calls it where the documented order
 * puts the rate limit, so that a replay of the same submission is not counted.
 */
export async function anonymousWrite(
  deps: ServiceDeps,
  c: AppContext,
  key: WidgetKeyRow,
  opts: {
    idempotencyKey: string;
    request: string;
    input: unknown;
    limit: AnonymousWrite;
    /** What is counted, for the 429's message ("registrations"). */
    counted: string;
    create: (tx: Tx, countAttempt: () => Promise<void>) => Promise<Answer>;
    /** The answer's secrets again, for a replay (see `Answer.secret`). */
    replay?: (tx: Tx, body: unknown) => Promise<Record<string, unknown>>;
  },
): Promise<Response> {
  const address = clientAddress(c, deps.trustProxy);
  const countAttempt = () => deps.limiter.take(anonymousWriteLimits(deps.limits, opts.limit, address, key.key), opts.counted);
  const result = await runIdempotent(deps.store, {
    scope: `widget:${key.key}`,
    key: opts.idempotencyKey,
    requestHash: sha256Hex(`${opts.request}\n${canonicalJson(opts.input)}`),
    now: deps.clock.now(),
    create: (tx) => opts.create(tx, countAttempt),
    ...(opts.replay ? { replay: opts.replay } : {}),
  });
  return idempotentAnswer(result);
}
