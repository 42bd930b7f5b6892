import { statSync } from 'node:fs';
import { expect, flakyChunks, INSECURE_SITE, nextEvent, ofChunk, SERVICE, SITE, test } from './support.ts';

test('a loader in <head> finds divs parsed after it (and takes the page language)', async ({ watched: page }) => {
  await page.goto(`${SITE}/head.html`);
  const div = page.locator('div[data-service-widget]');
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  await expect(div.locator('service-registration').getByRole('heading', { name: 'Programme von Acme Academy' })).toBeVisible();
  await expect(div.locator('service-registration h3')).toHaveText(['TypeScript for teams']);
});

test('both loaders and a loader twice: each div mounted once, Lit loaded (so evaluated) once', async ({ watched: page }) => {
  await page.goto(`${SITE}/twice.html`);
  const registrations = page.locator('div[data-service-widget=registration]');
  await expect(registrations.nth(0)).toHaveAttribute('data-service-state', 'ready');
  await expect(registrations.nth(1)).toHaveAttribute('data-service-state', 'ready');
  await page.waitForFunction(() => document.readyState === 'complete');
  const facts = await page.evaluate(() => ({
    versions: window.ServiceWidgets!.versions,
    elements: document.querySelectorAll('service-registration').length,
    chunkLoads: performance.getEntriesByType('resource').filter((e) => e.name.includes('/chunks/shared-')).length,
    calendars: document.querySelectorAll('service-calendar').length,
  }));
  expect(facts.versions.sort()).toEqual(['v1', 'v2']);
  expect(facts.elements).toBe(2);
  // One load of the shared chunk (Lit and the base) for both loaders: a module is evaluated once per URL.
  expect(facts.chunkLoads).toBe(1);
  // With the v2 loader on the page, the calendar is v2's to handle.
  await expect(page.locator('[data-service-widget=calendar]')).toHaveAttribute('data-service-state', 'ready');
  expect(facts.calendars).toBe(1);
});

test('wrong-loader: a v2 type with only the v1 loader, once the page has loaded', async ({ watched: page }) => {
  page.expectConsoleErrors(1);
  await page.goto(`${SITE}/wrong-loader.html`);
  const div = page.locator('div[data-service-widget]');
  await expect(div).toHaveAttribute('data-service-error', 'wrong-loader');
  await expect(div).toHaveAttribute('data-service-state', 'error');
  await expect(div.getByRole('alert')).toContainText(`${SERVICE}/widgets/v2/loader.js`);
  await expect(div.getByRole('link', { name: 'Our calendar' })).toBeVisible();
  expect(page.consoleErrors[0]).toContain('is a v2 widget');
});

test('wrong-loader: the checkout with only the v1 loader too', async ({ watched: page }) => {
  page.expectConsoleErrors(1);
  await page.goto(`${SITE}/wrong-loader-checkout.html`);
  const div = page.locator('div[data-service-widget]');
  await expect(div).toHaveAttribute('data-service-error', 'wrong-loader');
  await expect(div.getByRole('alert')).toContainText(`${SERVICE}/widgets/v2/loader.js`);
  await expect(div.getByRole('link', { name: 'Book by phone' })).toBeVisible();
  expect(page.consoleErrors[0]).toContain('checkout');
});

test('a v2 loader added after the page has loaded takes back the div refused as wrong-loader', async ({ watched: page }) => {
  page.expectConsoleErrors(1);
  await page.goto(`${SITE}/wrong-loader.html`);
  const div = page.locator('div[data-service-widget]');
  await expect(div).toHaveAttribute('data-service-error', 'wrong-loader');
  const ready = await nextEvent(div, 'service-widget-ready');
  await page.addScriptTag({ url: `${SERVICE}/widgets/v2/loader.js` });
  expect(await ready()).toEqual({ type: 'calendar' });
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  await expect(div).not.toHaveAttribute('data-service-error');
  // The fix-it line and the owner's link give way to the widget.
  await expect(div.locator('[data-service-message]')).toHaveCount(0);
  await expect(div.locator('service-calendar').getByRole('heading', { name: 'Classes at Acme Academy' })).toBeVisible();
  expect(page.consoleErrors).toEqual([expect.stringContaining('is a v2 widget')]);
  const facts = await page.evaluate(async () => ({
    versions: window.ServiceWidgets!.versions,
    rows: (await window.ServiceWidgets!.diagnose()).map(({ element, ...row }) => row),
  }));
  expect(facts).toEqual({
    versions: ['v1', 'v2'],
    rows: [{ type: 'calendar', version: 'v2', state: 'ready', error: '' }],
  });
});

test('insecure-page: a plain-http page on another host; a visitor reads a kind line, the owner the fix in the console', async ({
  watched: page,
}) => {
  page.expectConsoleErrors(1);
  await page.goto(`${INSECURE_SITE}/registration.html`);
  const div = page.locator('div[data-service-widget]');
  await expect(div).toHaveAttribute('data-service-error', 'insecure-page');
  // Not a development page (it is not localhost): the visitor's line, not the owner's.
  await expect(div.getByRole('alert')).toHaveText('This part of the page cannot be shown right now.');
  await expect(div.getByRole('link', { name: 'See our programmes on the booking page' })).toBeVisible();
  expect(page.consoleErrors[0]).toContain('Serve this page over https://');
  expect(await page.locator('service-registration').count()).toBe(0);
});

test('diagnose() on a real page', async ({ watched: page }) => {
  await page.goto(`${SITE}/registration.html`);
  await expect(page.locator('div[data-service-widget]')).toHaveAttribute('data-service-state', 'ready');
  const rows = await page.evaluate(async () => (await window.ServiceWidgets!.diagnose()).map(({ element, ...row }) => row));
  expect(rows).toEqual([{ type: 'registration', version: 'v1', state: 'ready', error: '' }]);
});

