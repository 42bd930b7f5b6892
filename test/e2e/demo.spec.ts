import { expect, SERVICE, test } from './support.ts';

test('the demo page shows every built widget under the service’s strict CSP, and builds a snippet', async ({ watched: page }) => {
  const response = await page.goto(`${SERVICE}/`);
  expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
  for (const type of ['registration', 'profile', 'contact']) {
    await expect(page.locator(`main > section div[data-service-widget=${type}]`).first()).toHaveAttribute('data-service-state', 'ready');
  }
  await page.getByLabel('Widget type').selectOption('contact');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.locator('#snippet-code')).toHaveText(
    `<div data-service-widget="contact" data-service-id="wk_demo_contact"></div>\n<script async src="${SERVICE}/widgets/v1/loader.js"></script>`,
  );
  await expect(page.locator('#preview div[data-service-widget=contact]')).toHaveAttribute('data-service-state', 'ready');
  await expect(page.locator('#event-log')).toContainText('service-widget-ready');
});

test('a newcomer registers for a class through the demo page, and the service holds it', async ({ watched: page }) => {
  await page.goto(`${SERVICE}/`);
  const widget = page.locator('main > section div[data-service-widget=registration] service-registration').first();
  await expect(widget.getByRole('heading', { name: 'Programmes at Acme Academy' })).toBeVisible();
  await widget.getByRole('button', { name: 'Register' }).first().click();
  const email = `newcomer-${Date.now()}@example.org`;
  await widget.getByLabel('First name').fill('Nina');
  await widget.getByLabel('Last name').fill('Newcomer');
  await widget.getByLabel('Email').fill(email);
  await widget.getByRole('checkbox').check();
  await widget.getByRole('button', { name: /^(Register|Join the waitlist)$/ }).click();
  await expect(widget.getByRole('heading', { name: /You are (registered|on the waitlist)/ })).toBeVisible();
  // The demo's event log saw it, and the service emailed the confirmation.
  await expect(page.locator('#event-log')).toContainText('service-registration-created');
  const outbox = await (await fetch(`${SERVICE}/dev/outbox?to=${encodeURIComponent(email)}`)).json();
  expect(outbox.emails).toHaveLength(1);
});
