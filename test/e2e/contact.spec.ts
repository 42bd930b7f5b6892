import { expect, SERVICE, serviceJson, SITE, test } from './support.ts';

interface Outbox {
  emails: { to: string; subject: string; text: string }[];
}

test('a visitor writes to the company by keyboard alone; the company is notified once', async ({ watched: page }) => {
  await page.goto(`${SITE}/contact.html`);
  const widget = page.locator('service-contact');
  await expect(page.locator('div[data-service-widget]')).toHaveAttribute('data-service-state', 'ready');
  const name = widget.getByLabel('Name');
  for (let i = 0; i < 20 && !(await name.evaluate((el) => el.matches(':focus'))); i++) await page.keyboard.press('Tab');
  await expect(name).toBeFocused();
  await page.keyboard.type('Hedy Lamarr');
  await page.keyboard.press('Tab');
  const email = `contact-${Date.now()}@example.org`;
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  // The subject: a topic from the widget's configuration, prefilled by the page, changed with the arrow keys.
  await expect(widget.getByRole('combobox')).toBeFocused();
  await expect(widget.getByRole('combobox')).toHaveValue('Programmes');
  await page.keyboard.press('ArrowDown');
  await expect(widget.getByRole('combobox')).toHaveValue('Invoices');
  await page.keyboard.press('Tab');
  await expect(widget.getByRole('textbox', { name: /Message/ })).toBeFocused();
  await page.keyboard.type('Is there a discount for students on the accessibility course?');
  await page.keyboard.press('Tab');
  await expect(widget.getByRole('checkbox')).toBeFocused();
  await page.keyboard.press('Space');
  // The service refuses forms sent sooner than 3 s after they were shown: its clock moves instead.
  await serviceJson('/dev/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"advance_s":5}' });
  const sent = page.evaluate(
    () =>
      new Promise((resolve) =>
        document.addEventListener('service-contact-sent', (e) => resolve((e as CustomEvent).detail), { once: true }),
      ),
  );
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  expect(((await sent) as { id: string }).id).toBeTruthy();
  await expect(widget.getByRole('heading', { level: 2 })).toBeFocused();
  await expect(widget).toContainText(email);
  const outbox = await serviceJson<Outbox>('/dev/outbox');
  const notifications = outbox.emails.filter((m) => m.text.includes(email));
  expect(notifications).toHaveLength(1);
  expect(notifications[0]!.text).toContain('Is there a discount for students');
  expect(notifications[0]!.text).toContain('Invoices');
});

test('a quick person is not refused; the service going away keeps the form; a double click sends it once', async ({
  watched: page,
}) => {
  await page.goto(`${SITE}/contact.html`);
  const widget = page.locator('service-contact');
  const email = `contact-twice-${Date.now()}@example.org`;
  await widget.getByLabel('Name').fill('Grace Hopper');
  await widget.getByLabel('Email').fill(email);
  await expect(widget.getByLabel('Topic')).toHaveValue('Programmes');
  await widget.getByRole('textbox', { name: /Message/ }).fill('Could you send me the dates for next spring?');
  await widget.getByRole('checkbox').check();
  const send = widget.getByRole('button', { name: 'Send message' });

  // Sent at once, as autofill lets a quick person do: sooner than the service's spam check allows.
  // The widget waits it out and sends again; the person is never told off.
  await send.click();
  await expect(widget.getByRole('heading', { name: 'Thank you — your message has been sent.' })).toBeVisible();
  await widget.getByRole('button', { name: 'Write another message' }).click();
  await widget.getByRole('textbox', { name: /Message/ }).fill('And the prices for groups, please?');
  await widget.getByRole('checkbox').check();

  // The service cannot be reached: the widget says so and keeps everything.
  await serviceJson('/dev/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"advance_s":5}' });
  await page.route(`${SERVICE}/widget-api/**`, (route) => route.abort('connectionrefused'));
  await send.click();
  await expect(widget).toContainText('could not be reached');
  await expect(widget.getByLabel('Email')).toHaveValue(email);
  await page.unroute(`${SERVICE}/widget-api/**`);

  // Back: a double click sends one message, and the company hears of it once.
  await send.dblclick();
  await expect(widget.getByRole('heading', { name: 'Thank you — your message has been sent.' })).toBeVisible();
  const outbox = await serviceJson<Outbox>('/dev/outbox');
  expect(outbox.emails.filter((m) => m.text.includes(email))).toHaveLength(2);
  expect(outbox.emails.filter((m) => m.text.includes('prices for groups'))).toHaveLength(1);
});
