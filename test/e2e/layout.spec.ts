/**
 * No layout shift (docs/architecture.md): each widget's first view fits the space reserved for it, at
 * a desktop and a phone width, in both placements docs/embedding.md gives: the loader in <head>, and an
 * async loader with the space reserved by the site's stylesheet. Measured with the browser's own
 * layout-shift entries, from navigation until the widget has shown and two frames have been drawn.
 */
import { RESERVED_HEIGHT } from '../../contract/index.ts';
import type { Page } from '@playwright/test';
import { expect, SERVICE, signedIn, SITE, test } from './support.ts';

const TYPES = Object.keys(RESERVED_HEIGHT) as (keyof typeof RESERVED_HEIGHT)[];
/** A desktop, a common phone, and WCAG's reflow width (a small phone). */
const WIDTHS = [1280, 375, 320];

/** Records the page's layout shifts from its first paint, on every page the test opens next. */
const watchShifts = (page: Page) =>
  page.addInitScript(() => {
    const shifts: number[] = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as PerformanceEntry & { value: number }).value);
    }).observe({ type: 'layout-shift', buffered: true });
    Object.assign(window, { shifts });
  });
/** Two frames after now: the layout shift so far, and the widget's div's height. */
const shiftAndHeight = (page: Page) =>
  page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const el = document.querySelector('div[data-service-widget]')!;
    return {
      cls: (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0),
      height: el.getBoundingClientRect().height,
    };
  });

const PLACEMENTS = {
  head: 'in <head>',
  reserved: 'async, space reserved by a class',
  sans: 'in <head>, on a sans-serif page of 16 px margins',
};
/** Each widget's heading in German. */
const GERMAN: Record<(typeof TYPES)[number], string> = {
  registration: 'Programme von Acme Academy',
  profile: 'Ihr Konto bei Acme Academy',
  contact: 'Kontakt zu Acme Academy',
  calendar: 'Termine von Acme Academy',
  checkout: 'Ihr Warenkorb',
  video: 'Videos von Acme Academy',
  map: 'Hier unterrichtet Acme Academy',
};
/** In German (`layout-…-de.html`, longer words: a date, a seat's state, a consent of more lines) on the narrow widths. */
const RUNS = [
  ...(['head', 'reserved', 'sans'] as const).flatMap((placement) => WIDTHS.map((width) => ({ placement, width, lang: 'en' }))),
  ...(['head', 'sans'] as const).flatMap((placement) => [375, 320].map((width) => ({ placement, width, lang: 'de' }))),
];
for (const { placement, width, lang } of RUNS) {
  for (const type of TYPES) {
    // (A sans-serif page of 16 px margins at 320 px leaves 288 px for the widget.)
    test(`${type} at ${width} px, loader ${PLACEMENTS[placement]}${lang === 'de' ? ', in German' : ''}: layout shift under 0.01`, async ({
      watched: page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await watchShifts(page);
      await page.goto(`${SITE}/layout-${type}-${placement}${lang === 'de' ? '-de' : ''}.html`);
      const div = page.locator('div[data-service-widget]');
      await expect(div).toHaveAttribute('data-service-state', 'ready');
      if (lang === 'de') await expect(page.locator(`service-${type}`).getByRole('heading', { name: GERMAN[type] })).toBeVisible();
      const { cls, height } = await shiftAndHeight(page);
      console.log(
        `${type} ${width}px ${placement} ${lang}: CLS ${cls.toFixed(4)}, height ${Math.round(height)} (reserved ${RESERVED_HEIGHT[type]})`,
      );
      expect(cls).toBeLessThan(0.01);
      expect(Math.round(height)).toBe(RESERVED_HEIGHT[type]);
    });
  }
}

test('a returning participant’s signed-in view fits the same space, and opens in full on the visitor’s asking', async ({
  watched: page,
}) => {
  // Ada signed in earlier in this tab: her token is in the page's session storage.
  await signedIn(page, 'ada@example.org');
  await watchShifts(page);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${SITE}/layout-profile-head.html`);
    const widget = page.locator('service-profile');
    await expect(widget.getByRole('heading', { name: 'Hello Ada' })).toBeVisible();
    const showAll = widget.getByRole('button', { name: 'Show your details and classes' });
    await expect(showAll).toBeVisible();
    const { cls, height } = await shiftAndHeight(page);
    console.log(`profile signed in, ${width}px: CLS ${cls.toFixed(4)}, height ${Math.round(height)}`);
    expect(cls).toBeLessThan(0.01);
    expect(Math.round(height)).toBe(RESERVED_HEIGHT.profile);
    await showAll.click();
    await expect(widget.getByRole('heading', { name: 'Past classes' })).toBeVisible();
    // The focus on the first of what it shows: the upcoming classes come before the details.
    await expect(widget.locator(':focus')).toHaveText('Upcoming classes');
  }
});

test('a returning visitor’s cart of several classes fits the checkout’s space, in English and German', async ({
  watched: page,
}) => {
  const courses = (await (await fetch(`${SERVICE}/widget-api/v1/widget?key=wk_demo_registration&type=registration`)).json())
    .courses as { classes: { id: string; status: string; price: { amount: number } }[] }[];
  const classes = courses.flatMap((c) => c.classes).filter((cl) => cl.status === 'open' && cl.price.amount > 0);
  await watchShifts(page);
  for (const lang of ['en', 'de']) {
    for (const placement of ['head', 'sans']) {
      for (const width of WIDTHS) {
        // Three classes put into the cart on an earlier page of the visit (the site's session storage).
        await page.goto(`${SITE}/site.css`);
        await page.evaluate(({ key, cart }) => sessionStorage.setItem(key, JSON.stringify(cart)), {
          key: `service-widgets:cart:${SERVICE}/:c_acme`,
          cart: { lines: classes.slice(0, 3).map((cl) => ({ class_id: cl.id, seats: 1 })) },
        });
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${SITE}/layout-checkout-${placement}${lang === 'de' ? '-de' : ''}.html`);
        const widget = page.locator('service-checkout');
        await expect(
          widget.getByRole('button', { name: lang === 'de' ? 'Alle 3 Termine zeigen' : 'Show all 3 classes' }),
        ).toBeVisible();
        await expect(widget.getByText(lang === 'de' ? 'Gesamt' : 'Total', { exact: true })).toBeVisible();
        const { cls, height } = await shiftAndHeight(page);
        console.log(
          `checkout, a cart of 3 classes, ${lang}, ${placement}, ${width}px: CLS ${cls.toFixed(4)}, height ${Math.round(height)}`,
        );
        expect(cls).toBeLessThan(0.01);
        // (At 288 px in a sans-serif font, "Show all" takes a row of its own under the voucher's link.)
        if (placement === 'head' || width > 320) expect(Math.round(height)).toBe(RESERVED_HEIGHT.checkout);
        // The first class shown, the others out under "Show all".
        await expect(widget.locator('li.line')).toHaveCount(3);
        await expect(widget.getByRole('listitem')).toHaveCount(1);
      }
    }
  }
});

