import type { Locator, Page } from '@playwright/test';
import { expect, SERVICE, serviceJson, SITE, test } from './support.ts';

interface Outbox {
  emails: { to: string; subject: string; text: string; link: string | null; pin: string | null }[];
}
const latestEmailTo = async (to: string) => (await serviceJson<Outbox>(`/dev/outbox?to=${encodeURIComponent(to)}`)).emails[0]!;

test('a participant signs in with the emailed PIN by keyboard alone, and a registration on the page shows up', async ({
  watched: page,
}) => {
  await page.goto(`${SITE}/account.html`);
  const profile = page.locator('service-profile');
  await expect(page.locator('div[data-service-widget=profile]')).toHaveAttribute('data-service-state', 'ready');
  const email = profile.getByLabel('Email');
  for (let i = 0; i < 20 && !(await email.evaluate((el) => el.matches(':focus'))); i++) await page.keyboard.press('Tab');
  await expect(email).toBeFocused();
  await page.keyboard.type('ada@example.org');
  await page.keyboard.press('Enter');
  await expect(profile.getByLabel('PIN')).toBeFocused();
  const { pin } = await latestEmailTo('ada@example.org');
  await page.keyboard.type(pin!);
  const login = page.evaluate(
    () =>
      new Promise((resolve) =>
        document.addEventListener('service-profile-login', (e) => resolve((e as CustomEvent).detail), { once: true }),
      ),
  );
  await page.keyboard.press('Enter');
  expect(await login).toEqual({ id: 'p_ada' });
  await expect(profile.getByRole('heading', { name: 'Hello Ada' })).toBeFocused();
  // The token lives in sessionStorage, never in localStorage.
  const storage = await page.evaluate(() => ({ session: JSON.stringify(sessionStorage), local: localStorage.length }));
  expect(storage.session).toContain('ptok_');
  expect(storage.local).toBe(0);

  // Ada registers for the open day in the registration widget on the same page.
  const registration = page.locator('service-registration');
  await registration.getByRole('button', { name: 'Register' }).first().click();
  await registration.getByLabel('First name').fill('Ada');
  await registration.getByLabel('Last name').fill('Lovelace');
  await registration.getByLabel('Email').fill('ada@example.org');
  await registration.getByRole('checkbox').check();
  await registration.getByRole('button', { name: 'Register' }).click();
  await expect(registration.getByRole('heading', { name: 'You are registered' })).toBeVisible();
  await expect(profile.locator('.card', { hasText: 'Open day: meet the trainers' })).toBeVisible();
});

test('the emailed link signs in and leaves no key in the address bar', async ({ watched: page }) => {
  await page.goto(`${SITE}/account.html`);
  const profile = page.locator('service-profile');
  await profile.getByLabel('Email').fill('grace@example.org');
  await profile.getByRole('button', { name: 'Send PIN' }).click();
  await expect(profile.getByLabel('PIN')).toBeVisible();
  const { link } = await latestEmailTo('grace@example.org');
  expect(new URL(link!).searchParams.get('key')).toMatch(/^ptok_/);
  expect(link!.startsWith(`${SITE}/account.html`)).toBe(true);
  await page.goto(link!);
  await expect(profile.getByRole('heading', { name: 'Hello Grace' })).toBeVisible();
  expect(page.url()).toBe(`${SITE}/account.html`);
  expect(await page.evaluate(() => location.search)).toBe('');
});

