/**
 * The loader in a browser that keeps a failed module fetch for its URL, as browsers did before
 * whatwg/html#10327 (Chromium with that change turned off): a retry of the same URL cannot succeed.
 * A file of its own, because the browser is launched differently.
 */
import { expect, flakyChunks, ofChunk, SITE, test } from './support.ts';

// Chromium keeps the last --disable-features it is given: in this file, Playwright's own list gives way.
test.use({
  launchOptions: [
    async ({ launchOptions }, use) =>
      use({ ...launchOptions, args: [...(launchOptions.args ?? []), '--disable-features=ModuleMapDoNotCacheFailedFetch'] }),
    { scope: 'worker' },
  ],
});

test('network: the widget’s own code fails once; the loader asks for it under a new URL and the widget shows', async ({
  watched: page,
}) => {
  const requests = await flakyChunks(page, 1, /^registration-/);
  await page.goto(`${SITE}/registration.html`);
  const div = page.locator('div[data-service-widget]');
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  await expect(div.locator('service-registration').getByRole('heading', { name: 'Programmes at Acme Academy' })).toBeVisible();
  expect(ofChunk(requests, 'registration').map((r) => r.replace(/^[\w-]+\.js/, ''))).toEqual(['', '?1']);
  expect(ofChunk(requests, 'shared')).toHaveLength(1);
});
