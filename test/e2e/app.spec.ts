/**
 * The service's app (`/app/`, Team & Settings > Publish) against the development service: sign-in
 * by the PIN from the outbox (by keyboard alone) and by the emailed link, the company picker, the
 * widgets' table, a new calendar widget whose copied snippet shows on a page of the customer's site
 * and is refused on another origin, a key rotated with an hour's grace, the roles (a member changes
 * nothing, the service says 403; a lecturer has no Publish), German, and a session that ends midway.
 * Every view is checked with axe at 1280 and 375 px, and for sideways scrolling at 375.
 */
import { createHash } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import { APP_API_KEY, CSRF_COOKIE } from '../../contract/api/rest.ts';
import type { WidgetsResponse } from '../../contract/api/rest.ts';
import { advanceClock, axeViolations, expect, serviceJson, SERVICE, SITE, sidewaysScroll, test } from './support.ts';

const APP = `${SERVICE}/app/`;
const OLIVIA = 'olivia.owner@acme.example';
const MAX = 'max.member@acme.example';
const LENA = 'lena.lecturer@acme.example';
const GINA = 'gina.owner@globex.example';

interface Email {
  id: number;
  pin: string | null;
  link: string | null;
}
const outbox = async (email: string) =>
  (await serviceJson<{ emails: Email[] }>(`/dev/outbox?to=${encodeURIComponent(email)}`)).emails;
const lastId = async (email: string) => Math.max(0, ...(await outbox(email)).map((e) => e.id));