const post = (path: string, body: object) =>
  fetch(`${SERVICE}/widget-api/v1/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: SITE, 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify(body),
  });

/** A new participant, Mary (a registration makes one), so that tests share no PINs or rate limits. */
const newParticipant = async () => {
  const email = `e2e-profile-${Date.now()}@example.org`;
  const registered = await post('registrations?key=wk_demo_registration', {
    class_id: 'cls_data_2',
    first_name: 'Mary',
    last_name: 'Jackson',
    email,
    consent: true,
  });
  expect(registered.status).toBe(201);
  return email;
};

/** A new participant signed in on the account page through the emailed link. */
const signedInNewParticipant = async (page: Page) => {
  const email = await newParticipant();
  expect((await post('participant/login?key=wk_demo_profile', { email, return_url: `${SITE}/account.html` })).status).toBe(202);
  await page.goto((await latestEmailTo(email)).link!);
  await expect(page.locator('service-profile').getByRole('heading', { name: 'Hello Mary' })).toBeVisible();
  return email;
};

/** Presses Tab until `target` has the focus, as a keyboard user would. */
const tabTo = async (page: Page, target: Locator) => {
  for (let i = 0; i < 40 && !(await target.evaluate((el) => el.matches(':focus'))); i++) await page.keyboard.press('Tab');
  await expect(target).toBeFocused();
};

/** Opens the account page and asks for a PIN by keyboard alone; the focus is then in the PIN field. */
const askForPinByKeyboard = async (page: Page, email: string) => {
  await page.goto(`${SITE}/account.html`);
  const profile = page.locator('service-profile');
  await tabTo(page, profile.getByLabel('Email'));
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(profile.getByLabel('PIN')).toBeFocused();
  return profile;
};

const nextEvent = (page: Page, name: string) =>
  page.evaluate(
    (type) =>
      new Promise((resolve) =>
        document.addEventListener(type, (e) => resolve((e as CustomEvent).detail ?? null), { once: true }),
      ),
    name,
  );

test('a participant edits her details, cancels a place and signs out, by keyboard alone', async ({ watched: page }) => {
  const email = await signedInNewParticipant(page);
  const profile = page.locator('service-profile');
  const token = await page.evaluate(() => JSON.stringify(sessionStorage).match(/ptok_[\w-]+/)![0]);

  // The first view sums up (the next class); the details are one button away.
  await tabTo(page, profile.getByRole('button', { name: 'Show your details and classes' }));
  await page.keyboard.press('Enter');
  // Edit details: a wrong phone is refused beside its field, then the fix is saved.
  await tabTo(page, profile.getByRole('button', { name: 'Edit details' }));
  await page.keyboard.press('Enter');
  await expect(profile.getByLabel('First name')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Mary W.');
  await tabTo(page, profile.getByLabel('Phone'));
  await page.keyboard.type('call me maybe');
  await page.keyboard.press('Enter');
  await expect(profile.getByLabel('Phone')).toBeFocused();
  await expect(profile.getByLabel('Phone')).toHaveAttribute('aria-invalid', 'true');
  await expect(profile.getByLabel('First name')).toHaveValue('Mary W.');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('+1 555 010 0100');
  await page.keyboard.press('Enter');
  await expect(profile.getByText('Your details are saved.')).toBeVisible();
  await expect(profile).toContainText('Mary W. Jackson');
  await expect(profile).toContainText('+1 555 010 0100');

  // Cancel a place: a confirmation step, then the place is gone, here and in the service.
  await tabTo(page, profile.getByRole('button', { name: 'Cancel my place' }));
  await page.keyboard.press('Enter');
  // The safe answer has the focus; the one that cancels is a Shift+Tab away.
  await expect(profile.getByRole('button', { name: 'Keep my place' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(profile.getByRole('button', { name: 'Yes, cancel' })).toBeFocused();
  const cancelled = nextEvent(page, 'service-registration-cancelled');
  await page.keyboard.press('Enter');
  expect(await cancelled).toMatchObject({ course: 'crs_data', class: 'cls_data_2' });
  await expect(profile).toContainText('No upcoming classes.');
  const outbox = await serviceJson<Outbox>(`/dev/outbox?to=${encodeURIComponent(email)}`);
  expect(outbox.emails.map((m) => m.subject)).toContain('Registration cancelled: Data literacy basics');

  // Sign out: back to the email step, the token forgotten and refused by the service.
  const logout = nextEvent(page, 'service-profile-logout');
  await tabTo(page, profile.getByRole('button', { name: 'Sign out' }));
  await page.keyboard.press('Enter');
  await logout;
  await expect(profile.getByLabel('Email')).toBeVisible();
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain('ptok_');
  const me = await fetch(`${SERVICE}/widget-api/v1/participant/me?key=wk_demo_profile`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: SITE, 'X-Service-Token': token },
    body: '{}',
  });
  expect(me.status).toBe(401);
});

test('a wrong PIN says so and keeps the step; an unreachable service offers a retry that recovers; an invalidated token asks to sign in again', async ({
  watched: page,
}) => {
  // What reaches the console: the browser's own network line for the refused PIN (docs/embedding.md,
  // "The console"), never a console call of the widgets (the page fails on any other error line).
  const network: string[] = [];
  page.on('console', (m) => m.type() === 'error' && m.text().startsWith('Failed to load resource') && network.push(m.text()));
  const profile = await askForPinByKeyboard(page, 'ada@example.org');
  const { pin } = await latestEmailTo('ada@example.org');
  await page.keyboard.type(pin === '000000' ? '111111' : '000000');
  await page.keyboard.press('Enter');
  await expect(profile.getByRole('alert')).toHaveText('That PIN is not right. Tries left: 4.');
  await expect(profile.getByLabel('PIN')).toHaveAttribute('aria-invalid', 'true');
  await expect.poll(() => network).toEqual(['Failed to load resource: the server responded with a status of 401 (Unauthorized)']);
  expect(page.consoleErrors).toEqual([]);

  // The service goes away: the widget says so, and its retry works once it is back.
  await page.route(`${SERVICE}/widget-api/**`, (route) => route.abort('connectionrefused'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(pin!);
  await page.keyboard.press('Enter');
  await expect(profile).toContainText('could not be reached');
  await expect(profile.getByLabel('PIN')).toHaveValue(pin!);
  await page.unroute(`${SERVICE}/widget-api/**`);
  await page.keyboard.press('Enter');
  await expect(profile.getByRole('heading', { name: 'Hello Ada' })).toBeVisible();

  // The service invalidates every token of Ada: the next call returns to the email step, saying why.
  await serviceJson('/dev/tokens/invalidate', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"email":"ada@example.org"}',
  });
  const logout = nextEvent(page, 'service-profile-logout');
  await profile.getByRole('button', { name: 'Edit details' }).press('Enter');
  await profile.getByLabel('Phone').press('Enter');
  await logout;
  await expect(profile.getByLabel('Email')).toBeVisible();
  await expect(profile).toContainText('You have been signed out. Sign in again to see your account.');
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain('ptok_');
});

test('an expired PIN says so, and a new one is sent and taken, by keyboard alone', async ({ watched: page }) => {
  const email = await newParticipant();
  const profile = await askForPinByKeyboard(page, email);
  const first = (await latestEmailTo(email)).pin!;
  await serviceJson('/dev/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"advance_s":301}' });
  await page.keyboard.type(first);
  await page.keyboard.press('Enter');
  await expect(profile.getByRole('alert')).toHaveText('This PIN has expired. Send a new one.');
  await tabTo(page, profile.getByRole('button', { name: 'Send a new PIN' }));
  await page.keyboard.press('Enter');
  await expect(profile.getByRole('status')).toHaveText('A new PIN is on its way.');
  await expect(profile.getByLabel('PIN')).toBeFocused();
  await expect(profile.getByLabel('PIN')).toHaveValue('');
  const second = await latestEmailTo(email);
  expect(second.pin).not.toBeNull();
  const login = nextEvent(page, 'service-profile-login');
  await page.keyboard.type(second.pin!);
  await page.keyboard.press('Enter');
  await login;
  await expect(profile.getByRole('heading', { name: 'Hello Mary' })).toBeFocused();
});

test('a PIN already used in another tab, and a PIN dead after five wrong tries, each say so; a new PIN works', async ({
  watched: page,
}) => {
  const email = await newParticipant();
  const profile = await askForPinByKeyboard(page, email);
  const { pin } = await latestEmailTo(email);
  // Another tab (its own sessionStorage) signs in with this PIN first.
  expect((await post('participant/verify?key=wk_demo_profile', { email, pin })).status).toBe(200);
  await page.keyboard.type(pin!);
  await page.keyboard.press('Enter');
  await expect(profile.getByRole('alert')).toHaveText('This PIN has been used already. Send a new one.');

  await tabTo(page, profile.getByRole('button', { name: 'Send a new PIN' }));
  await page.keyboard.press('Enter');
  await expect(profile.getByLabel('PIN')).toBeFocused();
  const fresh = (await latestEmailTo(email)).pin!;
  const wrong = fresh === '000000' ? '111111' : '000000';
  for (const left of [4, 3, 2, 1]) {
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(wrong);
    await page.keyboard.press('Enter');
    await expect(profile.getByRole('alert')).toHaveText(`That PIN is not right. Tries left: ${left}.`);
  }
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(wrong);
  await page.keyboard.press('Enter');
  await expect(profile.getByRole('alert')).toHaveText('Too many wrong tries: this PIN no longer works. Send a new one.');
  // Even the right PIN is refused now.
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(fresh);
  const refused = page.waitForResponse((r) => r.url().includes('participant/verify'));
  await page.keyboard.press('Enter');
  expect((await refused).status()).toBe(429);
  await expect(profile.getByRole('alert')).toHaveText('Too many wrong tries: this PIN no longer works. Send a new one.');

  await tabTo(page, profile.getByRole('button', { name: 'Send a new PIN' }));
  await page.keyboard.press('Enter');
  await expect(profile.getByRole('status')).toHaveText('A new PIN is on its way.');
  const login = nextEvent(page, 'service-profile-login');
  await page.keyboard.type((await latestEmailTo(email)).pin!);
  await page.keyboard.press('Enter');
  await login;
  await expect(profile.getByRole('heading', { name: 'Hello Mary' })).toBeFocused();
});
