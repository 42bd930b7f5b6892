import { RESERVED_HEIGHT } from '../../contract/index.ts';
import { expect, SERVICE, serviceJson, SITE, test } from './support.ts';

interface Outbox {
  emails: { to: string; subject: string; text: string }[];
}
interface WidgetAnswer {
  courses: { id: string; classes: { id: string; seats_left: number; status: string }[] }[];
}

const seatsOf = async (classId: string) => {
  const answer = await serviceJson<WidgetAnswer>(`/widget-api/v1/widget?key=wk_demo_registration&type=registration`, {
    headers: { Origin: SITE },
  });
  return answer.courses.flatMap((c) => c.classes).find((c) => c.id === classId)!.seats_left;
};

test('a visitor registers for a class by keyboard alone on a customer’s page, and the service holds it', async ({
  watched: page,
}) => {
  const seatsBefore = await seatsOf('cls_web_1');
  await page.goto(`${SITE}/registration.html`);
  const widget = page.locator('service-registration');
  await expect(page.locator('div[data-service-widget]')).toHaveAttribute('data-service-state', 'ready');
  await expect(widget.getByRole('heading', { name: 'Programmes at Acme Academy' })).toBeVisible();

  // Keyboard only: Tab from the top of the page to the class's Register button (through "Show all
  // 6 programmes" when its programme is not among those the first view has room for).
  const register = widget
    .locator('.course', { hasText: 'Web accessibility in practice' })
    .getByRole('button', { name: 'Register' })
    .first();
  const showAll = widget.getByRole('button', { name: /^Show all \d+ programmes$/ });
  // Asked at once, never waited for: a button seen and then cut by the first view's fitting (whose
  // chunk may come while the loop tabs) is no longer found by its role, and a wait for it never ended.
  const focused = (button: typeof register) => button.evaluateAll((found) => found.some((b) => b.matches(':focus')));
  for (let i = 0; i < 60 && !(await focused(register)); i++) {
    await page.keyboard.press('Tab');
    if (await focused(showAll)) await page.keyboard.press('Enter');
  }
  await expect(register).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(widget.getByRole('heading', { name: 'Register for Web accessibility in practice' })).toBeFocused();

  // From the focused heading, Tab leads into the form.
  await page.keyboard.press('Tab');
  await expect(widget.getByLabel('First name')).toBeFocused();
  await page.keyboard.type('Katherine');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Johnson');
  await page.keyboard.press('Tab');
  const email = `e2e-${Date.now()}@example.org`;
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type('+1 555 0100');
  await page.keyboard.press('Tab');
  await expect(widget.getByRole('checkbox')).toBeFocused();
  await page.keyboard.press('Space');
  const created = page.evaluate(
    () =>
      new Promise((resolve) =>
        document.addEventListener('service-registration-created', (e) => resolve((e as CustomEvent).detail), { once: true }),
      ),
  );
  await page.keyboard.press('Enter');
  await expect(widget.getByRole('heading', { name: 'You are registered' })).toBeFocused();
  const detail = (await created) as { id: string; course: string; class: string; status: string };
  expect(detail).toMatchObject({ course: 'crs_web', class: 'cls_web_1', status: 'confirmed' });

  // The record is in the service: a seat fewer, and the confirmation email went out.
  expect(await seatsOf('cls_web_1')).toBe(seatsBefore - 1);
  const outbox = await serviceJson<Outbox | Outbox['emails']>('/dev/outbox');
  const emails = Array.isArray(outbox) ? outbox : outbox.emails;
  expect(emails.some((m) => m.to === email)).toBe(true);
});

const watchLayout = (reserved: number) => {
  const record = { shifts: [] as { at: number; value: number }[], readyAt: 0, loadingAt: 0, linkUntilReady: false };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      record.shifts.push({ at: entry.startTime, value: (entry as PerformanceEntry & { value: number }).value });
  }).observe({ type: 'layout-shift', buffered: true });
  document.addEventListener('service-widget-ready', () => (record.readyAt = performance.now()));
  new MutationObserver(() => {
    const div = document.querySelector<HTMLElement>('div[data-service-widget][data-service-state=loading]');
    if (div) record.loadingAt ||= performance.now();
    if (div) record.linkUntilReady = !!div.querySelector('a') && div.getBoundingClientRect().height >= reserved;
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-service-state'] });
  Object.assign(window, { record });
};
type LayoutRecord = { shifts: { at: number; value: number }[]; readyAt: number; loadingAt: number; linkUntilReady: boolean };
const layoutOf = async (page: import('@playwright/test').Page, path: string, { loaderAfterPaint = false } = {}) => {
  await page.addInitScript(watchLayout, RESERVED_HEIGHT.registration);
  if (loaderAfterPaint) {
    // What an async loader may do, made certain: it arrives only once the page has been painted.
    let painted!: () => void;
    const paint = new Promise<void>((resolve) => (painted = resolve));
    await page.route(`${SERVICE}/widgets/v1/loader.js`, async (route) => {
      await paint;
      await route.continue();
    });
    const parsed = page.waitForEvent('domcontentloaded');
    const loaded = page.goto(`${SITE}/${path}`);
    await parsed;
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    painted();
    await loaded;
  } else await page.goto(`${SITE}/${path}`);
  await expect(page.locator('div[data-service-widget]')).toHaveAttribute('data-service-state', 'ready');
  const record = await page.evaluate(() => (window as unknown as { record: LayoutRecord }).record);
  const total = (shifts: LayoutRecord['shifts']) => shifts.reduce((sum, s) => sum + s.value, 0).toFixed(4);
  console.log(
    `${path}: layout shift before ready ${total(record.shifts.filter((s) => s.at < record.readyAt))}, in all ${total(record.shifts)}`,
  );
  return record;
};

test('with the loader in <head>, nothing jumps while the widget loads', async ({ watched: page }) => {
  // The space is reserved before the first paint. The content may then grow past it: that shift is
  // reported in the log, not hidden.
  const record = await layoutOf(page, 'head.html');
  expect(record.shifts.filter((s) => s.at < record.readyAt)).toEqual([]);
});

test('with an async loader at the end of <body>, the owner’s link shows in reserved space until ready', async ({
  watched: page,
}) => {
  // The loader may run after the first paint: reserving the space is then itself a (small) shift.
  const record = await layoutOf(page, 'registration.html');
  expect(record.linkUntilReady).toBe(true);
});

test('with an async loader at the end of <body> and the div’s min-height in the site’s stylesheet, nothing jumps while the widget loads', async ({
  watched: page,
}) => {
  // The owner's advice in docs/embedding.md: the space is kept from the first paint, and the loader leaves
  // a min-height that already holds the widget's space alone.
  const record = await layoutOf(page, 'reserved.html', { loaderAfterPaint: true });
  const firstPaint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]!.startTime);
  expect(firstPaint).toBeLessThan(record.loadingAt);
  expect(record.linkUntilReady).toBe(true);
  expect(record.shifts.filter((s) => s.at < record.readyAt)).toEqual([]);
  await expect(page.locator('div[data-service-widget]')).toHaveCSS('min-height', '440px');
});
