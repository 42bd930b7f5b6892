/**
 * The calendar and the checkout through the built v2 loader on a customer's page, against the real
 * service: a visitor books by keyboard alone with a voucher, pays on the fake provider's page (and
 * cancels there), clicks twice, loses a class to another visitor, loses the connection, reloads;
 * the registration widget's paid classes go to the same cart; all seven widgets share one Lit.
 */
import type { Locator, Page, Route } from '@playwright/test';
import type { CalendarResponse, QuoteResponse } from '../../contract/api/index.ts';
import { axeViolations, expect, nextEvent, SERVICE, serviceJson, sidewaysScroll, SITE, test } from './support.ts';

interface Outbox {
  emails: { to: string; subject: string; text: string }[];
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${SERVICE}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: SITE, ...headers },
    body: JSON.stringify(body),
  });
const seatsLeft = async (classId: string) =>
  (
    (await (
      await post('/widget-api/v1/checkout/quote?key=wk_demo_checkout', { items: [{ class_id: classId, seats: 1 }] })
    ).json()) as QuoteResponse
  ).items[0]!.seats_left;
const emailsTo = async (email: string) => (await serviceJson<Outbox>(`/dev/outbox?to=${encodeURIComponent(email)}`)).emails;
const uniqueEmail = (what: string) => `${what}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.org`;

/** The service's first month that has an open paid class, and that class. */
const firstBookable = async () => {
  let month = await serviceJson<CalendarResponse>('/widget-api/v1/calendar?key=wk_demo_calendar', { headers: { Origin: SITE } });
  for (let i = 0; i < 4; i++) {
    const cls = month.classes.find((c) => c.status === 'open' && c.price.amount > 0 && c.seats_left > 2);
    if (cls) return { month, cls };
    month = await serviceJson<CalendarResponse>(`/widget-api/v1/calendar?key=wk_demo_calendar&month=${month.next_month}`, {
      headers: { Origin: SITE },
    });
  }
  throw new Error('no bookable class in the seed');
};

/** Presses Tab until `target` has the focus (keyboard only), at most `max` times. */
const tabTo = async (page: Page, target: Locator, max = 60) => {
  for (let i = 0; i < max && !(await target.evaluate((el) => el.matches(':focus'))); i++) await page.keyboard.press('Tab');
  await expect(target).toBeFocused();
};

/** Puts classes into the page's cart before the page loads (as the calendar on another page did). */
const withCart = (page: Page, lines: { class_id: string; seats: number }[]) =>
  page.addInitScript(
    ({ key, lines }) => {
      // Once per tab: later loads find what the widgets made of it.
      if (sessionStorage.getItem('test:cart-seeded')) return;
      sessionStorage.setItem('test:cart-seeded', '1');
      sessionStorage.setItem(key, JSON.stringify({ lines }));
    },
    { key: `service-widgets:cart:${SERVICE}/:c_acme`, lines },
  );

/** Fills the details as quickly as a test may (the keyboard journey types them). */
const fillDetails = async (checkout: Locator, email: string, attendees: Record<string, string[]>) => {
  for (const [classId, names] of Object.entries(attendees)) {
    for (const [seat, name] of names.entries()) {
      const [first, last] = name.split(' ');
      await checkout.locator(`[name="attendee.${classId}.${seat}.first_name"]`).fill(first!);
      await checkout.locator(`[name="attendee.${classId}.${seat}.last_name"]`).fill(last!);
    }
  }
  await checkout.locator('[name="buyer.first_name"]').fill('Ada');
  await checkout.locator('[name="buyer.last_name"]').fill('Lovelace');
  await checkout.locator('[name="buyer.email"]').fill(email);
  await checkout.locator('[name="buyer.address.line1"]').fill('Torstraße 1');
  await checkout.locator('[name="buyer.address.postal_code"]').fill('10119');
  await checkout.locator('[name="buyer.address.city"]').fill('Berlin');
  await checkout.locator('[name="buyer.address.country"]').selectOption('DE');
  await checkout.getByRole('checkbox', { name: /I agree/ }).check();
};

test.beforeEach(async () => {
  // A fresh seed, clock, outbox and rate limits: these tests book seats and count orders.
  const reset = await post('/dev/reset', {});
  expect(reset.ok).toBe(true);
});

