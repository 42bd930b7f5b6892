/**
 * The demo's snippet checker: each kind of problem named as the loader would report it on that
 * page, in the loader's own words (loader/messages.ts) and the widget API's (the key checks).
 */
import { fixes } from '../../contract/messages.ts';
import { expect, SERVICE, test } from './support.ts';

const v1 = `${SERVICE}/widgets/v1/loader.js`;

test('the checker names each kind of problem as the loader would, and fixes an origin in development', async ({
  watched: page,
}) => {
  await page.goto(`${SERVICE}/demo/checker.html`);
  await expect(page.getByLabel('The page’s address')).toHaveValue('http://localhost:3000/');
  await page.getByRole('button', { name: 'Paste an example with problems' }).click();

  const summary = page.locator('#summary');
  await expect(summary).toHaveText('5 problems: 5 of 6 widgets would not show. The loader reports the first of each.');
  const result = (n: number) => page.locator('#results > li').nth(n);
  await expect(result(0)).toContainText('Ready: the registration widget will show on http://localhost:3000.');
  await expect(result(1)).toContainText('unknown-type');
  await expect(result(1)).toContainText(fixes['unknown-type']!({ type: 'calender', src: v1 }));
  await expect(result(2)).toContainText('wrong-loader');
  await expect(result(2)).toContainText(fixes['wrong-loader']!({ type: 'calendar', version: 2, src: v1 }));
  await expect(result(3)).toContainText('missing-key');
  await expect(result(3)).toContainText(fixes['missing-key']!({ type: 'contact', src: v1 }));
  await expect(result(4)).toContainText('type-mismatch');
  await expect(result(4)).toContainText('This key belongs to a contact widget, not a profile widget.');
  await expect(result(5)).toContainText('origin-not-allowed');
  await expect(result(5)).toContainText('This widget key does not serve pages on http://localhost:3000');

  // In development the service lets the key serve that origin, and the check says so.
  await result(5).getByRole('button', { name: 'Let wk_demo_registration_example serve http://localhost:3000' }).click();
  await expect(summary).toHaveText('4 problems: 4 of 6 widgets would not show. The loader reports the first of each.');
  await expect(result(5)).toContainText('Ready');

  // An http page that is not this machine, a revoked key and no loader, typed by keyboard.
  await page.getByLabel('The page’s address').fill('http://shop.example/courses');
  await page
    .getByLabel('Snippet or page (HTML)')
    .fill('<div data-service-widget="registration" data-service-id="wk_demo_registration_revoked"></div>');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Check' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(summary).toContainText('1 of 1 widget would not show, and the page has its own.');
  const page0 = result(0);
  await expect(page0).toContainText('no-loader');
  await expect(result(1)).toContainText(fixes['insecure-page']!({ type: 'registration', src: v1 }));
  await expect(result(1)).toContainText('invalid-key');
  await expect(result(1)).toContainText('The service does not know this widget key, or it was revoked');
  // No fix offered for an http page elsewhere: no key could make it show there.
  await expect(page.getByRole('button', { name: /^Let .* serve/ })).toHaveCount(0);

  // {base_url} left as the README writes it.
  await page.getByLabel('The page’s address').fill('https://localhost/');
  await page
    .getByLabel('Snippet or page (HTML)')
    .fill(
      '<div data-service-widget="map" data-service-id="wk_demo_map"></div>\n<script async src="{base_url}/widgets/v2/loader.js"></script>',
    );
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(result(0)).toContainText(
    `The loader’s address still holds {base_url}: put the service’s address there, ${SERVICE}`,
  );
  // A widget on a page whose loader cannot come is not ready, however good its key.
  await expect(summary).toContainText('1 of 1 widget would not show, and the page has its own.');
  await expect(result(1)).not.toContainText('Ready');

  // A loader written as a module; pasted handlers, which must neither run nor be compiled (a CSP
  // violation or an alert would fail the test).
  await page
    .getByLabel('Snippet or page (HTML)')
    .fill(
      `<img src=x onerror=alert(1)><svg onload="alert(2)"></svg>\n<div data-service-widget="map" data-service-id="wk_demo_map" onclick=alert(3)></div>\n<script type="module" src="${SERVICE}/widgets/v2/loader.js"></script>`,
    );
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(result(0)).toContainText('The loader is a classic script: remove type="module"');
  await expect(result(1).locator('pre')).toHaveText(
    '<div data-service-widget="map" data-service-id="wk_demo_map" onclick="alert(3)">',
  );

  // A page opened from a file has no origin a key serves.
  await page.getByLabel('The page’s address').fill('file:///home/me/courses.html');
  await page
    .getByLabel('Snippet or page (HTML)')
    .fill(
      `<div data-service-widget="map" data-service-id="wk_demo_map"></div>\n<script async src="${SERVICE}/widgets/v2/loader.js"></script>`,
    );
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(result(0)).toContainText('A page opened from a file (file://) has no origin a key can serve');
  await expect(summary).toContainText('1 of 1 widget would not show');
  await expect(page.getByText(/development mode only/)).toHaveCount(0);

  // What the loader passes over: a placeholder that is no div, an option the widget does not take.
  await page.getByLabel('The page’s address').fill('https://localhost/');
  await page
    .getByLabel('Snippet or page (HTML)')
    .fill(
      `<span data-service-widget="map" data-service-id="wk_demo_map" data-service-colour="red"></span>\n<script async src="${SERVICE}/widgets/v2/loader.js"></script>`,
    );
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(result(0)).toContainText('The loader looks only at div elements: make this <span> a <div>.');
  await expect(result(0)).toContainText(
    'data-service-colour is no option of the map widget, and is left out (its options: data-service-booking-url).',
  );

  // Pages of the site a widget links to: one it would not link, and a checkout page on another site.
  await page.getByLabel('The page’s address').fill('https://localhost/dates');
  await page
    .getByLabel('Snippet or page (HTML)')
    .fill(
      [
        '<div data-service-widget="map" data-service-id="wk_demo_map" data-service-booking-url="javascript:alert(1)"></div>',
        '<div data-service-widget="calendar" data-service-id="wk_demo_calendar" data-service-checkout-url="https://shop.example/checkout"></div>',
        '<div data-service-widget="calendar" data-service-id="wk_demo_calendar" data-service-checkout-url="/checkout"></div>',
        `<script async src="${SERVICE}/widgets/v2/loader.js"></script>`,
      ].join('\n'),
    );
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(result(0)).toContainText(
    'data-service-booking-url "javascript:alert(1)" is no web page, and the widget links nowhere: give https:// and the page (https://www.example.com/booking) or a path of this site (/booking).',
  );
  await expect(result(1)).toContainText(
    "data-service-checkout-url is on another site than this page (https://shop.example, not https://localhost): the visitor's cart is kept by the site, and would be empty there. Give a page of this site, such as /checkout.",
  );
  await expect(result(2)).toContainText('Ready: the calendar widget will show on https://localhost.');

  // Nothing to check: each says what to give, and the last results go.
  await page.getByLabel('Snippet or page (HTML)').fill('<p>Our courses</p>');
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(summary).toHaveText('No placeholder found: a widget is a <div data-service-widget="…" data-service-id="…">.');
  await page.getByLabel('Snippet or page (HTML)').fill('');
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(summary).toHaveText('Paste a snippet or a page first.');
  await expect(page.locator('#results > li')).toHaveCount(0);
  await page.getByLabel('The page’s address').fill('courses page');
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(summary).toHaveText('Give the page’s address, such as https://www.example.com/courses.');
});
