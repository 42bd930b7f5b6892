/**
 * The checkout's fake payment provider, development mode only (server.ts mounts it then, and only
 * then does the quote offer `card`): the page a `card` order's `payment.redirect_url` opens, so that
 * the redirect and the return are tested end to end without a real provider. Pay confirms the
 * order, Cancel cancels it and releases its seats; both send the buyer back (303) to the
 * `return_url` the order was placed with (checked against the key's origins then; never taken from
 * this request). Posting twice changes nothing more.
 */
import type { AppContext, ServiceDeps } from '../../http/context.ts';
import { HTML_SECURITY_HEADERS } from '../../http/static.ts';
import { SubApp } from '../../http/routes.ts';
import { formatMoney } from '../../domain/format.ts';
import { mayEmail } from './routes.ts';
import { PAYMENT_HOLD_MS, orderOfPayment, settlePayment, type PaymentOrder } from './store.ts';

const PAYMENT_ID = /^pay_[A-Za-z0-9_-]{16}$/;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** A whole page: no inline script or style, so the service's strict CSP holds. */
function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>Fake payment provider of the reference service: development only, no money moves.</p>
${body}
</main>
</body>
</html>
`;
  return new Response(html, { status, headers: { ...HTML_SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8' } });
}

const back = (order: PaymentOrder) =>
  order.return_url ? `<p><a href="${escapeHtml(order.return_url)}">Back to the shop</a></p>` : '';

const noSuchPayment = () =>
  page(404, 'No such payment', '<p>There is no payment at this address. Start again from the shop’s checkout.</p>');

const details = (order: PaymentOrder) => `<dl>
<dt>Merchant</dt><dd>${escapeHtml(order.company_name)}</dd>
<dt>Order</dt><dd>${escapeHtml(order.number)}</dd>
<dt>Amount</dt><dd>${escapeHtml(formatMoney(order.total, order.currency))}</dd>
</dl>`;

const notCharged = (order: PaymentOrder) =>
  `<p>Order ${escapeHtml(order.number)} was cancelled, or its ${PAYMENT_HOLD_MS / 60_000} minutes to pay ran out: nothing was charged.</p>${back(order)}`;

/**
 * A form post that did not come from the provider's own page (cross-site request forgery): what the
 * browser says of the request's site (`Sec-Fetch-Site`), or, from a browser without it, its `Origin`.
 * A request with neither is no browser's form (curl, a test), which no other site can send.
 */
function crossSite(c: AppContext): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = c.req.header('origin');
  return origin !== undefined && origin !== new URL(c.req.url).origin;
}

export function fakePaymentRoutes(deps: ServiceDeps): SubApp[] {
  const app = new SubApp('/dev/pay');
  const { store, clock } = deps;
  // Form actions are paths under the service's configured public URL (never from the request's Host);
  // it is known once the service listens.
  const base = () => `${new URL(deps.publicUrl).pathname.replace(/\/+$/, '')}/dev/pay`;
  const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
  const paymentParameter = {
    name: 'payment',
    in: 'path',
    required: true,
    description: 'The payment id of `payment.redirect_url`',
    schema: { type: 'string' },
  };
  const spec = (method: 'get' | 'post', path: string, operationId: string, summary: string) => ({
    method,
    path,
    tags: ['Development'],
    operationId,
    summary,
    security: [],
    dev: true,
    parameters: [paymentParameter],
  });

  deps.api.add(
    app,
    {
      ...spec('get', '/dev/pay/{payment}', 'devPaymentPage', 'The fake payment provider’s page of a card payment'),
      description:
        'Development only. Names the merchant, the order number and the amount, with the buttons Pay and Cancel (plain form posts). A paid, cancelled or expired payment says so.',
      responses: { '200': html('The page'), '404': html('No such payment') },
    },
    async (c) => {
      const id = c.req.param('payment') ?? '';
      if (!PAYMENT_ID.test(id)) return noSuchPayment();
      const order = await store.transaction((tx) => orderOfPayment(tx, clock.now(), id));
      if (!order) return noSuchPayment();
      if (order.status === 'confirmed') {
        return page(200, `Order ${order.number} is paid`, `${details(order)}<p>This payment is done.</p>${back(order)}`);
      }
      if (order.status === 'cancelled') return page(200, `Payment of order ${order.number} not made`, notCharged(order));
      const action = (what: string) => `${base()}/${encodeURIComponent(id)}/${what}`;
      return page(
        200,
        `Pay order ${order.number}`,
        `${details(order)}
<form method="post" action="${escapeHtml(action('pay'))}"><button type="submit">Pay ${escapeHtml(formatMoney(order.total, order.currency))}</button></form>
<form method="post" action="${escapeHtml(action('cancel'))}"><button type="submit">Cancel</button></form>`,
      );
    },
  );

  for (const outcome of ['paid', 'cancelled'] as const) {
    const verb = outcome === 'paid' ? 'pay' : 'cancel';
    deps.api.add(
      app,
      {
        ...spec(
          'post',
          `/dev/pay/{payment}/${verb}`,
          outcome === 'paid' ? 'devPay' : 'devCancelPayment',
          outcome === 'paid'
            ? 'The fake provider’s Pay: the order is paid and confirmed'
            : 'The fake provider’s Cancel: the order is cancelled and its seats released',
        ),
        description: `Development only; a form post from the page (no body needed). Answers 303 to the order’s \`return_url\`; a second post changes nothing.${outcome === 'paid' ? ' An order cancelled or expired meanwhile is not paid: 409 with a page that says nothing was charged.' : ' A paid order stays paid.'}`,
        responses: {
          '303': {
            description: 'Back to the shop',
            headers: { Location: { description: 'The order’s `return_url`', schema: { type: 'string', format: 'uri' } } },
          },
          ...(outcome === 'paid' ? { '409': html('The order was cancelled or expired: nothing was charged') } : {}),
          '403': html('Not posted from the payment page itself (another site’s form: `Sec-Fetch-Site`, `Origin`)'),
          '404': html('No such payment'),
        },
      },
      async (c) => {
        const id = c.req.param('payment') ?? '';
        if (!PAYMENT_ID.test(id)) return noSuchPayment();
        if (crossSite(c)) {
          return page(
            403,
            'Not from the payment page',
            '<p>A payment is made or cancelled with the buttons of its own page only: open the payment page again from the shop.</p>',
          );
        }
        const order = await store.transaction((tx) =>
          settlePayment(tx, { now: clock.now(), paymentId: id, outcome, publicUrl: deps.publicUrl, mayEmail: mayEmail(deps) }),
        );
        if (!order || !order.return_url) return noSuchPayment();
        if (outcome === 'paid' && order.status === 'cancelled') {
          return page(409, `Payment of order ${order.number} not made`, notCharged(order));
        }
        return new Response(null, { status: 303, headers: { Location: order.return_url } });
      },
    );
  }
  return [app];
}
