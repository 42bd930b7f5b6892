/**
 * The demo's gallery (the service's root): all seven widgets live through both loaders, each with
 * its snippet, a copy button and its events; screenshots at a desktop and a phone width.
 */
import { WIDGET_TYPES, type WidgetType } from '../../contract/index.ts';
import { expect, SERVICE, sidewaysScroll, test } from './support.ts';

const TYPES = Object.keys(WIDGET_TYPES) as WidgetType[];
const snippetOf = (type: WidgetType) =>
  `<div data-service-widget="${type}" data-service-id="wk_demo_${type}"${type === 'checkout' ? ' data-service-class="cls_web_1"' : ''}></div>\n<script async src="${SERVICE}/widgets/v${WIDGET_TYPES[type]}/loader.js"></script>`;

test('the gallery shows all seven widgets live through both loaders, each with its snippet, a copy button and its events', async ({
  watched: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const response = await page.goto(`${SERVICE}/`);
  expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
  for (const type of TYPES) {
    const card = page.locator(`article#${type}`);
    await expect(card.locator('[data-service-widget]')).toHaveAttribute('data-service-state', 'ready');
    await expect(card.locator('[data-snippet]')).toHaveText(snippetOf(type));
    await expect(card.getByRole('log')).toContainText('service-widget-ready');
  }
  expect(await page.evaluate(() => window.ServiceWidgets!.versions.sort())).toEqual(['v1', 'v2']);
  expect(
    await page
      .locator('script[src$="/loader.js"]')
      .evaluateAll((s) => s.map((e) => new URL((e as HTMLScriptElement).src).pathname)),
  ).toEqual(['/widgets/v1/loader.js', '/widgets/v2/loader.js']);

  // The copy button puts the snippet on the clipboard and says so.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: SERVICE });
  const calendar = page.locator('article#calendar');
  await calendar.getByRole('button', { name: 'Copy snippet' }).click();
  await expect(calendar.getByRole('status')).toHaveText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippetOf('calendar'));

  await page.screenshot({ path: 'test-results/screenshots/gallery-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => sidewaysScroll(page)).toBe(0);
  await page.screenshot({ path: 'test-results/screenshots/gallery-375.png', fullPage: true });
});

test('a visitor joins a waitlist in the gallery: the registration card logs the event, and the email is in the outbox', async ({
  watched: page,
}) => {
  await page.goto(`${SERVICE}/`);
  const card = page.locator('article#registration');
  const widget = card.locator('service-registration');
  await expect(widget.getByRole('heading', { name: 'Programmes at Acme Academy' })).toBeVisible();
  await widget.getByRole('button', { name: 'Join waitlist' }).first().click();
  const email = `newcomer-${Date.now()}@example.org`;
  await widget.getByLabel('First name').fill('Nina');
  await widget.getByLabel('Last name').fill('Newcomer');
  await widget.getByLabel('Email').fill(email);
  await widget.getByRole('checkbox').check();
  await widget.getByRole('button', { name: 'Join waitlist' }).click();
  await expect(widget.getByRole('heading', { name: 'You are on the waitlist' })).toBeVisible();
  await expect(card.getByRole('log')).toContainText('service-registration-created');
  await expect(card.getByRole('log')).toContainText('"status":"waitlisted"');

  // The "Try it" line leads to the outbox, where the confirmation is the newest email.
  await card.getByRole('link', { name: 'outbox' }).click();
  await expect(page.locator('#emails > li').first()).toContainText(`To ${email}`);
});

test('the first Tab stop skips to the content, and the gallery’s links lead to each widget and to the builder', async ({
  watched: page,
}) => {
  await page.goto(`${SERVICE}/`);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  expect(new URL(page.url()).hash).toBe('#main');

  await page.getByRole('navigation', { name: 'Widgets' }).getByRole('link', { name: 'Places' }).click();
  await expect(page.locator('article#map')).toBeInViewport();
  await page.locator('article#map').getByRole('link', { name: 'Customise it' }).click();
  await expect(page).toHaveURL(/\/demo\/builder\.html#type=map&key=wk_demo_map/);
  await expect(page.getByLabel('Widget', { exact: true })).toHaveValue('map');
});
