/**
 * The demo's REST console: the specification's flow on the service's own origin, by the emailed
 * link, by the PIN and by the client secret, each request's headers and answer shown; a 401 sends
 * the visitor back to log in. Each test signs in another user (the login limit is per email).
 */
import type { Page } from '@playwright/test';
import { expect, SERVICE, test } from './support.ts';

/** The service's public URL (its links point there): `localhost` where the tests reach it at 127.0.0.1. */
const PUBLIC = SERVICE.replace('127.0.0.1', 'localhost');
const exchange = (page: Page, step: string) => page.locator(`[data-exchanges="${step}"] details[open]`);

test('the console logs in by the emailed link, then reads the user and the company’s courses', async ({ watched: page }) => {
  // On the origin of the emailed link: the sign-in page hands the token to the console of its own origin.
  await page.goto(`${PUBLIC}/demo/console.html`);
  await expect(page.getByLabel('REST application')).toHaveValue('201');
  await page.getByLabel('Email of a company user').first().fill('olivia.owner@acme.example');
  await page.getByRole('button', { name: 'Send the login email' }).click();
  await expect(exchange(page, 'login')).toContainText('POST /v1/login');
  await expect(exchange(page, 'login')).toContainText('X-SERVICE-API-KEY: rk_demo_acme');
  await expect(exchange(page, 'login')).toContainText('"verification_method": "email"');
  await expect(exchange(page, 'login')).toContainText('HTTP/1.1 200 OK');

  // The email, from the outbox: its link opens the application's sign-in page, which hands the token over.
  const email = page.locator('#email-view');
  await expect(email).toContainText('To olivia.owner@acme.example');
  await email.getByRole('link', { name: 'Open the sign-in link' }).click();
  await expect(page).toHaveURL(`${PUBLIC}/demo/login.html`);
  await expect(page.getByRole('status')).toContainText('Signed in as Olivia Owner');
  await page.getByRole('link', { name: 'Continue in the REST console' }).click();

  await expect(page.locator('#login-done')).toHaveText(/^Logged in by email link\./);
  await expect(page.locator('#user-state')).toContainText('Olivia Owner (olivia.owner@acme.example), a user of 2 companies.');
  const user = exchange(page, 'user');
  await expect(user).toContainText('GET /v1/user');
  await expect(user).toContainText(/X-SERVICE-TOKEN: tok_\w+/);
  await expect(user).toContainText('"user_valid": true');
  await expect(page.getByRole('radio', { name: /Acme Academy/ })).toBeChecked();
  await page.getByRole('radio', { name: /Globex Institute/ }).check();
  await page.getByRole('button', { name: 'GET /v1/courses' }).click();
  await expect(page.locator('#courses-summary')).toHaveText(
    /^Globex Institute \(member\): courses 1–\d+ of \d+, page 1 of \d+\.$/,
  );
  await expect(exchange(page, 'courses')).toContainText('X-SERVICE-COMPANY: 2');
  await expect(exchange(page, 'courses')).toContainText('"pagination"');
  // Nothing of the token in the address or in localStorage.
  expect(page.url()).not.toContain('tok_');
  expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('tok_');
});

test('the console logs in by the PIN, typed by keyboard', async ({ watched: page }) => {
  await page.goto(`${SERVICE}/demo/console.html`);
  await page.getByLabel('Email of a company user').first().fill('max.member@acme.example');
  await page.keyboard.press('Enter');
  const pin = (await page.locator('#email-view .pin').textContent())!;
  expect(pin).toMatch(/^\d{6}$/);
  await expect(page.locator('#email-title')).toBeFocused();
  await page.getByLabel('PIN from the email').focus();
  await page.keyboard.type(pin);
  await page.keyboard.press('Enter');
  await expect(page.locator('#login-done')).toHaveText(/^Logged in by PIN\./);
  await expect(exchange(page, 'login')).toContainText('POST /v1/verify');
  await expect(exchange(page, 'login')).toContainText('"action": "validate_pin"');
  await expect(page.locator('#user-state')).toContainText('Max Member');
  await page.getByRole('button', { name: 'GET /v1/courses' }).click();
  await expect(page.locator('#courses-summary')).toHaveText(/^Acme Academy \(member\): courses 1–5 of \d+/);
});

test('a way to log in chosen before the console’s script is ready shows its own form', async ({ watched: page }) => {
  // The seed (the applications and users) held back: the script waits for it before it listens.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/dev/seed', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${SERVICE}/demo/console.html`);
  await page.getByRole('radio', { name: 'Client secret (server to server)' }).check();
  release();
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send the login email' })).toBeHidden();
});

test('the console logs in by the client secret, and a 401 sends the visitor back to log in', async ({ watched: page }) => {
  await page.goto(`${SERVICE}/demo/console.html`);
  await page.getByLabel('REST application').selectOption('202');
  await page.getByRole('radio', { name: 'Client secret (server to server)' }).check();
  await page.getByLabel('Email of a company user').last().fill('gina.owner@globex.example');
  await expect(page.getByLabel('Client secret', { exact: true })).toHaveValue('cs_demo_globex_secret');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.locator('#login-done')).toHaveText(/^Logged in by client secret\./);
  await expect(exchange(page, 'login')).toContainText('"verification_method": "client_secret"');
  await expect(exchange(page, 'login')).toContainText('X-SERVICE-API-KEY: rk_demo_globex');
  await expect(page.locator('#user-state')).toContainText('Gina');
  await page.getByRole('button', { name: 'GET /v1/courses' }).click();
  await expect(page.locator('#courses-summary')).toHaveText(/^Globex Institute \(owner\)/);

  // The service invalidates the token; the next call answers 401 and the console asks to log in again.
  await page.getByRole('button', { name: 'Invalidate the token' }).click();
  await expect(page.locator('#user-state')).toContainText('the next call with it answers 401');
  await page.getByRole('button', { name: 'GET /v1/user' }).click();
  await expect(exchange(page, 'user')).toContainText('HTTP/1.1 401 Unauthorized');
  await expect(page.getByRole('alert')).toContainText('The service answered 401 (invalid-token)');
  await expect(page.locator('#login-title')).toBeFocused();
  await expect(page.getByRole('button', { name: 'GET /v1/user' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'GET /v1/courses' })).toBeDisabled();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
});
