import { expect, serviceJson, SITE, test } from './support.ts';

interface Outbox {
  emails: { to: string; subject: string; text: string; link: string | null; pin: string | null }[];
}
const latestEmailTo = async (to: string) => (await serviceJson<Outbox>(`/dev/outbox?to=${encodeURIComponent(to)}`)).emails[0]!;

test('a participant signs in with the emailed PIN by keyboard alone, and a registration on the page shows up', async ({ watched: page }) => {
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
    () => new Promise((resolve) => document.addEventListener('service-profile-login', (e) => resolve((e as CustomEvent).detail), { once: true })),
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
