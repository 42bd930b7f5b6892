import { expect, serviceJson, SITE, test } from './support.ts';

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
  // The subject: a topic from the widget's configuration, chosen with the arrow keys.
  await expect(widget.getByRole('combobox')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await expect(widget.getByRole('textbox', { name: /Message/ })).toBeFocused();
  await page.keyboard.type('Is there a discount for students on the accessibility course?');
  await page.keyboard.press('Tab');
  await expect(widget.getByRole('checkbox')).toBeFocused();
  await page.keyboard.press('Space');
  // The service refuses forms sent sooner than 3 s after they were shown: its clock moves instead.
  await serviceJson('/dev/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"advance_s":5}' });
  const sent = page.evaluate(
    () => new Promise((resolve) => document.addEventListener('service-contact-sent', (e) => resolve((e as CustomEvent).detail), { once: true })),
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
});
