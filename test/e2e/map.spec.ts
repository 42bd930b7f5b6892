import type { Page } from '@playwright/test';
import { expect, nextEvent, SITE, test } from './support.ts';

const ready = (page: Page) => expect(page.locator('div[data-service-widget=map]')).toHaveAttribute('data-service-state', 'ready');
const PLACES = ['Acme Berlin', 'Acme Hamburg', 'Acme Vienna', 'Acme London'];

test('the places as a list, then a map whose markers agree with it; markers and popups by keyboard; list and map in step', async ({
  watched: page,
}) => {
  await page.goto(`${SITE}/places.html`);
  await ready(page);
  const widget = page.locator('service-map');
  const list = widget.getByRole('list', { name: 'Places' });
  await expect(list.locator(':scope > li h3')).toHaveText([...PLACES, 'Online']);
  // One marker per place on a map, each named after it; online is on no map.
  const markers = widget.locator('.leaflet-marker-icon');
  await expect(markers).toHaveCount(4);
  expect(await markers.evaluateAll((els) => els.map((el) => [el.getAttribute('role'), el.getAttribute('aria-label')]))).toEqual(
    PLACES.map((name) => ['button', name]),
  );
  // The tiles came (the service's plain tile), the attribution is the key's, and nothing of Leaflet's styles reached the page.
  await expect(widget.locator('.leaflet-tile-loaded').first()).toBeVisible();
  await expect(widget.getByText('Leaflet · Plain tiles of the reference service')).toBeVisible();
  await expect(widget.getByRole('status')).toHaveCount(0);
  expect(
    await page.evaluate(() => ({
      sheets: document.styleSheets.length,
      adopted: document.adoptedStyleSheets.length,
      leaflet: document.querySelectorAll('[class*=leaflet]').length,
    })),
  ).toEqual({ sheets: 0, adopted: 0, leaflet: 0 });

  // A marker by keyboard: its popup holds what the list item holds, and the list follows.
  const hamburg = widget.getByRole('button', { name: 'Acme Hamburg', exact: true }).and(markers);
  for (let i = 0; i < 30 && !(await hamburg.evaluate((el) => el.matches(':focus'))); i++) await page.keyboard.press('Tab');
  await expect(hamburg).toBeFocused();
  const selected = await nextEvent(page, 'service-place-selected');
  await page.keyboard.press('Enter');
  expect(await selected()).toEqual({ id: 'pl_hamburg' });
  const popup = widget.locator('.leaflet-popup');
  await expect(popup.getByRole('heading', { name: 'Acme Hamburg' })).toBeFocused();
  await expect(popup).toContainText('Am Sandtorkai 4, 20457 Hamburg');
  await expect(popup.getByRole('link', { name: /^Book TypeScript for teams/ }).first()).toBeVisible();
  await expect(list.locator('li[aria-current=true] h3')).toHaveText('Acme Hamburg');
  await page.keyboard.press('Escape');
  await expect(popup).toHaveCount(0);
  await expect(hamburg).toBeFocused();

  // A place chosen in the list: its marker stands out and its popup opens; the focus stays in the list.
  const vienna = list.getByRole('button', { name: 'Acme Vienna' });
  await vienna.focus();
  await page.keyboard.press('Enter');
  await expect(vienna).toBeFocused();
  await expect(vienna).toHaveAttribute('aria-pressed', 'true');
  await expect(markers.and(widget.locator('.selected'))).toHaveAttribute('aria-label', 'Acme Vienna');
  await expect(popup.getByRole('heading', { name: 'Acme Vienna' })).toBeVisible();

  // Book: a link to the site's booking page with the class; the page may keep the visitor instead.
  const book = list.getByRole('link', { name: /^Book Open day: meet the trainers/ });
  expect(await book.getAttribute('href')).toBe(`${SITE}/registration.html?course=crs_open&class=cls_open_1`);
  await page.evaluate(() =>
    document.addEventListener('service-booking-requested', (e) => {
      (window as unknown as { booked: unknown }).booked = (e as CustomEvent).detail;
      e.preventDefault();
    }),
  );
  await book.press('Enter');
  expect(await page.evaluate(() => (window as unknown as { booked: unknown }).booked)).toEqual({
    place: 'pl_berlin',
    course: 'crs_open',
    class: 'cls_open_1',
  });
  expect(page.url()).toBe(`${SITE}/places.html`);
});

test('tiles that cannot load (no internet): the map says so in one line, markers and list keep working', async ({
  watched: page,
}) => {
  let asked = 0;
  await page.route('https://tile.openstreetmap.org/**', (route) => (asked++, route.abort('internetdisconnected')));
  await page.goto(`${SITE}/places-osm.html`);
  await ready(page);
  const widget = page.locator('service-map');
  await expect(widget.getByRole('status')).toHaveText(
    'The map’s background could not be loaded. The places and their markers still work.',
  );
  expect(asked).toBeGreaterThan(0);
  await expect(widget.getByText('Leaflet · © OpenStreetMap contributors')).toBeVisible();
  await widget.getByRole('list', { name: 'Places' }).getByRole('button', { name: 'Acme London' }).click();
  await expect(widget.locator('.leaflet-popup').getByRole('heading', { name: 'Acme London' })).toBeVisible();
  await expect(widget.locator('li[aria-current=true] h3')).toHaveText('Acme London');
});
