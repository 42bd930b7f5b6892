/**
 * Pinned versions (docs/embedding.md): the builder's pinned snippet, pasted into a fresh page of the
 * customer's site under its strict CSP, works; a changed byte in the loader or in the widget's code is
 * refused by the browser, and the page shows what a visitor then sees.
 */
import { createHash } from 'node:crypto';
import type { Page, Route } from '@playwright/test';
import { expect, SERVICE, SITE, test } from './support.ts';

interface IntegrityList {
  release: string;
  files: Record<string, string>;
  widgets: Record<string, string[]>;
}

/** The builder's pinned snippet for the registration widget (`pin`: the loader, or all its code). */
const pinnedSnippet = async (page: Page, pin: 'loader' | 'chunks') => {
  await page.goto(`${SERVICE}/demo/builder.html#type=registration`);
  await expect(page.locator('#preview-state')).toHaveText('Preview: ready.');
  await page.getByLabel('Async loader, the space in your stylesheet').check();
  await page
    .getByLabel(pin === 'loader' ? 'Pinned, the loader checked by its hash' : 'Pinned, all the widget’s code checked')
    .check();
  await expect(page.locator('#snippet-html')).toContainText('integrity="sha384-');
  const html = (await page.locator('#snippet-html').textContent())!;
  const css = (await page.locator('#snippet-css').textContent())!;
  const loader = /src="([^"]+)"/.exec(html)![1]!;
  const csp =
    pin === 'chunks' ? /add ('sha256-[^']+') to script-src/.exec((await page.locator('#csp-note').textContent())!)![1]! : '';
  return { html, css, loader, csp };
};

/** A fresh page of the customer's site holding `html` (with the site owner's own link in the div). */
const pastedPage = async (page: Page, { html, css, csp }: { html: string; css: string; csp: string }) => {
  const withFallback = html.replace('></div>', '><a href="/booking.html">Book on our booking page</a></div>');
  const pasted = await fetch(`${SITE}/pasted`, {
    method: 'POST',
    body: JSON.stringify({ html: withFallback, css, scriptSrc: csp }),
  });
  const { page: path } = (await pasted.json()) as { page: string };
  const site = await page.context().newPage();
  const console: string[] = [];
  site.on('console', (message) => void console.push(message.text()));
  return { site, console, url: SITE + path };
};

/** Answers the request with its real response but its last byte changed (a newline made a space: the code would run the same). */
const changeLastByte = async (route: Route) => {
  const response = await route.fetch();
  const body = await response.body();
  body[body.length - 1] = body[body.length - 1] === 0x20 ? 0x0a : 0x20;
  await route.fulfill({ response, body });
};

const sha384 = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

test('a pinned loader with its hash works under the site’s strict CSP; with one byte changed the browser refuses it, and the owner’s content stays', async ({
  watched: page,
}) => {
  const snippet = await pinnedSnippet(page, 'loader');
  expect(snippet.loader).toMatch(new RegExp(`^${SERVICE}/widgets/v1\\.\\d+\\.\\d+/loader\\.js$`));
  expect(snippet.html).toContain('crossorigin="anonymous"');
  // The hash is the loader's bytes', as its release's integrity list says.
  const list = (await (await fetch(new URL('integrity.json', snippet.loader))).json()) as IntegrityList;
  const bytes = Buffer.from(await (await fetch(snippet.loader)).arrayBuffer());
  expect(snippet.html).toContain(`integrity="${sha384(bytes)}"`);
  expect(list.files['loader.js']).toBe(sha384(bytes));

  const { site, console, url } = await pastedPage(page, snippet);
  await site.goto(url);
  const div = site.locator('div[data-service-widget=registration]');
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  await expect(div.getByRole('heading', { name: 'Programmes at Acme Academy' })).toBeVisible();
  await expect(div.getByRole('link', { name: 'Book on our booking page' })).toHaveCount(0);

  // The same page, its loader changed by one byte on the way.
  await site.route(snippet.loader, changeLastByte);
  const refused = site.waitForEvent('console', (m) => m.type() === 'error' && /integrity/.test(m.text()));
  await site.reload();
  expect((await refused).text()).toContain(snippet.loader);
  await site.waitForLoadState('load');
  // No code of ours ran: the visitor sees the owner's own link, and nothing else claims the div.
  await expect(div.getByRole('link', { name: 'Book on our booking page' })).toBeVisible();
  await expect(div).not.toHaveAttribute('data-service-state');
  expect(await site.evaluate(() => 'ServiceWidgets' in window)).toBe(false);
  expect(console.filter((line) => /integrity/.test(line))).toHaveLength(1);
  await site.close();
});

test('a pinned snippet with its import map pins the widget’s code too: a chunk with one byte changed is refused, on every retry, and the loader says so in the div', async ({
  watched: page,
}) => {
  const snippet = await pinnedSnippet(page, 'chunks');
  expect(snippet.html).toContain('<script type="importmap">{"integrity":{');
  const { site, console, url } = await pastedPage(page, snippet);
  await site.goto(url);
  const div = site.locator('div[data-service-widget=registration]');
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  await expect(div.getByRole('heading', { name: 'Programmes at Acme Academy' })).toBeVisible();
  expect(console.filter((line) => /integrity|Content Security Policy/i.test(line))).toEqual([]);

  // The widget's own chunk (and its retries, `?1`, `?2`) changed by one byte on the way.
  const list = (await (await fetch(new URL('integrity.json', snippet.loader))).json()) as IntegrityList;
  const own = new URL(list.widgets.registration![0]!, snippet.loader).href;
  await site.route((u) => u.href.startsWith(own), changeLastByte);
  await site.reload();
  await expect(div).toHaveAttribute('data-service-state', 'error');
  await expect(div).toHaveAttribute('data-service-error', 'network');
  // A development page (127.0.0.1) shows the owner's fix-it line; the owner's link stays beside it.
  await expect(div.getByRole('alert')).toContainText('Could not load the registration widget');
  await expect(div.getByRole('alert')).toContainText('import map');
  await expect(div.getByRole('link', { name: 'Book on our booking page' })).toBeVisible();
  await expect(div.locator('service-registration')).toHaveCount(0);
  expect(console.filter((line) => /integrity/.test(line)).length).toBeGreaterThanOrEqual(3);
  await site.close();
});