test('a visitor books a class in the calendar and orders it with a voucher, by keyboard alone', async ({ watched: page }) => {
  const { cls } = await firstBookable();
  await page.goto(`${SITE}/shop.html`);
  const calendar = page.locator('service-calendar');
  const checkout = page.locator('service-checkout');
  await expect(page.locator('div[data-service-widget=calendar]')).toHaveAttribute('data-service-state', 'ready');
  await expect(page.locator('div[data-service-widget=checkout]')).toHaveAttribute('data-service-state', 'ready');
  await expect(checkout.getByText('Your cart is empty.')).toBeVisible();

  // Into the grid (one Tab stop: the chosen day), then by arrow keys to the class's day, across months.
  const chosen = calendar.locator('td[tabindex="0"]');
  await tabTo(page, chosen);
  const from = (await chosen.getAttribute('data-day'))!;
  const days = Math.round((Date.parse(cls.local_date) - Date.parse(from)) / 864e5);
  for (let i = 0; i < Math.abs(days); i++) await page.keyboard.press(days > 0 ? 'ArrowRight' : 'ArrowLeft');
  await expect(calendar.locator(`td[data-day="${cls.local_date}"]`)).toBeFocused();
  await expect(calendar.locator(`td[data-day="${cls.local_date}"]`)).toHaveAttribute('aria-selected', 'true');

  // The day's classes follow the grid: Tab to the class's Book button.
  const book = calendar.locator(`button[aria-describedby="c-${cls.id}"]`);
  await tabTo(page, book, 10);
  const selected = await nextEvent(page, 'service-class-selected');
  await page.keyboard.press('Enter');
  expect(await selected()).toEqual({ class: cls.id, course: cls.course_id, starts_at: cls.starts_at });
  await expect(calendar.locator(`#in-${cls.id}`)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(calendar.getByRole('button', { name: 'Go to checkout' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(checkout.getByRole('heading', { name: 'Your cart' })).toBeFocused();
  await expect(checkout.getByRole('heading', { name: cls.course_title })).toBeVisible();

  // Two seats, a voucher, then on.
  await tabTo(page, checkout.getByLabel('Seats'), 5);
  await page.keyboard.press('ArrowDown'); // a select takes arrow keys: 2 seats
  await expect(checkout.locator('.total')).toContainText(
    ((2 * cls.price.amount) / 100).toLocaleString('en', { minimumFractionDigits: 2 }),
  );
  await tabTo(page, checkout.getByRole('button', { name: 'Have a voucher code?' }), 5);
  await page.keyboard.press('Enter');
  await expect(checkout.getByLabel('Voucher code')).toBeFocused();
  await page.keyboard.type('welcome10');
  await page.keyboard.press('Enter');
  await expect(checkout.getByText('Discount (WELCOME10)', { exact: true })).toBeVisible();
  const total = Math.round(2 * cls.price.amount * 0.9);
  const totalText = `€${(total / 100).toLocaleString('en', { minimumFractionDigits: 2 })}`;
  await expect(checkout.locator('.total')).toContainText(totalText);
  await tabTo(page, checkout.getByRole('button', { name: 'Continue' }), 10);
  await page.keyboard.press('Enter');
  await expect(checkout.getByRole('heading', { name: 'Your details' })).toBeFocused();

  // The form, typed field by field.
  const email = uniqueEmail('keyboard');
  const type = async (name: string, text: string) => {
    await tabTo(page, checkout.locator(`[name="${name}"]`), 12);
    await page.keyboard.type(text);
  };
  await type(`attendee.${cls.id}.0.first_name`, 'Grace');
  await type(`attendee.${cls.id}.0.last_name`, 'Hopper');
  await type(`attendee.${cls.id}.1.first_name`, 'Alan');
  await type(`attendee.${cls.id}.1.last_name`, 'Turing');
  await type('buyer.first_name', 'Ada');
  await type('buyer.last_name', 'Lovelace');
  await type('buyer.email', email);
  await type('buyer.address.line1', 'Torstraße 1');
  await type('buyer.address.postal_code', '10119');
  await type('buyer.address.city', 'Berlin');
  await tabTo(page, checkout.locator('[name="buyer.address.country"]'), 3);
  await page.keyboard.type('Germany');
  await expect(checkout.locator('[name="buyer.address.country"]')).toHaveValue('DE');
  await tabTo(page, checkout.getByRole('radio', { name: 'Invoice' }), 3);
  await expect(checkout.getByRole('radio', { name: 'Invoice' })).toBeChecked();
  await tabTo(page, checkout.getByRole('checkbox', { name: /I agree/ }), 3);
  await page.keyboard.press('Space');
  const place = checkout.getByRole('button', { name: `Place order · ${totalText}` });
  await tabTo(page, place, 3);
  const completed = await nextEvent(page, 'service-checkout-completed');
  await page.keyboard.press('Enter');
  const detail = (await completed()) as { id: string; number: string; items: unknown[]; total: { amount: number } };
  await expect(checkout.getByRole('heading', { name: `Thank you! Your order ${detail.number} is placed.` })).toBeFocused();
  expect(detail.items).toEqual([{ class: cls.id, course: cls.course_id, seats: 2 }]);
  expect(detail.total).toEqual({ amount: total, currency: 'EUR' });
  // What was booked, for whom, what it cost with its discount, and how it is paid.
  await expect(checkout.locator('.done .line')).toContainText('2 seats: Grace Hopper, Alan Turing');
  await expect(checkout.getByText('Discount (WELCOME10)')).toBeVisible();
  await expect(checkout.getByText(`You will receive an invoice for ${totalText} by email.`)).toBeVisible();

  // The service holds it: the seats are taken, the buyer is emailed, the calendar file is the class's.
  expect(await seatsLeft(cls.id)).toBe(cls.seats_left - 2);
  const [mail] = await emailsTo(email);
  expect(mail!.subject).toBe(`Order ${detail.number} confirmed: Acme Academy`);
  const ics = await fetch((await checkout.getByRole('link', { name: 'Add to calendar' }).getAttribute('href')) as string);
  expect(ics.headers.get('content-type')).toContain('text/calendar');
  const file = await ics.text();
  expect(file).toContain(`SUMMARY:${cls.course_title}`);
  expect(file).toContain(`DTSTART;TZID=${cls.timezone}:`);
  // The cart is empty again, for this page and the next.
  await expect(calendar.getByText('In your cart')).toHaveCount(0);
});

for (const width of [1280, 375]) {
  test(`card at ${width} px: the provider’s page, cancelled there (the cart kept), then paid: back at the top of the page, the whole confirmation in view`, async ({
    watched: page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const { cls } = await firstBookable();
    await withCart(page, [{ class_id: cls.id, seats: 1 }]);
    // Each page's layout shifts, from its first paint.
    await page.addInitScript(() => {
      const shifts: number[] = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) shifts.push((entry as PerformanceEntry & { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
      Object.assign(window, { shifts });
    });
    await page.goto(`${SITE}/shop.html`);
    const checkout = page.locator('service-checkout');
    await checkout.getByRole('button', { name: 'Have a voucher code?' }).click();
    await checkout.getByLabel('Voucher code').fill('welcome10');
    await checkout.getByRole('button', { name: 'Apply' }).click();
    await expect(checkout.locator('.totals')).toContainText('Discount');
    await checkout.getByRole('button', { name: 'Continue' }).click();
    const email = uniqueEmail('card');
    await fillDetails(checkout, email, { [cls.id]: ['Grace Hopper'] });
    await checkout.getByRole('radio', { name: /Card/ }).check();
    await checkout.getByRole('button', { name: /^Continue to payment/ }).click();

    // The provider's page, on the service's public URL: cancel.
    await expect(page).toHaveURL(/\/dev\/pay\/pay_[\w-]+$/);
    await expect(page.getByRole('button', { name: /Pay/ })).toBeVisible();
    expect(await seatsLeft(cls.id)).toBe(cls.seats_left - 1); // held while the visitor pays
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(`${SITE}/shop.html`);
    await expect(checkout.getByText('The payment was cancelled and nothing was charged.')).toBeVisible();
    await expect(checkout.getByRole('heading', { name: cls.course_title })).toBeVisible();
    expect(await seatsLeft(cls.id)).toBe(cls.seats_left);

    // Again, and pay.
    await checkout.getByRole('button', { name: 'Continue' }).click();
    await expect(checkout.locator('[name="buyer.email"]')).toHaveValue(email); // nothing typed lost
    await checkout.getByRole('radio', { name: /Card/ }).check();
    await checkout.getByRole('checkbox', { name: /I agree/ }).check();
    await checkout.getByRole('button', { name: /^Continue to payment/ }).click();
    await expect(page).toHaveURL(/\/dev\/pay\/pay_[\w-]+$/);
    await page.getByRole('button', { name: /Pay/ }).click();
    await expect(page).toHaveURL(`${SITE}/shop.html`);

    // The page comes back at its top; the thank-you is brought into view with the focus on it.
    const heading = checkout.getByRole('heading', { name: /^Thank you! Your order A-\d+ is placed\.$/ });
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport();
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
    // Its number whole on one line, at either width.
    await expect(heading.locator('.nowrap')).toHaveText(/^A-\d+$/);
    expect(await heading.locator('.nowrap').evaluate((el) => el.getClientRects().length)).toBe(1);
    // Nothing below it was in view: it shows whole, and every part of it is there to see.
    const paid = Math.round(cls.price.amount * 0.9);
    const paidText = `€${(paid / 100).toLocaleString('en', { minimumFractionDigits: 2 })}`;
    await expect(checkout.getByText(`Paid by card: ${paidText}.`)).toBeVisible();
    await expect(checkout.getByText(`We have sent the confirmation to ${email}.`)).toBeVisible();
    await expect(checkout.locator('.done .line')).toContainText('1 seat: Grace Hopper');
    await expect(checkout.getByText('Discount (WELCOME10)')).toBeVisible();
    await expect(checkout.locator('.done .total')).toContainText(paidText);
    await expect(checkout.getByText(/^To change or cancel the order, contact Acme Academy and quote A-\d+\.$/)).toBeVisible();
    await expect(checkout.getByRole('link', { name: 'Add to calendar' })).toBeVisible();
    await expect(checkout.getByRole('button', { name: 'Show the whole order' })).toBeHidden();
    // Shown whole, it moved nothing the visitor saw (nothing below it was in view).
    const shift = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0));
    expect(shift).toBeLessThan(0.01);
    // No blank space below it: the confirmation ends where the widget does.
    const [widget, done] = await Promise.all([checkout.boundingBox(), checkout.locator('.done').boundingBox()]);
    expect(Math.abs(widget!.y + widget!.height - (done!.y + done!.height))).toBeLessThan(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await seatsLeft(cls.id)).toBe(cls.seats_left - 1);
    expect((await emailsTo(email)).length).toBe(1);
    await page.reload();
    await expect(checkout.getByText('Your cart is empty.')).toBeVisible();
  });
}

test('back from the provider’s page without paying: by keyboard, the payment is cancelled and the cart can be ordered again', async ({
  watched: page,
}) => {
  const { cls } = await firstBookable();
  await withCart(page, [{ class_id: cls.id, seats: 1 }]);
  await page.goto(`${SITE}/shop.html`);
  const checkout = page.locator('service-checkout');
  await checkout.getByRole('button', { name: 'Continue' }).click();
  await fillDetails(checkout, uniqueEmail('back'), { [cls.id]: ['Grace Hopper'] });
  await checkout.getByRole('radio', { name: /Card/ }).check();
  await checkout.getByRole('button', { name: /^Continue to payment/ }).click();
  await expect(page).toHaveURL(/\/dev\/pay\/pay_[\w-]+$/);
  expect(await seatsLeft(cls.id)).toBe(cls.seats_left - 1);

  // The browser's Back button, not the provider's Cancel: the order still waits for its payment.
  await page.goBack();
  await expect(checkout.getByText('Your payment is not complete yet.')).toBeVisible();
  await expect(checkout.getByRole('link', { name: 'Continue to payment' })).toBeVisible();
  await expect(checkout.getByRole('button', { name: 'Continue', exact: true })).toBeDisabled();
  // From the top of the page, through the calendar's controls above the checkout.
  await tabTo(page, checkout.getByRole('button', { name: 'Cancel this payment and change the order' }), 20);
  await page.keyboard.press('Enter');
  await expect(checkout.getByText('The payment was cancelled and nothing was charged.')).toBeVisible();
  expect(await seatsLeft(cls.id)).toBe(cls.seats_left);
  const next = checkout.getByRole('button', { name: 'Continue', exact: true });
  await expect(next).toBeEnabled();
  await tabTo(page, next, 10);
  await page.keyboard.press('Enter');
  await expect(checkout.getByRole('heading', { name: 'Your details' })).toBeFocused();
});

test('a double click on “Place order” makes one order', async ({ watched: page }) => {
  const { cls } = await firstBookable();
  await withCart(page, [{ class_id: cls.id, seats: 1 }]);
  await page.goto(`${SITE}/shop.html`);
  const checkout = page.locator('service-checkout');
  const orders: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && r.url().includes('/widget-api/v1/orders') && orders.push(r.url()));
  await checkout.getByRole('button', { name: 'Continue' }).click();
  const email = uniqueEmail('double');
  await fillDetails(checkout, email, { [cls.id]: ['Grace Hopper'] });
  await checkout.getByRole('button', { name: /^Place order/ }).dblclick();
  await expect(checkout.getByRole('heading', { name: /^Thank you!/ })).toBeVisible();
  expect(orders).toHaveLength(1);
  expect(await seatsLeft(cls.id)).toBe(cls.seats_left - 1);
  expect(await emailsTo(email)).toHaveLength(1);
});

test('a class that fills up meanwhile: said, nothing booked or charged, and the rest can go on', async ({ watched: page }) => {
  const { cls } = await firstBookable();
  await withCart(page, [
    { class_id: 'cls_lead_2', seats: 2 },
    { class_id: cls.id, seats: 1 },
  ]);
  await page.goto(`${SITE}/shop.html`);
  const checkout = page.locator('service-checkout');
  await checkout.getByRole('button', { name: 'Continue' }).click();
  const email = uniqueEmail('filled');
  await fillDetails(checkout, email, { cls_lead_2: ['Grace Hopper', 'Alan Turing'], [cls.id]: ['Edsger Dijkstra'] });

  // Another visitor takes all but one seat of the first class meanwhile.
  const left = await seatsLeft('cls_lead_2');
  const other = await post(
    '/widget-api/v1/orders?key=wk_demo_checkout',
    {
      items: [
        {
          class_id: 'cls_lead_2',
          seats: left - 1,
          attendees: Array.from({ length: left - 1 }, () => ({ first_name: 'Other', last_name: 'Visitor' })),
        },
      ],
      buyer: {
        first_name: 'Other',
        last_name: 'Visitor',
        email: 'other@example.org',
        address: { line1: 'Am Markt 1', postal_code: '20095', city: 'Hamburg', country: 'DE' },
      },
      payment_method: 'invoice',
      consent: true,
    },
    { 'Idempotency-Key': crypto.randomUUID() },
  );
  expect(other.status).toBe(201);

  await checkout.getByRole('button', { name: /^Place order/ }).click();
  await expect(checkout.getByText(/Some classes filled up while you were ordering, and nothing was booked/)).toBeVisible();
  await expect(checkout.getByRole('button', { name: 'Continue' })).toBeDisabled();
  expect(await seatsLeft('cls_lead_2')).toBe(1);
  expect(await seatsLeft(cls.id)).toBe(cls.seats_left);
  expect(await emailsTo(email)).toHaveLength(0);

  // The visitor removes that class and orders the rest, with what they typed.
  await checkout.getByRole('button', { name: /^Remove Leading remote teams/ }).click();
  await checkout.getByRole('button', { name: 'Continue' }).click();
  await expect(checkout.locator('[name="buyer.email"]')).toHaveValue(email);
  await checkout.getByRole('checkbox', { name: /I agree/ }).check();
  // The attendee typed for the class that stays is still there, for that class.
  await expect(checkout.locator(`[name="attendee.${cls.id}.0.first_name"]`)).toHaveValue('Edsger');
  await checkout.getByRole('button', { name: /^Place order/ }).click();
  await expect(checkout.getByRole('heading', { name: /^Thank you!/ })).toBeVisible();
  expect(await seatsLeft(cls.id)).toBe(cls.seats_left - 1);
});

test('the connection drops when the order is sent: said, nothing lost, and the retry makes one order', async ({
  watched: page,
}) => {
  const { cls } = await firstBookable();
  await withCart(page, [{ class_id: cls.id, seats: 1 }]);
  await page.goto(`${SITE}/shop.html`);
  const checkout = page.locator('service-checkout');
  let down = true;
  await page.route(`${SERVICE}/widget-api/v1/orders?**`, (route) =>
    down && route.request().method() === 'POST' ? route.abort('connectionrefused') : route.continue(),
  );
  await checkout.getByRole('button', { name: 'Continue' }).click();
  const email = uniqueEmail('offline');
  await fillDetails(checkout, email, { [cls.id]: ['Grace Hopper'] });
  await checkout.getByRole('button', { name: /^Place order/ }).click();
  await expect(checkout.getByText(/could not be reached.*Your entries are kept\./)).toBeVisible();
  await expect(checkout.locator('[name="buyer.email"]')).toHaveValue(email);
  down = false;
  await checkout.getByRole('button', { name: /^Place order/ }).click();
  await expect(checkout.getByRole('heading', { name: /^Thank you!/ })).toBeVisible();
  expect(await emailsTo(email)).toHaveLength(1);
  expect(await seatsLeft(cls.id)).toBe(cls.seats_left - 1);
});

test('the code of the steps after the cart cannot come: said above the cart, and Continue tries again', async ({
  watched: page,
}) => {
  const { cls } = await firstBookable();
  await withCart(page, [{ class_id: cls.id, seats: 1 }]);
  // The steps' chunk is held (the one request the idle prefetch and Continue share), then dropped.
  const held: Route[] = [];
  await page.route(`${SERVICE}/widgets/chunks/checkout-steps-*`, (route) => void held.push(route));
  await page.goto(`${SITE}/shop.html`);
  const checkout = page.locator('service-checkout');
  await expect.poll(() => held.length).toBe(1);
  await checkout.getByRole('button', { name: 'Continue' }).click();
  await held[0]!.abort('connectionrefused');
  await expect(checkout.getByRole('status').first()).toContainText('Something went wrong. Try again.');
  await page.unroute(`${SERVICE}/widgets/chunks/checkout-steps-*`);
  await checkout.getByRole('button', { name: 'Continue' }).click();
  await expect(checkout.getByRole('heading', { name: 'Your details' })).toBeFocused();
});

test('the cart survives a reload, and the registration widget’s paid classes go into it', async ({ watched: page }) => {
  await page.goto(`${SITE}/shop-registration.html`);
  const registration = page.locator('service-registration');
  const checkout = page.locator('service-checkout');
  await expect(page.locator('div[data-service-widget=checkout]')).toHaveAttribute('data-service-state', 'ready');
  // Six programmes are more than the first view has room for: "Show all" shows them.
  const showAll = registration.getByRole('button', { name: 'Show all 6 programmes' });
  await showAll.click();
  await registration
    .locator('.course', { hasText: 'Web accessibility in practice' })
    .getByRole('button', { name: 'Add to cart' })
    .first()
    .click();
  await expect(registration.getByText('In your cart')).toBeVisible();
  await expect(checkout.getByRole('heading', { name: 'Web accessibility in practice' })).toBeVisible();
  // Reloaded, the registration is ready and has looked for a checkout (none yet: it fetched its form)
  // before the checkout's answer comes; the checkout that comes then still finds the class in its cart.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.endsWith('/widget-api/v1/widget') && url.searchParams.get('type') === 'checkout',
    async (route) => {
      await held;
      await route.continue();
    },
  );
  const lookedForCheckout = page.waitForRequest(/\/chunks\/registration-form-/);
  await page.reload();
  await lookedForCheckout;
  release();
  await expect(checkout.getByRole('heading', { name: 'Web accessibility in practice' })).toBeVisible();
  await showAll.click();
  await expect(registration.getByText('In your cart')).toBeVisible();
  // Free classes keep the registration form.
  await registration.locator('.course', { hasText: 'Open day' }).getByRole('button', { name: 'Register' }).click();
  await expect(registration.getByRole('heading', { name: 'Register for Open day: meet the trainers' })).toBeVisible();
});

test('a calendar on a page without a checkout links a class booked to the site’s checkout page (checkout-url), which orders it', async ({
  watched: page,
}) => {
  const { cls } = await firstBookable();
  await page.goto(`${SITE}/dates.html`);
  const calendar = page.locator('service-calendar');
  await expect(page.locator('div[data-service-widget=calendar]')).toHaveAttribute('data-service-state', 'ready');
  await calendar.getByRole('button', { name: 'List' }).click();
  // The class's month (the service's own or a later one: firstBookable walks forward from it).
  for (let i = 0; i < 4 && !(await calendar.locator(`#c-${cls.id}`).count()); i++) {
    const month = await calendar.locator('#month').textContent();
    await calendar.getByRole('button', { name: 'Next month' }).click();
    await expect(calendar.locator('#month')).not.toHaveText(month!);
  }
  await calendar.locator(`button[aria-describedby="c-${cls.id}"]`).click();
  await expect(calendar.locator(`#in-${cls.id}`)).toBeFocused();
  // By keyboard, as a visitor goes on from what the calendar says.
  await page.keyboard.press('Tab');
  const link = calendar.getByRole('link', { name: 'Go to checkout' });
  await expect(link).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  // Opened in a new tab (a middle click), the page has no tab's cart: the classes come with the link.
  const href = (await link.getAttribute('href'))!;
  const tab = await page.context().newPage();
  await tab.goto(href);
  await expect(tab.locator('service-checkout').getByRole('heading', { name: cls.course_title })).toBeVisible();
  await tab.close();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${SITE}/checkout.html?service-class=${cls.id}`);
  const checkout = page.locator('service-checkout');
  await expect(checkout.getByRole('heading', { name: cls.course_title })).toBeVisible();
  await expect(checkout.getByLabel('Seats')).toHaveValue('1');
});

test('at 375 px the calendar shows a list; the month grid is a switch away, and its months follow the keyboard', async ({
  watched: page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${SITE}/shop.html`);
  const calendar = page.locator('service-calendar');
  await expect(page.locator('div[data-service-widget=calendar]')).toHaveAttribute('data-service-state', 'ready');
  await expect(calendar.getByRole('button', { name: 'List', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(calendar.getByRole('grid')).toHaveCount(0);
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll).toBeLessThanOrEqual(375);
  await calendar.getByRole('button', { name: 'Month', exact: true }).click();
  const grid = calendar.getByRole('grid');
  await expect(grid).toBeVisible();
  const month = await calendar.locator('#month').textContent();
  await calendar.locator('td[tabindex="0"]').focus();
  await page.keyboard.press('PageDown');
  await expect(calendar.locator('#month')).not.toHaveText(month!);
  await expect(calendar.locator('td[tabindex="0"]')).toBeFocused();
});

test('every widget on one page with both loaders: each ready, Lit loaded once', async ({ watched: page }) => {
  await page.goto(`${SITE}/all.html`);
  const divs = page.locator('div[data-service-widget]');
  await expect(divs).toHaveCount(7);
  for (let i = 0; i < 7; i++) await expect(divs.nth(i)).toHaveAttribute('data-service-state', 'ready');
  const facts = await page.evaluate(() => ({
    versions: window.ServiceWidgets!.versions.sort(),
    shared: performance.getEntriesByType('resource').filter((e) => e.name.includes('/chunks/shared-')).length,
  }));
  expect(facts).toEqual({ versions: ['v1', 'v2'], shared: 1 });
});

for (const width of [1280, 375]) {
  test(`a full class with an open waitlist: the visitor joins it in the calendar, where it is shown (${width} px)`, async ({
    watched: page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${SITE}/layout-calendar-head.html`);
    const calendar = page.locator('service-calendar');
    await expect(page.locator('div[data-service-widget]')).toHaveAttribute('data-service-state', 'ready');
    await calendar.getByRole('button', { name: 'List', exact: true }).click();
    // The seed's full class with a waitlist is 3 days after it: this month or the next.
    const join = calendar.getByRole('button', { name: 'Join waitlist' }).first();
    for (let i = 0; i < 2 && !(await join.isVisible()); i++) {
      const month = await calendar.locator('#month').textContent();
      const show = calendar.getByRole('button', { name: /^Show \w+ \d{4}$/ });
      await ((await show.isVisible()) ? show : calendar.getByRole('button', { name: 'Next month' })).click();
      await expect(calendar.locator('#month')).not.toHaveText(month!);
    }
    await join.click();
    const form = calendar.getByRole('form', { name: /^Join waitlist: / });
    await expect(form.getByLabel('First name')).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
    const email = `calendar-waitlist-${width}-${Date.now()}@example.org`;
    await page.keyboard.type('Grace');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Hopper');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: 'Join waitlist' }).click();
    const joined = calendar.getByText(`You are on the waitlist. We have sent a confirmation to ${email}.`);
    await expect(joined).toBeFocused();
    await expect(joined).toBeInViewport();
    const { emails } = await serviceJson<{ emails: { subject: string }[] }>(`/dev/outbox?to=${encodeURIComponent(email)}`);
    expect(emails.map((m) => m.subject)).toEqual([expect.stringMatching(/^On the waitlist/)]);
    expect(await axeViolations(page)).toEqual([]);
  });
}

test('the fake provider’s pages look like the demo’s, usable and accessible at 1280 and 375 px; “No such payment” says how to get back', async ({
  watched: page,
}) => {
  const { cls } = await firstBookable();
  const placed = await post(
    '/widget-api/v1/orders?key=wk_demo_checkout',
    {
      items: [{ class_id: cls.id, seats: 1, attendees: [{ first_name: 'Grace', last_name: 'Hopper' }] }],
      buyer: {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: uniqueEmail('provider'),
        address: { line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' },
      },
      payment_method: 'card',
      return_url: `${SITE}/shop.html`,
      consent: true,
    },
    { 'Idempotency-Key': crypto.randomUUID() },
  );
  expect(placed.status).toBe(201);
  const { order } = (await placed.json()) as { order: { number: string; payment: { redirect_url: string } } };
  const BRAND = 'rgb(29, 78, 216)';
  const looksLikeTheDemo = async (button: Locator, background = BRAND) => {
    // The demo's stylesheet came (under the service's strict CSP): its font, its round buttons.
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('system-ui');
    expect(await button.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(background);
    expect(await button.evaluate((b) => getComputedStyle(b).borderRadius)).toBe('999px');
    await expect(button).toBeInViewport();
    expect(await sidewaysScroll(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  };
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(order.payment.redirect_url);
    await expect(page.getByRole('heading', { level: 1, name: `Pay order ${order.number}` })).toBeVisible();
    await looksLikeTheDemo(page.getByRole('button', { name: /^Pay / }));
    await expect(page.getByRole('button', { name: 'Cancel' })).toBeInViewport();

    await page.goto(`${SERVICE}/dev/pay/pay_AAAAAAAAAAAAAAAA`);
    await expect(page.getByRole('heading', { level: 1, name: 'No such payment' })).toBeVisible();
    await expect(page.getByText('Go back to the shop with your browser’s Back button, or open its page again')).toBeVisible();
    await looksLikeTheDemo(page.getByRole('link', { name: 'Open the demo’s checkout' }), 'rgb(255, 255, 255)');
  }
  // Its way back leads to the demo's checkout.
  await page.getByRole('link', { name: 'Open the demo’s checkout' }).click();
  await expect(page).toHaveURL(`${SERVICE}/#checkout`);
  await expect(page.locator('div[data-service-widget=checkout]')).toHaveAttribute('data-service-state', 'ready');

  // Paid, the page says so and leads back to the shop.
  await page.goto(order.payment.redirect_url);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(`${SITE}/shop.html`);
  await page.goto(order.payment.redirect_url);
  const paid = page.getByRole('heading', { level: 1, name: `Order ${order.number} is paid` });
  await expect(paid).toBeVisible();
  // At 375 px the heading wraps, but not inside the order number.
  const number = paid.locator('.order-number');
  expect(await number.evaluate((el) => el.getClientRects().length)).toBe(1);
  await looksLikeTheDemo(page.getByRole('link', { name: 'Back to the shop' }));
  await page.getByRole('link', { name: 'Back to the shop' }).click();
  await expect(page).toHaveURL(`${SITE}/shop.html`);
});
