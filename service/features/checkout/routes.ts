/**
 * The checkout (docs/widget-api.md, "Checkout"): a cart's quote, placing an order, reading it back.
 * Every amount is computed by the service (pricing.ts); the browser only says what it wants.
 */
import type { Hono } from 'hono';
import { sha256Hex } from '../../core/ids.ts';
import { confirmationEmailLimit, humanWait, seatGuard } from '../../core/rate-limit.ts';
import { participantOfToken } from '../../domain/signed-in.ts';
import { clientAddress } from '../../http/client-address.ts';
import { requestLocale } from '../../http/locale.ts';
import { sendJson, type AppContext, type AppEnv, type ServiceDeps } from '../../http/context.ts';
import { WIDGET_WRITE_ERRORS, error, widgetWrite } from '../../http/docs.ts';
import { ApiError } from '../../http/errors.ts';
import { SubApp, type BodyCheck } from '../../http/routes.ts';
import {
  WIDGET_API_PREFIX,
  requireIdempotencyKey,
  servedReturnUrl,
  widgetKey,
  type WidgetKeyRow,
} from '../../widget-api/keys.ts';
import { anonymousWrite } from '../../widget-api/anonymous-write.ts';
import {
  CHECKOUT_LIMITS,
  OrderReadResponse,
  OrderRequest,
  OrderResponse,
  QuoteRequest,
  QuoteResponse,
  type VoucherResult,
} from '../../../contract/api/checkout.ts';
import {
  PAYMENT_HOLD_MS,
  cancelWaitingOrder,
  companyOf,
  keepOrderToken,
  orderView,
  placeOrder,
  quoteCart,
  readableOrder,
  releaseExpiredOrders,
} from './store.ts';

/** A class takes one line of a cart, with all its seats. */
const oneLinePerClass: BodyCheck = (raw, fields) => {
  if (!Array.isArray(raw.items)) return;
  const seen = new Set<string>();
  raw.items.forEach((item: unknown, index) => {
    const id = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).class_id : undefined;
    if (typeof id !== 'string') return;
    if (seen.has(id.trim())) {
      fields[`items.${index}.class_id`] ??= 'This class is in the cart twice: give it one line with all its seats.';
    }
    seen.add(id.trim());
  });
};

/** An order holds at most CHECKOUT_LIMITS.orderSeats seats in all, whatever its lines. */
const seatsInAll: BodyCheck = (raw, fields) => {
  if (!Array.isArray(raw.items) || Object.keys(fields).some((f) => f === 'items' || f.startsWith('items.'))) return;
  const seats = raw.items.reduce((sum: number, item) => sum + ((item as { seats: number }).seats ?? 0), 0);
  if (seats > CHECKOUT_LIMITS.orderSeats) {
    fields.items = `An order holds at most ${CHECKOUT_LIMITS.orderSeats} seats in all, and this one has ${seats}: book the others in a second order.`;
  }
};

const both =
  (...checks: BodyCheck[]): BodyCheck =>
  (raw, fields) => {
    for (const check of checks) check(raw, fields);
  };

/**
 * Before anything reads seats (the widget API, the REST API), the seats of unpaid orders whose time
 * is up are released. Registered before the routes, so that it runs first.
 */
export function registerOrderExpiry(app: Hono<AppEnv>, deps: ServiceDeps): void {
  for (const path of [`${WIDGET_API_PREFIX}/*`, '/v1/*']) {
    app.use(path, async (c, next) => {
      if (c.req.method !== 'OPTIONS') await releaseExpiredOrders(deps.store, deps.clock.now());
      await next();
    });
  }
}

