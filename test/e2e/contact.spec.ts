import { axeViolations, expect, flakyChunks, SERVICE, serviceJson, SITE, test } from './support.ts';

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

test('a German page: every fault of the form in German beside its field, at once, the focus on the first; nothing typed is lost', async ({
  watched: page,
}) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${SITE}/contact-de.html`);
    const widget = page.locator('service-contact');
    await expect(page.locator('div[data-service-widget]')).toHaveAttribute('data-service-state', 'ready');
    const name = widget.getByLabel('Name');
    const email = widget.getByLabel('E-Mail');
    const topic = widget.getByLabel('Thema');
    const message = widget.getByRole('textbox', { name: 'Nachricht' });
    const consent = widget.getByRole('checkbox');
    await message.fill('Gibt es Rabatt für Studierende?');
    // Empty fields: the widget's own check, not the browser's bubbles, and nothing is sent.
    let writes = 0;
    page.on('request', (request) => void (request.method() === 'POST' && writes++));
    await widget.getByRole('button', { name: 'Nachricht senden' }).click();
    for (const [field, says] of [
      [name, 'Füllen Sie dieses Feld aus.'],
      [email, 'Füllen Sie dieses Feld aus.'],
      [topic, 'Wählen Sie einen Eintrag aus der Liste.'],
      [consent, 'Setzen Sie hier ein Häkchen, um zuzustimmen.'],
    ] as const) {
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveAccessibleDescription(says);
    }
    await expect(message).toHaveAttribute('aria-invalid', 'false');
    await expect(name).toBeFocused();
    await expect(widget.getByRole('alert')).toHaveText('Bitte korrigieren Sie die markierten Felder.');
    await expect(message).toHaveValue('Gibt es Rabatt für Studierende?');
    expect(writes).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // What only the service's rules refuse: its words in German, every one at once.
    await name.fill('42');
    await email.fill('hedy@example');
    await topic.selectOption('Programmes');
    await message.fill('Rabatt?');
    await consent.check();
    await widget.getByRole('button', { name: 'Nachricht senden' }).click();
    await expect(name).toHaveAccessibleDescription('„Name“ braucht mindestens einen Buchstaben.');
    await expect(email).toHaveAccessibleDescription('Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.org.');
    await expect(message).toHaveAccessibleDescription(/Schreiben Sie mindestens 10 Zeichen in Ihre Nachricht\.$/);
    await expect(name).toBeFocused();
    await expect(message).toHaveValue('Rabatt?');
    await expect(consent).toBeChecked();
    expect(await axeViolations(page)).toEqual([]);
  }
});

test('a German page whose widget cannot be fetched: the loader says what to do in German', async ({ watched: page }) => {
  // Its messages' chunk (which writes the console line) is unreachable too: no console line but the browser's.
  await flakyChunks(page, Infinity);
  await page.goto(`${SITE}/contact-de.html`);
  const div = page.locator('div[data-service-widget]');
  await expect(div).toHaveAttribute('data-service-error', 'network');
  await expect(div.getByRole('alert')).toHaveText('Laden fehlgeschlagen. Bitte Seite neu laden.');
  await expect(div.getByRole('link', { name: 'hello@acme.example' })).toBeVisible();
});
