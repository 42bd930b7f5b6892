/**
 * The demo's snippet builder: what it writes is what a site owner pastes, and it works on a fresh
 * page of their site (another origin, its strict CSP: the CSS goes into the site's stylesheet).
 */
import { expect, SERVICE, SITE, test } from './support.ts';

test('the builder’s snippet, pasted into a fresh page of another origin, shows the widget as built', async ({
  watched: page,
}) => {
  // The gallery's "Customise it" link names the type.
  await page.goto(`${SERVICE}/demo/builder.html#type=calendar`);
  await expect(page.getByLabel('Widget', { exact: true })).toHaveValue('calendar');
  await expect(page.getByLabel('Widget key')).toHaveValue('wk_demo_calendar');
  await expect(page.locator('#preview-state')).toHaveText('Preview: ready.');

  await page.getByLabel('Language').selectOption('de');
  await page.locator('#option-location').selectOption('Berlin');
  await page.locator('#theme--service-accent').fill('#0f766e');
  await page.getByLabel('Async loader, the space in your stylesheet').check();

  const html = `<div class="booking-calendar" data-service-widget="calendar" data-service-id="wk_demo_calendar" data-service-locale="de" data-service-location="Berlin"></div>\n<script async src="${SERVICE}/widgets/v2/loader.js"></script>`;
  const css = '.booking-calendar {\n  --service-accent: #0f766e;\n  min-height: 36em;\n}';
  await expect(page.locator('#snippet-html')).toHaveText(html);
  await expect(page.locator('#snippet-css')).toHaveText(css);
  await expect(page.locator('#loader-note')).toContainText('loader v2');

  // The live preview runs that snippet.
  const preview = page.locator('#preview > div');
  await expect(page.locator('#preview-state')).toHaveText('Preview: ready.');
  await expect(preview).toHaveAttribute('data-service-location', 'Berlin');
  await expect(preview.getByRole('heading', { name: 'Termine von Acme Academy' })).toBeVisible();
  await expect(page.locator('#preview-events')).toContainText('service-widget-ready');

  // Pasted into a new page of the customer's site, as it stands.
  const pasted = await fetch(`${SITE}/pasted`, { method: 'POST', body: JSON.stringify({ html, css }) });
  const { page: path } = (await pasted.json()) as { page: string };
  const site = await page.context().newPage();
  await site.goto(SITE + path);
  const div = site.locator('div[data-service-widget=calendar]');
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  await expect(div.getByRole('heading', { name: 'Termine von Acme Academy' })).toBeVisible();
  expect(await div.evaluate((d) => getComputedStyle(d).minHeight)).toBe('576px');
  const pressed = div.locator('service-calendar button[aria-pressed="true"]');
  expect(await pressed.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(15, 118, 110)');
  await expect(div.locator('service-calendar')).toHaveAttribute('location', 'Berlin');
  await site.close();
});

test('the builder offers the seeded keys of each type, and its preview shows what the loader says of a key', async ({
  watched: page,
}) => {
  // The preview's error is the loader's, on purpose: it says so in the console too.
  page.expectConsoleErrors(1);
  await page.goto(`${SERVICE}/demo/builder.html`);
  const keys = page.getByLabel('Widget key');
  await expect(keys).toHaveValue('wk_demo_registration');
  expect(await keys.locator('option').allTextContents()).toEqual(
    expect.arrayContaining(['wk_demo_registration', 'wk_demo_registration_revoked (revoked)', 'Another key…']),
  );
  await keys.selectOption('wk_demo_registration_revoked');
  await expect(page.locator('#key-hint')).toContainText('revoked');
  await expect(page.locator('#preview-state')).toContainText('Preview: invalid-key');

  // The head placement needs no CSS; another height does.
  await keys.selectOption('wk_demo_registration');
  await expect(page.locator('#key-hint')).toHaveText(
    'Acme Academy · serves pages on localhost (any port), 127.0.0.1 (any port).',
  );
  await expect(page.locator('#css-part')).toBeHidden();
  await expect(page.locator('#snippet-html')).toContainText(`<script src="${SERVICE}/widgets/v1/loader.js"></script>`);
  await page.getByLabel('Height (px at a 16 px font)').fill('280');
  await expect(page.locator('#snippet-css')).toHaveText('.booking-registration {\n  min-height: 17.5em;\n}');
  await expect.poll(() => page.locator('#preview > div').evaluate((d) => d.style.minHeight)).toBe('17.5em');
});