// The checkout adds nothing to its first render (`widget` alone): it shows the cart the page gives
// it, priced by the quote.
export function checkoutRoutes(deps: ServiceDeps): SubApp[] {
  const app = new SubApp(WIDGET_API_PREFIX);
  const { store, clock, limiter } = deps;
  const { db } = store;
  const holdMinutes = PAYMENT_HOLD_MS / 60_000;

  deps.api.add(
    app,
    {
      method: 'post',
      path: `${WIDGET_API_PREFIX}/checkout/quote`,
      tags: ['Widget API'],
      operationId: 'checkoutQuote',
      summary: 'Price a cart: seats, problems, voucher, discount, tax, payment methods (checkout keys)',
      description: `A read: no \`Idempotency-Key\`, nothing is stored. Each line says its class’s state and a \`problem\` (\`unknown-class\`, \`started\`, \`class-full\`, \`not-enough-seats\`) with a \`message\` for the visitor; a line with a problem costs nothing in the totals, and \`orderable\` is false. The voucher (codes are case-insensitive) is \`applied\` or \`unknown\`, \`expired\`, \`used-up\`, \`not-applicable\`, each with a message. A percentage comes off each line it applies to (rounded half up per line); a fixed amount is capped at those lines’ cost and spread over them. With prices that include tax, \`tax\` is the tax share of \`total\`; otherwise it is added. \`payment_methods\`: \`invoice\` and \`on_site\` (offline), and \`card\` (redirect) where a payment provider is set up (in development mode, the fake one); none when the total is zero. A class may take one line only. Voucher codes that do not apply are rate-limited per client address and per key (a code that applies is not counted).`,
      security: [{ widgetKey: [] }],
      body: QuoteRequest,
      responses: {
        '200': { description: 'The priced cart', schema: QuoteResponse },
        ...WIDGET_WRITE_ERRORS,
        '400': error('`missing-key`, `bad-json`'),
        '422': error(
          '`validation`: `fields` by path (`items.0.seats`); `fields.items` for a cart of several currencies; `items.N.class_id` for a class given twice',
        ),
        '429': 'RateLimited',
      },
    },
    async (c, body) => {
      const key = await widgetKey(db, c, 'checkout');
      const input = await body(both(oneLinePerClass, seatsInAll));
      const guard = voucherGuard(deps, c, key);
      // An address whose wrong guesses are used up learns nothing of its code, right or wrong: the
      // cart is priced without it, and the voucher says when codes are checked again.
      const wait = input.voucher ? await guard.waitSeconds() : 0;
      const priced = await quoteCart(db, {
        company: await companyOf(db, key.company_id),
        items: input.items,
        voucher: wait > 0 ? null : input.voucher,
        now: clock.now(),
        card: deps.dev,
      });
      if (wait > 0) priced.response.voucher = guard.notChecked(input.voucher!, wait);
      else if (priced.response.voucher && priced.response.voucher.status !== 'applied') await guard.count();
      return sendJson(priced.response satisfies QuoteResponse);
    },
  );

  const ordersPath = `${WIDGET_API_PREFIX}/orders`;
  deps.api.add(
    app,
    {
      method: 'post',
      path: ordersPath,
      tags: ['Widget API'],
      operationId: 'createOrder',
      summary: 'Place an order: all its seats in one transaction (idempotent, checkout keys)',
      description: `One transaction reads the classes and their seats, prices the cart again (never the browser’s prices) and books every seat, or nothing: a line with fewer seats left than ordered answers 409 \`class-full\` with \`lines\` (each short line’s \`class_id\`, \`seats_left\`, \`status\`) and \`fields\` \`items.N.seats\`; orders never waitlist. A voucher that does not apply is 422 \`fields.voucher\` with the quote’s message; \`expected_total\` other than the total is 409 \`price-changed\`. \`payment_method\` is one of the quote’s (none when the total is zero); a \`redirect\` method needs \`return_url\`, a page the key serves. An order that costs something needs the buyer’s \`address\` and \`attendees\` for every item (422 \`buyer.address\`, \`items.N.attendees\`); a free order needs neither, and its seats without names are booked in the buyer’s name. One registration per seat, named after its attendee, with the buyer’s email; the buyer is the company’s participant of that email. Offline methods and free orders are \`confirmed\` at once and the buyer is emailed; \`card\` is \`pending_payment\` with \`payment.redirect_url\`, its seats held for ${holdMinutes} minutes of the service clock, then released if unpaid. \`token\` reads the order back (\`GET /orders/{id}\`, header \`X-Order-Token\`); only its hash is stored, so a replay (200, \`Idempotent-Replayed: true\`) answers a new token beside the first answer. Rate-limited per client address and per key.`,
      ...widgetWrite(OrderRequest, OrderResponse, 'Ordered', {
        '409': error(
          '`class-full` (with `lines` and `fields` `items.N.seats`), `price-changed` (the total changed: check it and order again), `idempotency-key-reused`',
        ),
        '422': error(
          '`validation`: `fields` by path (`buyer.address.city`, `items.1.attendees`); `items.N.class_id` (unknown or started), `voucher`, `payment_method`, `return_url`; `buyer.address`, `items.N.attendees` missing from an order that costs something',
        ),
        '429': 'RateLimited',
      }),
    },
    async (c, body) => {
      const key = await widgetKey(db, c, 'checkout');
      const idempotencyKey = requireIdempotencyKey(c);
      const input = await body(both(oneLinePerClass, seatsInAll, servedReturnUrl(key)));
      const company = await companyOf(db, key.company_id);
      const seats = seatGuard(limiter, deps.limits, key.company_id, clientAddress(c, deps.trustProxy));
      const guard = voucherGuard(deps, c, key);
      return anonymousWrite(deps, c, key, {
        idempotencyKey,
        request: `POST ${ordersPath}`,
        input,
        limit: 'order',
        counted: 'orders',
        create: (tx, countOrder) =>
          placeOrder(tx, {
            now: clock.now(),
            key,
            company,
            input,
            publicUrl: deps.publicUrl,
            secret: store.secret,
            card: deps.dev,
            locale: requestLocale(c),
            countAttempt: countOrder,
            seats,
            voucherGuard: guard,
            mayEmail: mayEmail(deps),
          }),
        // The first answer's token again (the same one, made from the order's id): never a new credential.
        replay: async (tx, stored) => ({
          token: await keepOrderToken(tx, store.secret, (stored as OrderResponse).order.id, clock.now()),
        }),
      });
    },
  );

  deps.api.add(
    app,
    {
      method: 'get',
      path: `${ordersPath}/{id}`,
      tags: ['Widget API'],
      operationId: 'readOrder',
      summary: 'Read an order back: with its token, or as the signed-in participant who placed it',
      description:
        'The token travels in the `X-Order-Token` header, never in the URL (so this GET is preflighted). The signed-in participant who placed the order may send their `X-Service-Token` instead. Any enabled key of the order’s company. A missing or wrong token, and an order that does not exist, answer the same 401 `invalid-token`.',
      security: [
        { widgetKey: [], orderToken: [] },
        { widgetKey: [], participantToken: [] },
      ],
      parameters: [
        { name: 'id', in: 'path', required: true, description: 'The order’s id', schema: { type: 'string' } },
        {
          name: 'X-Order-Token',
          in: 'header',
          required: false,
          description: 'The `token` of the order’s answer',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': { description: 'The order', schema: OrderReadResponse },
        '400': error('`missing-key`'),
        '401': error('`invalid-key`; `invalid-token`: no token, a wrong one, or no such order'),
        '403': error('`origin-not-allowed`, `not-available`'),
      },
    },
    async (c) => {
      const key: WidgetKeyRow = await widgetKey(db, c);
      const now = clock.now();
      const serviceToken = c.req.header('x-service-token')?.trim();
      const signedIn = serviceToken ? await participantOfToken(db, sha256Hex(serviceToken), key.company_id, now) : undefined;
      const id = await readableOrder(db, {
        orderId: c.req.param('id') ?? '',
        companyId: key.company_id,
        token: c.req.header('x-order-token')?.trim() || undefined,
        // An emailed link's token signs in through the profile first.
        participantId: signedIn && (signedIn.emailed === 0 || signedIn.used_at !== null) ? signedIn.id : undefined,
      });
      if (id === undefined) {
        throw new ApiError(
          401,
          'invalid-token',
          'Send the order’s token in the X-Order-Token header (the token of the order’s answer), or sign in as the person who placed it.',
        );
      }
      return sendJson({ order: await orderView(db, id, deps.publicUrl) } satisfies OrderReadResponse);
    },
  );

  deps.api.add(
    app,
    {
      method: 'post',
      path: `${ordersPath}/{id}/cancel`,
      tags: ['Widget API'],
      operationId: 'cancelPendingOrder',
      summary: 'Cancel an order still waiting for its payment: its held seats and voucher are released',
      description: `No body. With the order’s \`X-Order-Token\`: a buyer who left the provider’s page without paying changes their mind (the widget offers it beside “Continue to payment”), so that the seats the order holds for ${holdMinutes} minutes do not stand in the way of a new order. Nothing was charged. Cancelling a cancelled order answers the same; a confirmed order cannot be cancelled here (409). Rate-limited per client address.`,
      security: [{ widgetKey: [], orderToken: [] }],
      parameters: [
        { name: 'id', in: 'path', required: true, description: 'The order’s id', schema: { type: 'string' } },
        {
          name: 'X-Order-Token',
          in: 'header',
          required: true,
          description: 'The `token` of the order’s answer',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': { description: 'The order, cancelled', schema: OrderReadResponse },
        '400': error('`missing-key`'),
        '401': error('`invalid-key`; `invalid-token`: no token, a wrong one, or no such order'),
        '403': error('`origin-not-allowed`, `not-available`'),
        '409': error('`not-pending`: the order is confirmed (paid or to be paid offline); the company changes it'),
        '429': 'RateLimited',
      },
    },
    async (c) => {
      const key: WidgetKeyRow = await widgetKey(db, c);
      await limiter.take(
        [{ key: `order-cancel:address:${clientAddress(c, deps.trustProxy)}`, ...deps.limits.order.perAddress }],
        'order cancellations',
      );
      const id = await readableOrder(db, {
        orderId: c.req.param('id') ?? '',
        companyId: key.company_id,
        token: c.req.header('x-order-token')?.trim() || undefined,
        participantId: undefined,
      });
      if (id === undefined) {
        throw new ApiError(
          401,
          'invalid-token',
          'Send the order’s token in the X-Order-Token header (the token of the order’s answer).',
        );
      }
      const status = await store.transaction((tx) => cancelWaitingOrder(tx, clock.now(), id));
      if (status === 'confirmed') {
        throw new ApiError(
          409,
          'not-pending',
          'This order is confirmed and cannot be cancelled here: please contact the company.',
        );
      }
      return sendJson({ order: await orderView(db, id, deps.publicUrl) } satisfies OrderReadResponse);
    },
  );
  return [app];
}

/**
 * The guard on voucher guesses (a wrong code tells whether a code exists). Each address has
 * `perAddress` wrong codes; when the key's count of wrong codes passes `perKey` (guessing from many
 * addresses), every address has `perAddressUnderAttack` instead, for as long. Nobody is refused
 * because of other people's guesses, and codes that apply are never counted.
 */
export function voucherGuard(deps: ServiceDeps, c: AppContext, key: WidgetKeyRow) {
  const rules = deps.limits.voucher;
  // Per company: one shop's guesses are no other shop's business.
  const address = `voucher:${key.company_id}:address:${clientAddress(c, deps.trustProxy)}`;
  const perAddress = { key: address, ...rules.perAddress };
  const perKey = { key: `voucher:key:${key.key}`, ...rules.perKey };
  return {
    /** Seconds until this address's codes are checked again (0: now). */
    async waitSeconds(): Promise<number> {
      const underAttack = (await deps.limiter.waitMs([perKey])) > 0;
      const wait = await deps.limiter.waitMs([underAttack ? { key: address, ...rules.perAddressUnderAttack } : perAddress]);
      return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : 0;
    },
    /** A code that did not apply. */
    count: () => deps.limiter.count([perAddress, perKey]),
    /** The verdict on a code while this address may not check codes: nothing about the code itself. */
    notChecked: (code: string, wait: number): VoucherResult => ({
      code,
      status: 'not-checked',
      message: `Too many voucher codes that do not apply were tried from your connection, so this one was not checked: try it again in ${humanWait(wait)}, or go on without it.`,
      retry_after: wait,
    }),
  };
}
export type VoucherGuard = ReturnType<typeof voucherGuard>;

/** Confirmations to one address are throttled like a registration's: a form cannot flood a mailbox. */
export const mayEmail = (deps: ServiceDeps) => (to: string) => deps.limiter.tryTake(confirmationEmailLimit(deps.limits, to));