/** The sign-in email sent after `after` (an email id): it is written after the answer, so it is waited for. */
async function signInEmail(email: string, after: number): Promise<Email> {
  let found: Email | undefined;
  await expect
    .poll(async () => {
      found = (await outbox(email)).find((e) => e.id > after && e.pin);
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

/** Signs the context in as the app does (the PIN for the session cookie), for a test about what follows. */
async function signIn(context: BrowserContext, email: string) {
  const after = await lastId(email);
  const headers = { 'X-SERVICE-API-KEY': APP_API_KEY };
  const login = await context.request.post(`${SERVICE}/v1/login`, {
    headers,
    data: { login: email, verification_method: 'email' },
  });
  expect(login.status()).toBe(200);
  const { pin } = await signInEmail(email, after);
  const session = await context.request.post(`${SERVICE}/v1/session`, { headers, data: { email, pin } });
  expect(session.status()).toBe(200);
}

/** No axe violation at 1280 and 375 px, and nothing wider than the window at 375. */
/** Olivia, signed in with the clipboard allowed, on the form of a new widget of Acme Academy. */
async function newWidgetForm(page: Page) {
  const context = page.context();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: SERVICE });
  await signIn(context, OLIVIA);
  await page.goto(`${APP}#/c/1/publish/new`);
  const h1 = page.getByRole('heading', { level: 1 });
  await expect(h1).toHaveText('New widget');
  return { context, h1 };
}

async function accessible(page: Page, what: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await axeViolations(page), `${what} at ${width} px`).toEqual([]);
    if (width === 375) expect(await sidewaysScroll(page), `${what}: sideways scroll at 375 px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** Tabs forward until the element of `id` has the focus (a keyboard user's way there). */
async function tabTo(page: Page, id: string) {
  for (let i = 0; i < 15 && (await focusedId(page)) !== id; i++) await page.keyboard.press('Tab');
  expect(await focusedId(page)).toBe(id);
  // The focus is visible where it is.
  expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe('none');
}

test('an owner signs in by keyboard with the PIN from the outbox, picks a company, and finds its widgets and team', async ({
  watched: page,
}) => {
  test.setTimeout(120_000);
  await page.goto(APP);
  const h1 = page.getByRole('heading', { level: 1 });
  await expect(h1).toHaveText('Sign in');
  await expect(page.getByRole('link', { name: 'Development: the PIN is in the outbox' })).toBeVisible();
  await accessible(page, 'sign-in');

  // An address that is none: said beside the field, what was typed kept.
  await tabTo(page, 'email');
  await page.keyboard.type('olivia.owner');
  await page.keyboard.press('Enter');
  await expect(page.locator('#email-error')).toHaveText('Enter an email address such as name@example.com.');
  await expect(page.locator('#email')).toBeFocused();
  await expect(page.locator('#email')).toHaveValue('olivia.owner');
  await expect(page.locator('#email')).toHaveAttribute('aria-invalid', 'true');
  await accessible(page, 'sign-in with an error');

  const after = await lastId(OLIVIA);
  await page.keyboard.type('@acme.example');
  await page.keyboard.press('Enter');
  await expect(h1).toHaveText('Check your email');
  await expect(h1).toBeFocused();
  await expect(page.getByText(`We sent a 6-digit PIN and a sign-in link to ${OLIVIA}.`)).toBeVisible();
  const { pin } = await signInEmail(OLIVIA, after);

  // A wrong PIN: said beside it, with a new PIN offered.
  await tabTo(page, 'pin');
  await page.keyboard.type(pin === '000000' ? '111111' : '000000');
  await page.keyboard.press('Enter');
  await expect(page.locator('#pin-error')).toHaveText(
    'This PIN is wrong, used or expired. Check the newest email, or send a new PIN.',
  );
  await expect(page.locator('#pin')).toBeFocused();
  await expect(page.getByRole('button', { name: 'Send a new PIN' })).toBeVisible();
  await accessible(page, 'PIN with an error');

  await page.keyboard.press('Control+A');
  await page.keyboard.type(pin!);
  await page.keyboard.press('Enter');

  // Olivia owns Acme Academy and is a member of Globex Institute: she picks one.
  await expect(h1).toHaveText('Choose a company');
  await expect(h1).toBeFocused();
  await expect(page.getByRole('link', { name: /Acme Academy\s+Owner/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Globex Institute\s+Member/ })).toBeVisible();
  await accessible(page, 'company picker');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: /Acme Academy/ })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(h1).toHaveText('Publish');
  await expect(h1).toBeFocused();
  await expect(page).toHaveURL(/#\/c\/1\/publish$/);
  await expect(page.getByRole('navigation', { name: 'Company: Acme Academy' })).toBeVisible();
  const table = page.getByRole('table', { name: 'The company’s widgets, newest first' });
  await expect(table.getByRole('columnheader')).toHaveText(['Name', 'Type', 'Loader', 'Origins', 'State', 'Created']);
  const calendarRow = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'Calendar', exact: true }) });
  await expect(calendarRow.getByRole('cell')).toContainText(['Calendar', 'v2', 'http://localhost:*', 'Enabled']);
  await expect(table.getByRole('row').filter({ hasText: 'Registration (disabled)' })).toContainText('Disabled');
  await accessible(page, 'publish table');

  // Filtered by type, in the address too; the focus stays on the filter.
  await page.getByLabel('Type').focus();
  await page.getByLabel('Type').selectOption('video');
  await expect(page.getByRole('status').filter({ hasText: /widgets?$/ })).toHaveText('1 widget');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(page).toHaveURL(/#\/c\/1\/publish\?type=video$/);
  await expect(page.getByLabel('Type')).toBeFocused();
  await page.reload();
  await expect(page.getByLabel('Type')).toHaveValue('video');
  await expect(table.getByRole('row')).toHaveCount(2);

  // The team, read-only.
  await page.getByRole('link', { name: 'Team' }).click();
  await expect(h1).toHaveText('Team');
  await expect(h1).toBeFocused();
  const team = page.getByRole('table', { name: 'The company’s team' });
  await expect(team.getByRole('row').filter({ hasText: MAX })).toContainText('Member');
  await expect(team.getByRole('row').filter({ hasText: LENA })).toContainText('Lecturer');
  await expect(team.getByRole('row').filter({ hasText: OLIVIA })).toContainText('Owner');
  await accessible(page, 'team');

  // In German, all of it; the page's language follows.
  await page.getByRole('button', { name: 'Deutsch' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(h1).toHaveText('Team');
  await expect(page.getByRole('table', { name: 'Das Team der Firma' }).getByRole('row').filter({ hasText: LENA })).toContainText(
    'Lehrkraft',
  );
  await page.getByRole('link', { name: 'Veröffentlichen' }).click();
  await expect(h1).toHaveText('Veröffentlichen');
  await expect(page.getByRole('table', { name: 'Die Widgets der Firma, neueste zuerst' })).toBeVisible();
  await expect(page.getByRole('columnheader')).toHaveText(['Name', 'Art', 'Loader', 'Origins', 'Status', 'Erstellt']);
  await accessible(page, 'publish table in German');
  await page.getByRole('link', { name: 'Neues Widget' }).first().click();
  await expect(h1).toHaveText('Neues Widget');
  await page.getByRole('button', { name: 'Widget erstellen' }).click();
  await expect(page.locator('#type-error')).toHaveText('Wählen Sie die Art des Widgets.');
  await expect(page.locator('#widget-name-error')).toHaveText('Geben Sie dem Widget einen Namen.');
  await expect(page.locator('#widget-origins-error')).toContainText('Nennen Sie mindestens eine Origin');
  await accessible(page, 'create form with errors, in German');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // Sign out ends the session: the app asks again.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(h1).toHaveText('Sign in');
  await expect(page.getByText('You are signed out.')).toBeVisible();
  expect((await page.context().cookies(SERVICE)).map((c) => c.name)).toEqual([]);
});

test('the emailed link signs in once, and leaves the address at once', async ({ watched: page }) => {
  await page.goto(APP);
  const after = await lastId(OLIVIA);
  await page.getByLabel('Email address').fill(OLIVIA);
  await page.getByRole('button', { name: 'Email me a PIN' }).click();
  const { link } = await signInEmail(OLIVIA, after);
  // The service's public address (`localhost` in development) and the app's path.
  const url = new URL(link!);
  expect(url.pathname).toBe('/app/');
  expect(url.search).toMatch(/^\?key=tok_/);
  const app = `${url.origin}/app/`;

  await page.goto(link!);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a company');
  expect(page.url()).toBe(app);

  // Used once: a second time it signs nobody in, and says so.
  await page.context().clearCookies();
  await page.goto(link!);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  await expect(page.getByText('This sign-in link is used or expired')).toBeVisible();
  expect(page.url()).toBe(app);
  await accessible(page, 'sign-in after a used link');
});

test('an owner creates a calendar widget, its copied snippet shows on the site, and a rotated key serves an hour more', async ({
  watched: page,
}) => {
  test.setTimeout(120_000);
  const { context, h1 } = await newWidgetForm(page);
  await accessible(page, 'create form');

  await page.getByRole('radio', { name: /Calendar/ }).check();
  await page.getByLabel('Name').fill('Calendar on the courses page');
  await page.getByLabel('Language').selectOption('de');
  await expect(page.getByLabel('Programme')).toBeVisible();
  // An origin with a path: said beside the field, what was typed kept.
  await page.getByLabel('Origins').fill(`${SITE}/courses`);
  await page.getByRole('button', { name: 'Create widget' }).click();
  await expect(page.locator('#widget-origins-error')).toContainText(`“${SITE}/courses” is no origin`);
  await expect(page.getByLabel('Origins')).toBeFocused();
  await expect(page.getByLabel('Name')).toHaveValue('Calendar on the courses page');
  await accessible(page, 'create form with an error');
  await page.getByLabel('Origins').fill(SITE);
  await page.getByRole('button', { name: 'Create widget' }).click();

  // The detail view: key, snippet, preview.
  await expect(h1).toHaveText('Calendar on the courses page');
  await expect(h1).toBeFocused();
  await expect(page).toHaveURL(/#\/c\/1\/publish\/\d+$/);
  const key = (await page.locator('#widget-key').textContent())!;
  expect(key).toMatch(/^wk_/);
  await expect(page.locator('.origin-list code')).toHaveText([SITE]);
  const preview = page.locator('.preview-frame > div');
  await expect(preview).toHaveAttribute('data-service-state', 'ready');
  await expect(preview.getByRole('heading', { name: 'Termine von Acme Academy' })).toBeVisible();
  await accessible(page, 'widget detail');

  await page.getByRole('button', { name: 'Copy snippet' }).click();
  await expect(page.getByText('Copied.')).toBeVisible();
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  expect(snippet).toBe(
    `<div data-service-widget="calendar" data-service-id="${key}" data-service-locale="de"></div>\n<script async src="${SERVICE}/widgets/v2/loader.js"></script>`,
  );
  await expect(page.locator('#snippet-html')).toHaveText(snippet);

  // The app's check says the same as the site will.
  await page.getByLabel('The page’s address').fill(`${SITE}/courses.html`);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByText(`No problems: the widget will show on ${SITE}.`)).toBeVisible();

  // Pasted into a page of the site: ready. The same page on another origin: refused.
  const paste = async (html: string) => {
    const answer = await fetch(`${SITE}/pasted`, { method: 'POST', body: JSON.stringify({ html, css: '' }) });
    return ((await answer.json()) as { page: string }).page;
  };
  const oldPage = await paste(snippet);
  // A visitor's browser of its own: a second tab of the owner's would put the app in the background,
  // where the browser slows its frames (each click then waited about 2 s for the button to hold still).
  const visitor = await context.browser()!.newContext();
  const site = await visitor.newPage();
  await site.goto(SITE + oldPage);
  const div = site.locator('div[data-service-widget="calendar"]');
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  const elsewhere = SITE.replace('127.0.0.1', 'localhost');
  await site.goto(elsewhere + oldPage);
  await expect(div).toHaveAttribute('data-service-error', 'origin-not-allowed');

  // The check names it too, and offers the owner the origin.
  await page.getByLabel('The page’s address').fill(`${elsewhere}/courses.html`);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.locator('.result')).toContainText('origin-not-allowed');
  await expect(page.getByRole('button', { name: `Add ${elsewhere} to this widget’s origins` })).toBeVisible();
  await accessible(page, 'widget detail with a check');

  // A new key; the old one serves an hour more, then answers revoked.
  await page.getByRole('radio', { name: 'For 1 hour' }).check();
  await page.getByRole('button', { name: 'Rotate the key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate the key?' });
  await expect(dialog).toContainText('The old one serves your pages for 1 more hour');
  await accessible(page, 'rotate dialog');
  await dialog.getByRole('button', { name: 'Rotate now' }).click();
  await expect(
    page.getByText(/^The key is new\. Put the new snippet into your pages: the old key serves them until/),
  ).toBeVisible();
  const newKey = (await page.locator('#widget-key').textContent())!;
  expect(newKey).not.toBe(key);
  await expect(page.locator('.previous-keys')).toContainText(key);
  await expect(page.locator('#snippet-html')).toContainText(newKey);
  await expect(preview).toHaveAttribute('data-service-id', newKey);
  await expect(preview).toHaveAttribute('data-service-state', 'ready');

  const newPage = await paste((await page.locator('#snippet-html').textContent())!);
  await site.goto(SITE + oldPage);
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  await advanceClock(3601);
  await site.reload();
  await expect(div).toHaveAttribute('data-service-error', 'revoked');
  await site.goto(SITE + newPage);
  await expect(div).toHaveAttribute('data-service-state', 'ready');

  // Disabled: its pages show nothing of it; enabled again.
  await page.getByRole('button', { name: 'Disable widget' }).click();
  await expect(page.getByText('The widget is disabled.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enable widget' })).toBeFocused();
  await site.reload();
  await expect(div).toHaveAttribute('data-service-error', 'not-available');
  await page.getByRole('button', { name: 'Enable widget' }).click();
  await expect(page.getByText('The widget is enabled.')).toBeVisible();

  // The brand's accent colour: the snippet gets a class and its CSS, the preview takes it.
  await page.getByLabel('Accent colour', { exact: true }).fill('#0f766e');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page.locator('#snippet-css')).toHaveText('.booking-calendar {\n  --service-accent: #0f766e;\n}');
  await expect(page.locator('#snippet-html')).toContainText('<div class="booking-calendar" data-service-widget="calendar"');
  await expect(preview).toHaveAttribute('data-service-state', 'ready');
  expect(await preview.evaluate((el) => getComputedStyle(el).getPropertyValue('--service-accent'))).toBe('#0f766e');

  // An origin added, and one removed; the last one stays.
  await page.getByLabel('New origin').fill('http://shop.example');
  await page.getByRole('button', { name: 'Add origin' }).click();
  await expect(page.locator('#new-origin-error')).toHaveText(
    '“http://shop.example”: widgets show on secure pages only. Use https://.',
  );
  await page.getByLabel('New origin').fill('https://www.acme.example');
  await page.getByRole('button', { name: 'Add origin' }).click();
  await expect(page.getByText('https://www.acme.example added.')).toBeVisible();
  await page.getByRole('button', { name: 'Remove https://www.acme.example' }).click();
  await expect(page.getByText('https://www.acme.example removed.')).toBeVisible();
  await page.getByRole('button', { name: `Remove ${SITE}` }).click();
  await expect(page.getByText('A widget serves at least one origin')).toBeVisible();
  await accessible(page, 'widget detail after changes');

  // The table lists it first.
  await page.getByRole('link', { name: 'All widgets' }).click();
  await expect(page.getByRole('row').nth(1)).toContainText('Calendar on the courses page');
  await visitor.close();
});

test('an owner names a checkout’s terms: an address that is not https is said beside it, what was typed kept; the saved one is the checkout’s, and can be changed', async ({
  watched: page,
}) => {
  const { h1 } = await newWidgetForm(page);
  await page.getByRole('radio', { name: /Checkout/ }).check();
  await page.getByLabel('Name').fill('Checkout with terms');
  await page.getByLabel('Origins').fill(SITE);
  const terms = page.getByLabel('Your terms and conditions');
  await expect(terms).toHaveAccessibleDescription(/linked in the checkout’s consent/);
  await terms.fill('http://www.acme.example/terms');
  await page.getByRole('button', { name: 'Create widget' }).click();
  await expect(page.locator('#option-terms-error')).toHaveText(
    'Give the address of your terms as https:// and the page, such as https://www.example.com/terms.',
  );
  await expect(terms).toBeFocused();
  await expect(terms).toHaveValue('http://www.acme.example/terms');
  await expect(page.getByLabel('Name')).toHaveValue('Checkout with terms');
  await accessible(page, 'create form with a wrong terms address');

  await terms.fill('https://www.acme.example/terms');
  await page.getByRole('button', { name: 'Create widget' }).click();
  await expect(h1).toHaveText('Checkout with terms');
  const key = (await page.locator('#widget-key').textContent())!;
  const checkout = async () => {
    const answer = await fetch(`${SERVICE}/widget-api/v1/widget?key=${key}&type=checkout`, { headers: { Origin: SITE } });
    return ((await answer.json()) as { widget: { options: { terms?: string } } }).widget.options.terms;
  };
  expect(await checkout()).toBe('https://www.acme.example/terms');
  await expect(terms).toHaveValue('https://www.acme.example/terms');

  // Changed in the widget's settings; emptied, the checkout names none.
  await terms.fill('www.acme.example/agb');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.locator('#option-terms-error')).toBeVisible();
  await expect(terms).toBeFocused();
  expect(await checkout()).toBe('https://www.acme.example/terms');
  await terms.fill('');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  expect(await checkout()).toBeUndefined();
  await accessible(page, 'checkout widget without terms');
});

test('an owner names a calendar’s checkout page: an address the calendar would not link is said beside it, what was typed kept; a path of the site is saved and written into the snippet', async ({
  watched: page,
}) => {
  const { h1 } = await newWidgetForm(page);
  await page.getByRole('radio', { name: /Calendar/ }).check();
  await page.getByLabel('Name').fill('Dates with a checkout page');
  await page.getByLabel('Origins').fill(SITE);
  const field = page.getByLabel('Your checkout page');
  await expect(field).toHaveAccessibleDescription(/on pages without one, a class booked links there/);
  await field.fill('www.acme.example/checkout');
  await page.getByRole('button', { name: 'Create widget' }).click();
  await expect(page.locator('#option-checkout-url-error')).toHaveText(
    'Give the page as https:// and its address, such as https://www.example.com/checkout, or as a path of your site, such as /checkout.',
  );
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveValue('www.acme.example/checkout');
  await accessible(page, 'create form with a wrong checkout page');

  await field.fill('/checkout');
  await page.getByRole('button', { name: 'Create widget' }).click();
  await expect(h1).toHaveText('Dates with a checkout page');
  await expect(page.locator('pre, code').filter({ hasText: 'data-service-checkout-url="/checkout"' }).first()).toBeVisible();
  // The preview is on no page of the site: it links to none (the path led to a page of the app that is not there).
  const preview = page.locator('.preview-frame div[data-service-widget=calendar]');
  await expect(preview).toHaveAttribute('data-service-state', 'ready');
  await expect(preview).not.toHaveAttribute('data-service-checkout-url', /.*/);
  // Changed in the widget's settings: refused before it is sent, then saved.
  await field.fill('javascript:alert(1)');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.locator('#option-checkout-url-error')).toBeVisible();
  await expect(field).toBeFocused();
  await field.fill('https://www.acme.example/checkout');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page.locator('#option-checkout-url-error')).toHaveCount(0);
});

test('the app’s page asks for its script and styles relative to itself: under a PUBLIC_URL with a path (behind a proxy) they stay under it', async () => {
  const page = await fetch(`${SERVICE}/app/`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((url) => !url.startsWith('data:'));
  expect(assets.some((url) => url.endsWith('.js')) && assets.some((url) => url.endsWith('.css'))).toBe(true);
  // As a browser resolves them on https://example.com/booking/app/ (the proxy maps /booking/ to the service).
  for (const url of assets) expect(new URL(url, 'https://example.com/booking/app/').pathname, url).toMatch(/^\/booking\/app\//);
});

test('terms typed for a checkout stay behind when the owner chooses another type: the widget is made without them', async ({
  watched: page,
}) => {
  const { h1 } = await newWidgetForm(page);
  await page.getByRole('radio', { name: /Checkout/ }).check();
  await page.getByLabel('Your terms and conditions').fill('www.acme.example/terms');
  await page.getByRole('radio', { name: /Calendar/ }).check();
  await expect(page.getByLabel('Your terms and conditions')).toHaveCount(0);
  await page.getByLabel('Name').fill('Calendar, once a checkout');
  await page.getByLabel('Origins').fill(SITE);
  await page.getByRole('button', { name: 'Create widget' }).click();
  await expect(h1).toHaveText('Calendar, once a checkout');
  const key = (await page.locator('#widget-key').textContent())!;
  const answer = await fetch(`${SERVICE}/widget-api/v1/widget?key=${key}&type=calendar`, { headers: { Origin: SITE } });
  expect(((await answer.json()) as { widget: { options: object } }).widget.options).toEqual({});
});

test('the widget’s page offers its snippet pinned: the integrity is the served pinned loader’s sha384, the check passes it, and pasted into a page of the site it shows', async ({
  watched: page,
}) => {
  test.setTimeout(120_000);
  const { context, h1 } = await newWidgetForm(page);
  await page.getByRole('radio', { name: /Registration/ }).check();
  await page.getByLabel('Name').fill('Registration, pinned');
  await page.getByLabel('Origins').fill(SITE);
  await page.getByRole('button', { name: 'Create widget' }).click();
  await expect(h1).toHaveText('Registration, pinned');
  const key = (await page.locator('#widget-key').textContent())!;

  // Evergreen first, as the README's snippet; the version is chosen by keyboard, as a radio group.
  const evergreen = page.getByRole('radio', { name: 'Evergreen' });
  const pinnedLoader = page.getByRole('radio', { name: 'Pinned, the loader checked by its hash' });
  await expect(evergreen).toBeChecked();
  await expect(page.locator('#snippet-html')).toContainText(`src="${SERVICE}/widgets/v1/loader.js"`);
  await evergreen.focus();
  await page.keyboard.press('ArrowDown');
  await expect(pinnedLoader).toBeChecked();
  await expect(pinnedLoader).toBeFocused();
  await expect(page.locator('#snippet-html')).toContainText('integrity="sha384-');
  await accessible(page, 'widget detail with a pinned snippet');

  await page.getByRole('button', { name: 'Copy snippet' }).click();
  await expect(page.getByText('Copied.')).toBeVisible();
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  await expect(page.locator('#snippet-html')).toHaveText(snippet);
  const loader = /src="([^"]+)"/.exec(snippet)![1]!;
  expect(loader).toMatch(new RegExp(`^${SERVICE}/widgets/v1\\.\\d+\\.\\d+/loader\\.js$`));
  await expect(page.locator('#pin-hint')).toContainText(loader);
  // The hash is that of the bytes the service sends for the pinned loader.
  const bytes = Buffer.from(await (await fetch(loader)).arrayBuffer());
  const sha384 = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
  expect(snippet).toBe(
    `<div data-service-widget="registration" data-service-id="${key}"></div>\n<script async src="${loader}" integrity="${sha384}" crossorigin="anonymous"></script>`,
  );

  // The app's check reads the pinned loader as the loader of its version.
  await expect(page.getByLabel('Snippet or page (HTML)')).toHaveValue(snippet);
  await page.getByLabel('The page’s address').fill(`${SITE}/courses.html`);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByText(`No problems: the widget will show on ${SITE}.`)).toBeVisible();

  // Pasted into a page of the site (its strict CSP): the browser checks the hash, and the widget shows.
  const paste = async (html: string, scriptSrc = '') => {
    const answer = await fetch(`${SITE}/pasted`, { method: 'POST', body: JSON.stringify({ html, css: '', scriptSrc }) });
    return ((await answer.json()) as { page: string }).page;
  };
  // A visitor's browser of its own, as above: the app stays in the foreground.
  const visitor = await context.browser()!.newContext();
  const site = await visitor.newPage();
  const refused: string[] = [];
  site.on(
    'console',
    (message) => void (/integrity|Content Security Policy/i.test(message.text()) && refused.push(message.text())),
  );
  const loaded = site.waitForResponse(loader);
  await site.goto(SITE + (await paste(snippet)));
  expect((await loaded).ok()).toBe(true);
  const div = site.locator('div[data-service-widget="registration"]');
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  await expect(div.getByRole('heading', { name: 'Programmes at Acme Academy' })).toBeVisible();

  // All the widget's code pinned: the import map, and the hash the site's CSP allows it by.
  await page.getByRole('radio', { name: 'Pinned, all the widget’s code checked' }).check();
  await expect(page.locator('#snippet-html')).toContainText('<script type="importmap">{"integrity":{');
  const csp = /add ('sha256-[^']+') to script-src/.exec((await page.locator('#csp-note').textContent())!)![1]!;
  await accessible(page, 'widget detail with an import map');
  await site.goto(SITE + (await paste((await page.locator('#snippet-html').textContent())!, csp)));
  await expect(div).toHaveAttribute('data-service-state', 'ready');
  await expect(div.getByRole('heading', { name: 'Programmes at Acme Academy' })).toBeVisible();
  expect(refused).toEqual([]);
  await visitor.close();

  // The choice is kept in this browser: the page opened again starts with it.
  await page.reload();
  await expect(h1).toHaveText('Registration, pinned');
  await expect(page.getByRole('radio', { name: 'Pinned, all the widget’s code checked' })).toBeChecked();
  await expect(page.locator('#snippet-html')).toContainText('<script type="importmap">');

  // In German too; the choice stays.
  await page.getByRole('button', { name: 'Deutsch' }).click();
  await expect(page.getByRole('group', { name: 'Version' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Festgeschrieben, der ganze Code des Widgets geprüft' })).toBeChecked();
  await expect(page.locator('#csp-note')).toContainText(`Fügen Sie ${csp} zu script-src hinzu`);
  await accessible(page, 'widget detail with a pinned snippet, in German');
  await page.getByRole('radio', { name: 'Immer aktuell' }).check();
  await expect(page.locator('#snippet-html')).toContainText(`src="${SERVICE}/widgets/v1/loader.js"`);
  await expect(page.locator('#csp-note')).toHaveCount(0);
  await page.getByRole('button', { name: 'English' }).click();
});

test('a session that ends midway returns to the sign-in, and signing in returns to the same view', async ({ watched: page }) => {
  await signIn(page.context(), GINA);
  await page.goto(`${APP}#/c/2/publish`);
  const h1 = page.getByRole('heading', { level: 1 });
  await expect(h1).toHaveText('Publish');
  await page.getByRole('link', { name: 'Contact', exact: true }).click();
  await expect(h1).toHaveText('Contact');
  const where = page.url();

  // Signed out elsewhere (the cookies gone): the next call is a 401.
  await page.context().clearCookies();
  await page.getByRole('button', { name: 'Disable widget' }).click();
  await expect(h1).toHaveText('Sign in');
  await expect(h1).toBeFocused();
  await expect(page.getByText('Your session has ended: sign in again to go on where you were.')).toBeVisible();
  expect(page.url()).toBe(where);
  await accessible(page, 'sign-in after the session ended');

  const after = await lastId(GINA);
  await page.getByLabel('Email address').fill(GINA);
  await page.getByRole('button', { name: 'Email me a PIN' }).click();
  const { pin } = await signInEmail(GINA, after);
  await page.getByLabel('PIN').fill(pin!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(h1).toHaveText('Contact');
  await expect(h1).toBeFocused();
  expect(page.url()).toBe(where);
  // Nothing was changed on the way.
  await expect(page.getByRole('button', { name: 'Disable widget' })).toBeVisible();
});

test('a member sees the widgets and copies snippets but changes nothing, and the service refuses a change', async ({
  watched: page,
}) => {
  await signIn(page.context(), MAX);
  await page.goto(APP);
  const h1 = page.getByRole('heading', { level: 1 });
  // One company: straight to it.
  await expect(h1).toHaveText('Publish');
  await expect(page).toHaveURL(/#\/c\/1\/publish$/);
  await expect(
    page.getByText('As a member you see the widgets and copy their snippets. An owner of the company changes them.'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'New widget' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Calendar', exact: true }).click();
  await expect(h1).toHaveText('Calendar');
  await expect(page.getByRole('button', { name: 'Copy snippet' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy key' })).toBeVisible();
  await expect(page.locator('.origin-list')).toContainText('http://localhost:*');
  for (const name of [/^Remove/, 'Add origin', 'Disable widget', 'Rotate the key', 'Save settings'])
    await expect(page.getByRole('button', { name })).toHaveCount(0);
  await expect(page.locator('.preview-frame > div')).toHaveAttribute('data-service-state', 'ready');
  await accessible(page, 'widget detail for a member');

  // The service holds the rule, not only the page.
  const csrf = (await page.context().cookies(SERVICE)).find((c) => c.name.endsWith(CSRF_COOKIE))!.value;
  const headers = { 'X-SERVICE-API-KEY': APP_API_KEY, 'X-SERVICE-COMPANY': '1', 'X-CSRF-Token': csrf };
  const { widgets } = (await (
    await page.request.get(`${SERVICE}/v1/widgets?type=calendar`, { headers })
  ).json()) as WidgetsResponse;
  const change = await page.request.patch(`${SERVICE}/v1/widgets/${widgets.at(-1)!.id}`, { headers, data: { enabled: false } });
  expect(change.status()).toBe(403);
  expect((await change.json()).error.code).toBe('role-not-allowed');
});

test('a lecturer sees no Publish, and is told why, in the browser’s language', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  await signIn(context, LENA);
  await page.goto(APP);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const h1 = page.getByRole('heading', { level: 1 });
  await expect(h1).toHaveText('Veröffentlichen');
  await expect(
    page.getByText(
      'Lehrkräfte veröffentlichen die Widgets der Firma nicht: Fragen Sie eine Inhaberin, einen Inhaber oder ein Mitglied der Firma.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Team' })).toHaveCount(0);
  await accessible(page, 'a lecturer’s Publish, in German');

  await page.getByRole('button', { name: 'English' }).click();
  await expect(
    page.getByText('Lecturers do not publish the company’s widgets: ask an owner or member of the company.'),
  ).toBeVisible();
  // A widget's address leads to the same page.
  await page.goto(`${APP}#/c/1/publish/1`);
  await expect(page.getByText('Lecturers do not publish the company’s widgets')).toBeVisible();
  await context.close();
});

test('a widget or company that is not there, a member’s “new widget”, and a widget that fails to load are each said, with a way on', async ({
  watched: page,
}) => {
  await signIn(page.context(), MAX);
  const h1 = page.getByRole('heading', { level: 1 });
  await page.goto(`${APP}#/c/1/publish/999999`);
  await expect(h1).toHaveText('Widget not found');
  await expect(page.getByRole('alert')).toHaveText('This company has no widget with this id. It may have been removed.');
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await accessible(page, 'a widget not found');

  await page.goto(`${APP}#/c/999/publish`);
  await expect(h1).toHaveText('Company not found');
  await expect(page.getByText('You have no role in this company. Choose one of yours.')).toBeVisible();
  await accessible(page, 'a company not found');

  await page.goto(`${APP}#/c/1/publish/new`);
  await expect(h1).toHaveText('New widget');
  await expect(page.getByText('As a member you see the widgets and copy their snippets.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create widget' })).toHaveCount(0);

  // The network drops the widget's request: said, with a retry that brings it.
  const { widgets } = (await (
    await page.request.get(`${SERVICE}/v1/widgets?type=calendar`, {
      headers: { 'X-SERVICE-API-KEY': APP_API_KEY, 'X-SERVICE-COMPANY': '1' },
    })
  ).json()) as WidgetsResponse;
  const id = widgets.at(-1)!.id;
  await page.route(`${SERVICE}/v1/widgets/${id}`, (route) => route.abort());
  await page.goto(`${APP}#/c/1/publish/${id}`);
  await expect(h1).toHaveText('The widget could not be loaded');
  await expect(page.getByRole('alert')).toHaveText('The service could not be reached. Check your connection and try again.');
  await accessible(page, 'a widget that could not be loaded');
  await page.unroute(`${SERVICE}/v1/widgets/${id}`);
  await page.getByRole('button', { name: 'Try again' }).press('Enter');
  await expect(h1).toHaveText(widgets.at(-1)!.name);
  await expect(h1).toBeFocused();
});
