/**
 * The checkout's fake payment provider, development mode only (server.ts mounts it then, and only
 * then does the quote offer `card`): the page a `card` order's `payment.redirect_url` opens, so that
 * the redirect and the return are tested end to end without a real provider. Pay confirms the
 * order, Cancel cancels it and releases its seats; both send the buyer back (303) to the
 * `return_url` the order was placed with (checked against the key's origins then; never taken from
 * this request). Posting twice changes nothing more. Every page says how to go on from it.
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

/**
 * A whole page in the demo's look (its stylesheet, `demo/styles/provider.css`, which the demo's build
 * writes under a fixed name): no inline script or style, so the service's strict CSP holds. `root` is
 * the path of the service's public URL, under which the stylesheet and the demo are found.
 */
function page(root: string, status: number, title: string, body: string, orderNumber?: string): Response {
  const number = orderNumber && escapeHtml(orderNumber);
  const heading = number ? escapeHtml(title).replace(number, `<span class="order-number">${number}</span>`) : escapeHtml(title);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(root)}/demo/assets/provider.css">
</head>
<body>
<main class="provider">
<div class="wrap">
<p class="eyebrow">Fake payment provider · development only</p>
<h1>${heading}</h1>
${body}
<p class="note">This page stands in for a card payment provider while you try the checkout: no money moves.</p>
</div>
</main>
</body>
</html>
`;
  return new Response(html, { status, headers: { ...HTML_SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8' } });
}

const back = (order: PaymentOrder) =>
  order.return_url ? `<p class="actions"><a class="button" href="${escapeHtml(order.return_url)}">Back to the shop</a></p>` : '';

/**
 * No payment at this address (a link cut short, or the service's data reset since the checkout
 * began): nothing says which shop it came from, so the page says how to get back, and offers the
 * demo's checkout, where most journeys of development begin.
 */
const noSuchPayment = (root: string) =>
  page(
    root,
    404,
    'No such payment',
    `<div class="card">
<p>There is no payment at this address: its link may be cut short, or the service’s data was reset since the checkout began. Nothing was charged.</p>
<p>Go back to the shop with your browser’s Back button, or open its page again, and start the checkout once more: your cart is kept there.</p>
</div>
<p class="actions"><a class="button secondary" href="${escapeHtml(root)}/#checkout">Open the demo’s checkout</a></p>`,
  );

const details = (order: PaymentOrder) => `<dl class="provider-details">
<dt>Merchant</dt><dd>${escapeHtml(order.company_name)}</dd>
<dt>Order</dt><dd>${escapeHtml(order.number)}</dd>
<dt>Amount</dt><dd>${escapeHtml(formatMoney(order.total, order.currency))}</dd>
</dl>`;

const notCharged = (order: PaymentOrder) =>
  `<div class="card"><p>Order ${escapeHtml(order.number)} was cancelled, or its ${PAYMENT_HOLD_MS / 60_000} minutes to pay ran out: nothing was charged.</p></div>${back(order)}`;

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
  // Form actions and the stylesheet are paths under the service's configured public URL (never from
  // the request's Host); it is known once the service listens.
  const root = () => new URL(deps.publicUrl).pathname.replace(/\/+$/, '');
  const base = () => `${root()}/dev/pay`;
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
        'Development only, in the demo’s look (`/demo/assets/provider.css`). Names the merchant, the order number and the amount, with the buttons Pay and Cancel (plain form posts). A paid, cancelled or expired payment says so, with a link back to the order’s `return_url`; an unknown one (404) says how to get back to the shop, and links the demo’s checkout.',
      responses: { '200': html('The page'), '404': html('No such payment') },
    },
    async (c) => {
      const id = c.req.param('payment') ?? '';
      if (!PAYMENT_ID.test(id)) return noSuchPayment(root());
      const order = await store.transaction((tx) => orderOfPayment(tx, clock.now(), id));
      if (!order) return noSuchPayment(root());
      if (order.status === 'confirmed') {
        return page(
          root(),
          200,
          `Order ${order.number} is paid`,
          `<div class="card">${details(order)}<p>This payment is done.</p></div>${back(order)}`,
          order.number,
        );
      }
      if (order.status === 'cancelled') {
        return page(root(), 200, `Payment of order ${order.number} not made`, notCharged(order), order.number);
      }
      const action = (what: string) => `${base()}/${encodeURIComponent(id)}/${what}`;
      return page(
        root(),
        200,
        `Pay order ${order.number}`,
        `<div class="card">${details(order)}
<div class="actions">
<form method="post" action="${escapeHtml(action('pay'))}"><button type="submit">Pay ${escapeHtml(formatMoney(order.total, order.currency))}</button></form>
<form method="post" action="${escapeHtml(action('cancel'))}"><button type="submit" class="secondary">Cancel</button></form>
</div>
</div>`,
        order.number,
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
        if (!PAYMENT_ID.test(id)) return noSuchPayment(root());
        if (crossSite(c)) {
          return page(
            root(),
            403,
            'Not from the payment page',
            `<div class="card"><p>A payment is made or cancelled with the buttons of its own page only: open the payment page again, or start from the shop.</p></div>
<p class="actions"><a class="button" href="${escapeHtml(`${base()}/${encodeURIComponent(id)}`)}">Open the payment page</a></p>`,
          );
        }
        const order = await store.transaction((tx) =>
          settlePayment(tx, { now: clock.now(), paymentId: id, outcome, publicUrl: deps.publicUrl, mayEmail: mayEmail(deps) }),
        );
        if (!order || !order.return_url) return noSuchPayment(root());
        if (outcome === 'paid' && order.status === 'cancelled') {
          return page(root(), 409, `Payment of order ${order.number} not made`, notCharged(order), order.number);
        }
        return new Response(null, { status: 303, headers: { Location: order.return_url } });
      },
    );
  }
  return [app];
}
