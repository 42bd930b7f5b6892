/** `POST /widget-api/v1/registrations` (docs/widget-api.md). */
import type { Hono } from 'hono';
import { canonicalJson, runIdempotent } from '../../core/idempotency.ts';
import { sha256Hex } from '../../core/ids.ts';
import { anonymousWriteLimits } from '../../core/rate-limit.ts';
import { clientAddress } from '../../http/client-address.ts';
import { sendJson, type AppEnv, type ServiceDeps } from '../../http/context.ts';
import { IDEMPOTENCY_KEY, REPLAYED_HEADERS, WIDGET_WRITE_ERRORS, error } from '../../http/docs.ts';
import { WIDGET_API_PREFIX, requireIdempotencyKey, widgetKey } from '../widget-keys/checks.ts';
import { RegistrationRequest, RegistrationResponse } from './schema.ts';
import { createRegistration } from './store.ts';

export function registerRegistrationRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const path = `${WIDGET_API_PREFIX}/registrations`;
  deps.api.add(
    app,
    {
      method: 'post',
      path,
      tags: ['Widget API'],
      operationId: 'createRegistration',
      summary: 'Register a participant for a class (idempotent)',
      description:
        'One transaction decides the seat: concurrent registrations never overbook. A full class waitlists when its waitlist has room, else 409 `class-full` (for everyone, booked or not). An email that already holds a place in the class gets the answer a new registration would get (its existing registration’s id), no second record, and an email that says it was already registered: the answer tells nobody who is booked. The same `Idempotency-Key` with the same body answers the first registration again (200, `Idempotent-Replayed: true`); with another body 409 `idempotency-key-reused`. The participant is emailed a confirmation (at most 5 an hour to one address). Rate-limited per client address and per key.',
      security: [{ widgetKey: [] }],
      parameters: [IDEMPOTENCY_KEY],
      body: RegistrationRequest,
      responses: {
        '201': { description: 'Registered', schema: RegistrationResponse },
        '200': { description: 'A replay of the same submission', headers: REPLAYED_HEADERS, schema: RegistrationResponse },
        ...WIDGET_WRITE_ERRORS,
        '409': error('`class-full`, `idempotency-key-reused`'),
        '429': 'RateLimited',
      },
    },
    async (c, body) => {
      const key = await widgetKey(deps.store.db, c, 'registration');
      const idempotencyKey = requireIdempotencyKey(c);
      const input = await body();
      const address = clientAddress(c, deps.trustProxy);
      const result = await runIdempotent(deps.store, {
        scope: `widget:${key.key}`,
        key: idempotencyKey,
        requestHash: sha256Hex(`POST ${path}\n${canonicalJson(input)}`),
        now: deps.clock.now(),
        create: (tx) =>
          createRegistration(tx, deps.clock.now(), key, { ...input, phone: input.phone ?? null }, {
            limiter: deps.limiter,
            limits: deps.limits,
            // Counted here, so that a replay of the same submission is not.
            countAttempt: () => deps.limiter.take(anonymousWriteLimits(deps.limits, 'registration', address, key.key), 'registrations'),
          }),
      });
      return sendJson(result.body, result.status, result.replayed ? { 'Idempotent-Replayed': 'true' } : {});
    },
  );
}
