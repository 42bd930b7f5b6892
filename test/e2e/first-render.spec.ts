/**
 * The budget's promise as an outside tester checks it: the JavaScript a page has fetched when its
 * widget says `service-widget-ready` is exactly what `npm run size` counts for that first view (the
 * loader, the widget's chunks and what it fetches with its first request: scripts/first-render.ts),
 * and its bytes as sent stay within the budget. A chunk fetched before the first view that the size
 * script does not count (a `first render` mark left out), or one it counts that is not fetched (a
 * mark left over), fails here.
 */
import type { Page } from '@playwright/test';
import { RESERVED_HEIGHT } from '../../contract/index.ts';
import { measureSizes } from '../../scripts/size.ts';
import { expect, SERVICE, serviceJson, signedIn, SITE, test } from './support.ts';

const TYPES = Object.keys(RESERVED_HEIGHT) as (keyof typeof RESERVED_HEIGHT)[];
const BUDGET = 14000;
const sizes = measureSizes();

/** Records, at `service-widget-ready`, the widget files the page has fetched and their bytes as sent. */
const watchFetched = (page: Page) =>
  page.addInitScript(() => {
    document.addEventListener(
      'service-widget-ready',
      () => {
        const files = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .map((entry) => ({ path: new URL(entry.name).pathname, sent: entry.encodedBodySize }))
          .filter(({ path }) => /^\/widgets\/.+\.js$/.test(path))
          .map(({ path, sent }) => ({ file: path.replace('/widgets/', ''), sent }));
        Object.assign(window, { fetchedBeforeReady: files });
      },
      { once: true },
    );
  });

/** What the page had fetched when its widget was ready. */
const fetchedBeforeReady = async (page: Page) => {
  await expect(page.locator('div[data-service-widget]')).toHaveAttribute('data-service-state', 'ready');
  const fetched = await page.evaluate(
    () => (window as unknown as { fetchedBeforeReady: { file: string; sent: number }[] }).fetchedBeforeReady,
  );
  return { files: fetched.map((f) => f.file).sort(), sent: fetched.reduce((total, f) => total + f.sent, 0) };
};

/** The files `npm run size` counts for a widget's first view (`view`: another first view it reports). */
const counted = (type: string, view?: string) => {
  const widget = sizes.widgets.find((w) => w.type === type)!;
  const first = view ? widget.views.find((v) => v.view === view)! : widget;
  return { files: [`v${widget.version}/loader.js`, ...first.files.map((f) => f.file)].sort(), gzip: first.gzip };
};

for (const type of TYPES) {
  test(`${type}: what a page fetches before the widget is ready is what the size budget counts, and within it`, async ({
    watched: page,
  }) => {
    await watchFetched(page);
    await page.goto(`${SITE}/layout-${type}-head.html`);
    const fetched = await fetchedBeforeReady(page);
    const budgeted = counted(type);
    expect(fetched.files).toEqual(budgeted.files);
    expect(budgeted.gzip).toBeLessThanOrEqual(BUDGET);
    // Sent as the build's brotli copies (this origin is trustworthy) or its gzip ones: no more than counted.
    expect(fetched.sent).toBeLessThanOrEqual(budgeted.gzip);
  });
}

test('the checkout with a cart fetches no more before it is ready than with none (its later steps come after)', async ({
  watched: page,
}) => {
  // A class the checkout can order (a refused one is another first view: its verdict's words come with it).
  type Month = { next_month: string; classes: { id: string; status: string; price: { amount: number } }[] };
  let month = await serviceJson<Month>('/widget-api/v1/calendar?key=wk_demo_calendar', { headers: { Origin: SITE } });
  let cls = month.classes.find((c) => c.status === 'open' && c.price.amount > 0);
  for (let i = 0; !cls && i < 4; i++) {
    month = await serviceJson<Month>(`/widget-api/v1/calendar?key=wk_demo_calendar&month=${month.next_month}`, {
      headers: { Origin: SITE },
    });
    cls = month.classes.find((c) => c.status === 'open' && c.price.amount > 0);
  }
  expect(cls).toBeTruthy();
  await page.addInitScript(({ key, lines }) => sessionStorage.setItem(key, JSON.stringify({ lines })), {
    key: `service-widgets:cart:${SERVICE}/:c_acme`,
    lines: [{ class_id: cls!.id, seats: 1 }],
  });
  await watchFetched(page);
  await page.goto(`${SITE}/layout-checkout-head.html`);
  const fetched = await fetchedBeforeReady(page);
  await expect(page.locator('service-checkout').getByRole('button', { name: 'Continue' })).toBeVisible();
  expect(fetched.files).toEqual(counted('checkout').files);
});

test('a returning participant’s profile fetches before it is ready what the size report says of its signed-in first view', async ({
  watched: page,
}) => {
  await signedIn(page, 'ada@example.org');
  await watchFetched(page);
  await page.goto(`${SITE}/layout-profile-head.html`);
  const fetched = await fetchedBeforeReady(page);
  await expect(page.locator('service-profile').getByRole('heading', { name: 'Hello Ada' })).toBeVisible();
  const signedInView = counted('profile', 'signed in');
  expect(fetched.files).toEqual(signedInView.files);
});