test('the confirmation after the payment page, of an order of several classes, fits the checkout’s space', async ({
  watched: page,
}) => {
  const courses = (await (await fetch(`${SERVICE}/widget-api/v1/widget?key=wk_demo_registration&type=registration`)).json())
    .courses as { classes: { id: string; status: string; price: { amount: number }; seats_left: number }[] }[];
  const classes = courses
    .flatMap((c) => c.classes)
    .filter((cl) => cl.status === 'open' && cl.price.amount > 0 && cl.seats_left > 1)
    .slice(0, 4);
  expect(classes).toHaveLength(4);
  await watchShifts(page);
  for (const width of WIDTHS) {
    // An order of four classes, paid on the provider's page; the visitor comes back to the page.
    const placed = await fetch(`${SERVICE}/widget-api/v1/orders?key=wk_demo_checkout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: SITE, 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({
        items: classes.map((cl) => ({ class_id: cl.id, seats: 1, attendees: [{ first_name: 'Grace', last_name: 'Hopper' }] })),
        buyer: {
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: `layout-${width}@example.org`,
          address: { line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' },
        },
        payment_method: 'card',
        return_url: `${SITE}/layout-checkout-head.html`,
        consent: true,
      }),
    }).then((r) => r.json());
    expect(placed.order?.status, JSON.stringify(placed)).toBe('pending_payment');
    const paid = await fetch(`${placed.order.payment.redirect_url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    // The page's cart as the checkout left it for the provider's page (set on the site's origin).
    await page.goto(`${SITE}/site.css`);
    await page.evaluate(({ key, cart }) => sessionStorage.setItem(key, JSON.stringify(cart)), {
      key: `service-widgets:cart:${SERVICE}/:c_acme`,
      cart: { lines: classes.map((cl) => ({ class_id: cl.id, seats: 1 })), order: { id: placed.order.id, token: placed.token } },
    });
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${SITE}/layout-checkout-head.html`);
    const widget = page.locator('service-checkout');
    await expect(widget.getByRole('heading', { name: `Thank you! Your order ${placed.order.number} is placed.` })).toBeVisible();
    const { cls, height } = await shiftAndHeight(page);
    console.log(`checkout confirmation of 4 classes, ${width}px: CLS ${cls.toFixed(4)}, height ${Math.round(height)}`);
    expect(cls).toBeLessThan(0.01);
    expect(Math.round(height)).toBe(RESERVED_HEIGHT.checkout);
    // The page below it is in view: it is held, the rest on the visitor's asking.
    await widget.getByRole('button', { name: 'Show the whole order' }).click();
    await expect(widget.getByRole('listitem')).toHaveCount(4);
    await expect(widget.getByText(/^To change or cancel the order/)).toBeVisible();
  }
});