test('network: the widget’s code cannot be fetched; the owner’s link stays and the message says what to do', async ({
  watched: page,
}) => {
  // The loader's messages (a chunk, which also writes the console line) are as unreachable as the
  // widget's code: the console shows the browser's own lines of the failed requests, and no other.
  const requests = await flakyChunks(page, Infinity);
  await page.goto(`${SITE}/registration.html`);
  const div = page.locator('div[data-service-widget]');
  await expect(div).toHaveAttribute('data-service-error', 'network');
  await expect(div).toHaveAttribute('data-service-state', 'error');
  // The loader's messages are a chunk of their own, unreachable too: its own short line says what to do.
  await expect(div.getByRole('alert')).toContainText('Check the connection and reload the page.');
  await expect(div.getByRole('link', { name: 'See our programmes on the booking page' })).toBeVisible();
  // Given up after three attempts.
  expect(ofChunk(requests, 'registration')).toHaveLength(3);
});

test('network: the widget’s code fails to load at first; the loader tries again and the widget shows', async ({
  watched: page,
}) => {
  // The widget's own chunk and the shared one it imports both fail once.
  const requests = await flakyChunks(page, 1, /^(registration|shared)-/);
  await page.goto(`${SITE}/registration.html`);
  const div = page.locator('div[data-service-widget]');
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  await expect(div.locator('service-registration').getByRole('heading', { name: 'Programmes at Acme Academy' })).toBeVisible();
  // Asked for again under a new URL (how many times depends on when the first failures were seen: a
  // retry 300 ms later may still meet the shared chunk's first failure, on a busy machine).
  expect(ofChunk(requests, 'registration').slice(0, 2)).toEqual([
    expect.stringMatching(/\.js$/),
    expect.stringMatching(/\.js\?1$/),
  ]);
  expect(ofChunk(requests, 'shared').length).toBeGreaterThanOrEqual(2);
});

test('network: the service cannot be reached; the widget offers a retry that recovers, and the div follows', async ({
  watched: page,
}) => {
  page.expectConsoleErrors(1);
  await page.route(`${SERVICE}/widget-api/**`, (route) => route.abort('connectionrefused'));
  await page.goto(`${SITE}/registration.html`);
  const div = page.locator('div[data-service-widget]');
  await expect(div).toHaveAttribute('data-service-error', 'network');
  await expect(div.getByRole('link', { name: 'See our programmes on the booking page' })).toBeVisible();
  const widget = div.locator('service-registration');
  await expect(widget.getByRole('alert')).toContainText('could not be reached');
  await expect.poll(() => page.consoleErrors.join()).toContain('could not be reached');
  await page.unroute(`${SERVICE}/widget-api/**`);
  await widget.getByRole('button', { name: 'Try again' }).click();
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  expect(await div.getAttribute('data-service-error')).toBeNull();
  await expect(widget.getByRole('heading', { name: 'Programmes at Acme Academy' })).toBeVisible();
  await expect(div.getByRole('link', { name: 'See our programmes on the booking page' })).toHaveCount(0);
});

test('every error looks the same, the loader’s and the widget’s: a line in the page’s own font and colour', async ({
  watched: page,
}) => {
  page.expectConsoleErrors(4);
  await page.goto(`${SITE}/errors.html`);
  const divs = page.locator('div[data-service-widget]');
  for (const [i, code] of ['unknown-type', 'missing-key', 'invalid-key', 'type-mismatch'].entries()) {
    await expect(divs.nth(i)).toHaveAttribute('data-service-error', code);
  }
  const looks = await divs.evaluateAll((all) =>
    all.map((div) => {
      // The loader's line in the div, or the widget's in its shadow root.
      const line =
        div.querySelector<HTMLElement>('[data-service-message]') ??
        div.firstElementChild!.shadowRoot!.querySelector<HTMLElement>('[role=alert] p')!;
      const style = getComputedStyle(line);
      return [style.fontFamily, style.fontSize, style.color, style.backgroundColor, style.borderTopStyle].join(' | ');
    }),
  );
  expect(new Set(looks).size).toBe(1);
  expect(looks[0]).toBe('Georgia, serif | 18px | rgb(40, 30, 90) | rgba(0, 0, 0, 0) | none');
});

test('the bytes the budgets promise are the bytes sent: the loader and the widget’s chunks come compressed, as the build made them', async ({
  watched: page,
}) => {
  await page.goto(`${SITE}/registration.html`);
  await expect(page.locator('div[data-service-widget=registration]').first()).toHaveAttribute('data-service-state', 'ready');
  const sent = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => /\/widgets\/(v1\/loader|chunks\/[\w-]+)\.js$/.test(e.name))
      .map((e) => ({ path: new URL(e.name).pathname, encoded: e.encodedBodySize, decoded: e.decodedBodySize })),
  );
  expect(sent.map((e) => e.path)).toContain('/widgets/v1/loader.js');
  for (const { path, encoded, decoded } of sent) {
    const file = `dist${path}`;
    // What the browser took: the build's brotli copy, or its gzip one (Chromium asks for br on https only).
    expect([statSync(`${file}.br`).size, statSync(`${file}.gz`).size], path).toContain(encoded);
    expect(decoded, path).toBe(statSync(file).size);
  }
  const loader = sent.find((e) => e.path === '/widgets/v1/loader.js')!;
  expect(loader.encoded).toBeLessThanOrEqual(2000);
});
