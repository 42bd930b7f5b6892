/**
 * How the widgets' code and data reach a page: no waterfall (the loader starts each widget's first
 * request with its code, docs/architecture.md "No waterfall"), one request for placeholders that ask
 * the same, and no preflight.
 */
import type { Page, Request } from '@playwright/test';
import { FIRST_REQUEST, WIDGET_TYPES, type WidgetType } from '../../contract/index.ts';
import { expect, SERVICE, SITE, test } from './support.ts';

/** Every request the page makes to the service, in the order the browser sent them, with when each finished. */
const recordRequests = (page: Page) => {
  const log: { request: Request; finishedAfter?: number }[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(SERVICE)) log.push({ request });
  });
  page.on('requestfinished', (request) => {
    const entry = log.find((e) => e.request === request);
    // How many requests had been sent when this one's answer was complete.
    if (entry) entry.finishedAfter = log.length;
  });
  return log;
};
/** Waits until each of the page's seven placeholders is ready. */
const allReady = async (page: Page) => {
  const divs = page.locator('div[data-service-widget]');
  await expect(divs).toHaveCount(7);
  for (let i = 0; i < 7; i++) await expect(divs.nth(i)).toHaveAttribute('data-service-state', 'ready');
};
const path = (request: Request) => {
  const url = new URL(request.url());
  return url.pathname.replace(/^\/widget-api\/v1\//, '') + url.search;
};
/** The widget's first request, as the loader makes it of FIRST_REQUEST with no option set. */
const firstOf = (type: WidgetType) =>
  `${FIRST_REQUEST[type].replace(/[?&]\w+=(?=&|$)/g, '')}${FIRST_REQUEST[type].includes('?type=') ? '&' : '?'}key=wk_demo_${type}`;

test('every widget on one page: each first request goes out with the widget’s code, before its code has come, once, with no preflight', async ({
  watched: page,
}) => {
  const log = recordRequests(page);
  await page.goto(`${SITE}/all.html`);
  await allReady(page);
  const api = log.filter((e) => new URL(e.request.url()).pathname.startsWith('/widget-api/'));
  expect(log.filter((e) => e.request.method() === 'OPTIONS').map((e) => e.request.url())).toEqual([]);
  for (const type of Object.keys(WIDGET_TYPES) as WidgetType[]) {
    const first = api.filter((e) => path(e.request) === firstOf(type));
    expect(
      first.map((e) => path(e.request)),
      `${type}'s first request, once`,
    ).toEqual([firstOf(type)]);
    // Sent before the widget's own chunk had come: not after it.
    const chunk = log.find((e) => new RegExp(`/chunks/${type}-[\\w-]{6}\\.js$`).test(e.request.url()))!;
    expect(chunk.finishedAfter, `${type}'s chunk finished`).toBeDefined();
    expect(log.indexOf(first[0]!), `${type}'s first request sent before its chunk had come`).toBeLessThan(chunk.finishedAfter!);
  }
});

test('the profile’s sign-in, which its first view always needs, is asked for with its code, not once its code has come and run', async ({
  watched: page,
}) => {
  const log = recordRequests(page);
  await page.goto(`${SITE}/account.html`);
  await expect(page.locator('div[data-service-widget=profile]')).toHaveAttribute('data-service-state', 'ready');
  const chunk = (name: string) => log.find((e) => new RegExp(`/chunks/${name}-[\\w-]{6}\\.js$`).test(e.request.url()))!;
  const profile = chunk('profile');
  expect(profile.finishedAfter, 'the profile’s chunk finished').toBeDefined();
  expect(log.indexOf(chunk('sign-in')), 'the sign-in asked for before the profile’s chunk had come').toBeLessThan(
    profile.finishedAfter!,
  );
});

test('placeholders that ask the same are answered by one request; one with an option of its own asks for it', async ({
  watched: page,
}) => {
  const log = recordRequests(page);
  await page.goto(`${SITE}/many.html`);
  await allReady(page);
  // Each shows its answer: the registration's programmes, the calendar's month, the videos.
  await expect(page.locator('service-registration').getByRole('heading', { name: 'Programmes at Acme Academy' })).toHaveCount(3);
  await expect(page.locator('service-video').getByRole('heading', { name: 'Videos of Acme Academy' })).toHaveCount(2);
  await expect(page.locator('service-calendar').getByRole('heading', { name: 'Classes at Acme Academy' })).toHaveCount(2);
  const firsts = log
    .map((e) => path(e.request))
    .filter((p) => /^(widget|calendar)\?/.test(p) && p.includes('key=wk_demo_'))
    .filter((p) => !/month=/.test(p));
  expect(firsts.sort()).toEqual(
    [
      firstOf('registration'),
      'widget?type=registration&course=crs_ts&key=wk_demo_registration',
      firstOf('calendar'),
      firstOf('video'),
    ].sort(),
  );
});
