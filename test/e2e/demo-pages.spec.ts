/**
 * Every page of the demo: axe finds nothing and nothing scrolls sideways at 375 px; the hostile and
 * the dark page leave the widgets as they are; the outbox and the REST sign-in link page work.
 */
import type { Page } from '@playwright/test';
import { axeViolations, expect, SERVICE, sidewaysScroll, test } from './support.ts';

const PUBLIC = SERVICE.replace('127.0.0.1', 'localhost');

/** Waits until every widget on the page is ready. */
const widgetsReady = async (page: Page, count: number) => {
  await expect(page.locator('[data-service-widget][data-service-state=ready]')).toHaveCount(count);
};

/** Each page, and what to do on it before it is checked (so that what it draws on use is checked too). */
const PAGES: [path: string, use: (page: Page) => Promise<void>][] = [
  ['/', (page) => widgetsReady(page, 7)],
  [
    '/demo/builder.html',
    async (page) => {
      await page.getByLabel('Widget', { exact: true }).selectOption('contact');
      await expect(page.locator('#preview-state')).toHaveText('Preview: ready.');
      await page.getByLabel('Async loader, the space in your stylesheet').check();
      await expect(page.locator('#css-part')).toBeVisible();
    },
  ],
  [
    '/demo/checker.html',
    async (page) => {
      await page.getByRole('button', { name: 'Paste an example with problems' }).click();
      await expect(page.locator('#results > li')).toHaveCount(6);
    },
  ],
  [
    '/demo/console.html',
    async (page) => {
      await page.getByRole('radio', { name: 'Client secret (server to server)' }).check();
      await page.getByLabel('Email of a company user').last().fill('lena.lecturer@acme.example');
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await expect(page.locator('#user-state')).toContainText('Lena');
    },
  ],
  ['/demo/outbox.html', (page) => expect(page.locator('#count')).toHaveText(/^(No emails yet|\d+ emails?, newest first)\.$/)],
  ['/demo/hostile.html', (page) => widgetsReady(page, 4)],
  ['/demo/dark.html', (page) => widgetsReady(page, 4)],
  ['/demo/login.html', (page) => expect(page.getByRole('status')).toContainText('holds no key parameter')],
];

for (const [path, use] of PAGES) {
  test(`${path}: axe finds nothing, and nothing scrolls sideways at 375 px`, async ({ watched: page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(SERVICE + path);
    await use(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => sidewaysScroll(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });
}

test('the hostile page: its global CSS, its own Lit and its Trusted Types leave the widgets as on any page', async ({
  watched: page,
}) => {
  const response = await page.goto(`${SERVICE}/demo/hostile.html`);
  expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
  await widgetsReady(page, 4);
  // The page's own Lit drew its own element.
  await expect(page.locator('#host-lit')).toHaveText(/^Lit 3\.\d+\.\d+$/);
  await page.locator('host-banner').getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByText('This page has its own web components')).toBeHidden();

  // Trusted Types are enforced here: the page itself may not write a string as HTML.
  page.expectConsoleErrors(2, 'require-trusted-types-for');
  expect(
    await page.evaluate(() => {
      try {
        document.createElement('div').innerHTML = '<b>x</b>';
        return 'written';
      } catch {
        return 'refused';
      }
    }),
  ).toBe('refused');

  // The widgets take the page's font and colour, and nothing else of its text's look.
  const looks = await page.locator('service-registration').evaluate((el) => {
    const heading = getComputedStyle(el.shadowRoot!.querySelector('h2')!);
    const button = getComputedStyle(el.shadowRoot!.querySelector('button:not(.secondary)')!);
    return {
      font: heading.fontFamily,
      transform: heading.textTransform,
      spacing: heading.letterSpacing,
      align: heading.textAlign,
      indent: heading.textIndent,
      sizing: button.boxSizing,
      accent: button.backgroundColor,
      radius: button.borderTopLeftRadius,
    };
  });
  expect(looks).toEqual({
    font: expect.stringContaining('Georgia'),
    transform: 'none',
    spacing: 'normal',
    align: 'start',
    indent: '0px',
    sizing: 'border-box',
    accent: 'rgb(29, 78, 216)',
    radius: '8px',
  });
});

test('the dark page: the widgets take its text colour, and a colour of the page’s own is used as it is', async ({
  watched: page,
}) => {
  await page.goto(`${SERVICE}/demo/dark.html`);
  await widgetsReady(page, 4);
  const text = await page.evaluate(() => getComputedStyle(document.body).color);
  expect(
    await page.locator('service-registration').evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('h2')!).color),
  ).toBe(text);
  const send = page.locator('service-contact').getByRole('button', { name: 'Send message' });
  expect(await send.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(125, 211, 252)');
});

test('the outbox lists the emails newest first, adds new ones as they come, and its links work', async ({ watched: page }) => {
  const login = (email: string, apiKey = 'rk_demo_acme') =>
    fetch(`${SERVICE}/v1/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': apiKey },
      body: JSON.stringify({ login: email, verification_method: 'email' }),
    });
  expect((await login('lena.lecturer@acme.example')).status).toBe(200);
  expect((await login('leo.lecturer@acme.example')).status).toBe(200);
  await page.goto(`${PUBLIC}/demo/outbox.html`);
  const emails = page.locator('#emails > li');
  await expect(emails.nth(0)).toContainText('To leo.lecturer@acme.example');
  await expect(emails.nth(1)).toContainText('To lena.lecturer@acme.example');

  // A new email comes to the top while the page is open.
  expect((await login('gina.owner@globex.example', 'rk_demo_globex')).status).toBe(200);
  await expect(emails.nth(0)).toContainText('To gina.owner@globex.example');
  await expect(emails.nth(1)).toContainText('To leo.lecturer@acme.example');

  // Only one address's emails.
  await page.getByLabel('Only emails to').fill('lena.lecturer@acme.example');
  await page.keyboard.press('Enter');
  await expect(page.locator('#count')).toHaveText(/^\d+ emails? to lena\.lecturer@acme\.example, newest first\.$/);
  await expect(emails.nth(0)).toContainText('To lena.lecturer@acme.example');
  expect(new URL(page.url()).searchParams.get('to')).toBe('lena.lecturer@acme.example');

  // Its sign-in link works: the application's page signs Lena in.
  await emails.nth(0).getByRole('link').first().click();
  await expect(page.getByRole('status')).toContainText('Signed in as Lena');
  expect(new URL(page.url()).searchParams.has('key')).toBe(false);
});

test('the REST sign-in link page takes the key out of the address bar and says whose token it is', async ({ watched: page }) => {
  const login = await fetch(`${SERVICE}/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': 'rk_demo_acme' },
    body: JSON.stringify({ login: 'max.member@acme.example', verification_method: 'email' }),
  });
  expect(login.status).toBe(200);
  const outbox = await (await fetch(`${SERVICE}/dev/outbox?to=max.member%40acme.example`)).json();
  const link = new URL(outbox.emails[0].link);
  expect(link.pathname).toBe('/demo/login.html');
  await page.goto(link.href);
  await expect(page.getByRole('status')).toContainText('Signed in as Max Member');
  await expect(page.getByRole('status')).toContainText('Acme Academy (member)');
  expect(new URL(page.url()).searchParams.has('key')).toBe(false);

  // A token the service does not know: the typed client's error, said plainly.
  await page.goto(`${SERVICE}/demo/login.html?key=tok_not_a_real_one`);
  await expect(page.getByRole('status')).toContainText('The service refused the token');
  await expect(page.getByRole('status')).toContainText('401');
});
