/** `POST /widget-api/v1/registrations` (docs/widget-api.md). */
import { seatGuard } from '../../core/rate-limit.ts';
import { clientAddress } from '../../http/client-address.ts';
import { requestLocale } from '../../http/locale.ts';
import type { ServiceDeps } from '../../http/context.ts';
import { error, widgetWrite } from '../../http/docs.ts';
import { SubApp } from '../../http/routes.ts';
import { WIDGET_API_PREFIX, requireIdempotencyKey, widgetKey } from '../../widget-api/keys.ts';
import { RegistrationRequest, RegistrationResponse } from '../../../contract/api/registrations.ts';
import { anonymousWrite } from '../../widget-api/anonymous-write.ts';
import { coursesPart } from '../../widget-api/first-render.ts';
import { createRegistration } from './store.ts';

export function registrationRoutes(deps: ServiceDeps): SubApp[] {
  const app = new SubApp(`${WIDGET_API_PREFIX}/registrations`);
  deps.firstRenders.add('registration', coursesPart(deps));
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
        "One transaction decides the seat: concurrent registrations never overbook. A full class waitlists when its waitlist has room, else 409 `class-full` (for everyone, booked or not). A calendar widget's key joins waitlists only: a class with a seat free answers it 409 `class-has-seats` (a seat is ordered through the checkout). An email that already holds a place in the class gets the answer a new registration would get (its existing registration’s id), no second record, and an email that says it was already registered: the answer tells nobody who is booked. The same `Idempotency-Key` with the same body answers the first registration again (200, `Idempotent-Replayed: true`); with another body 409 `idempotency-key-reused`. The participant is emailed a confirmation (at most 5 an hour to one address). The answer says until when the participant may cancel the place themselves (`cancel_until`) and links the class’s calendar file (`calendar_url`). Rate-limited per client address and per key.",
      ...widgetWrite(RegistrationRequest, RegistrationResponse, 'Registered', {
        '409': error('`class-full`, `class-has-seats`, `idempotency-key-reused`'),
        '429': 'RateLimited',
      }),
    },
    async (c, body) => {
      // The calendar joins waitlists here (its classes with seats go into the page's cart and are ordered).
      const key = await widgetKey(deps.store.db, c, 'registration', ['calendar']);
      const idempotencyKey = requireIdempotencyKey(c);
      const input = await body();
      return anonymousWrite(deps, c, key, {
        idempotencyKey,
        request: `POST ${path}`,
        input,
        limit: 'registration',
        counted: 'registrations',
        create: (tx, countAttempt) =>
          createRegistration(
            tx,
            deps.clock.now(),
            key,
            { ...input, phone: input.phone ?? null, locale: requestLocale(c) },
            {
              limiter: deps.limiter,
              limits: deps.limits,
              countAttempt,
              seats: seatGuard(deps.limiter, deps.limits, key.company_id, clientAddress(c, deps.trustProxy)),
              publicUrl: deps.publicUrl,
            },
          ),
      });
    },
  );
  return [app];
}
