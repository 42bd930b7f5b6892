import { expect, SERVICE, test } from './support.ts';

test('the demo page shows every built widget under the service’s strict CSP, and builds a snippet', async ({ watched: page }) => {
  const response = await page.goto(`${SERVICE}/`);
  expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
  for (const type of ['registration', 'profile', 'contact']) {
    await expect(page.locator(`main > section div[data-service-widget=${type}]`).first()).toHaveAttribute(
      'data-service-state',
      'ready',
    );
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

test('the REST login email’s link opens the demo’s sign-in page, which takes the key out of the address bar and shows whose token it is', async ({
  watched: page,
}) => {
  const login = await fetch(`${SERVICE}/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': 'rk_demo_acme' },
    body: JSON.stringify({ login: 'olivia.owner@acme.example', verification_method: 'email' }),
  });
  expect(login.status).toBe(200);
  const outbox = await (await fetch(`${SERVICE}/dev/outbox?to=olivia.owner%40acme.example`)).json();
  const link = new URL(outbox.emails[0].link);
  expect(link.pathname).toBe('/demo/login.html');
  await page.goto(link.href);
  await expect(page.getByRole('status')).toContainText('Signed in as Olivia');
  await expect(page.getByRole('status')).toContainText('Acme Academy (owner)');
  expect(new URL(page.url()).searchParams.has('key')).toBe(false);

  // A token the service no longer knows: the typed client's error, said plainly.
  await page.goto(`${SERVICE}/demo/login.html?key=tok_not_a_real_one`);
  await expect(page.getByRole('status')).toContainText('The service refused the token');
  await expect(page.getByRole('status')).toContainText('401');
});
