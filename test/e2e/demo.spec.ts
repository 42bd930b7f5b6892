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
