import type { Locator, Page, Route } from '@playwright/test';
import { expect, recordEvents, SERVICE, SITE, test } from './support.ts';

const ready = (page: Page) => expect(page.locator('div[data-service-widget=map]')).toHaveAttribute('data-service-state', 'ready');
const PLACES = ['Acme Berlin', 'Acme Hamburg', 'Acme Vienna', 'Acme London'];
type Box = { x: number; y: number; width: number; height: number };
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The boxes of a place's marker, of its popup (the one holding its heading: the last one may still be
 * fading out), the popup's tip and heading, the map and its zoom control, read at one moment (the map
 * may be panning).
 */
const boxesOf = (widget: Locator, name: string) =>
  widget.evaluate((el, name) => {
    const root = el.shadowRoot!;
    const box = (e: Element | null | undefined) => (e ? e.getBoundingClientRect().toJSON() : undefined) as Box;
    const popup = [...root.querySelectorAll('.leaflet-popup')].find((p) => p.querySelector('h3')?.textContent?.trim() === name);
    return {
      pin: box([...root.querySelectorAll('.leaflet-marker-icon')].find((m) => m.getAttribute('aria-label') === name)),
      popup: box(popup),
      tip: box(popup?.querySelector('.leaflet-popup-tip')),
      heading: box(popup?.querySelector('h3')),
      map: box(root.querySelector('.map')),
      zoom: box(root.querySelector('.leaflet-control-zoom')),
    };
  }, name);
/** Each marker lies inside the map's box. */
const expectMarkersInside = async (widget: Locator) => {
  for (const name of PLACES) {
    const { pin, map } = await boxesOf(widget, name);
    expect(inside(pin, map), `${name} inside the map`).toBe(true);
  }
};
/** Each marker is at its place: opened from the list, its popup's tip points at it (centred over it, touching its top). */
const expectMarkersInPlace = async (widget: Locator) => {
  for (const name of PLACES) {
    await widget.getByRole('list', { name: 'Places' }).getByRole('button', { name }).click();
    await expect(widget.locator('.leaflet-popup').getByRole('heading', { name })).toBeVisible();
    const { pin, tip } = await boxesOf(widget, name);
    expect(Math.abs(pin.x + pin.width / 2 - (tip.x + tip.width / 2)), `${name}: centred under the tip`).toBeLessThan(2);
    expect(Math.abs(pin.y - (tip.y + tip.height)), `${name}: right under the tip`).toBeLessThan(4);
  }
};

test('the places as a list, then a map whose markers agree with it; markers and popups by keyboard; list and map in step', async ({
  watched: page,
}) => {
  await page.goto(`${SITE}/places.html`);
  await ready(page);
  const widget = page.locator('service-map');
  const list = widget.getByRole('list', { name: 'Places' });
  await expect(list.locator(':scope > li h3')).toHaveText([...PLACES, 'Online']);
  // One marker per place on a map, each named after it, each at its place; online is on no map.
  const markers = widget.locator('.leaflet-marker-icon');
  await expect(markers).toHaveCount(4);
  expect(await markers.evaluateAll((els) => els.map((el) => [el.getAttribute('role'), el.getAttribute('aria-label')]))).toEqual(
    PLACES.map((name) => ['button', name]),
  );
  await expectMarkersInside(widget);
  // The tiles came (the service's plain tile), the attribution is the key's, and nothing of Leaflet's styles reached the page.
  await expect(widget.locator('.leaflet-tile-loaded').first()).toBeVisible();
  await expect(widget.getByText('Leaflet · Plain tiles of the reference service')).toBeVisible();
  await expect(widget.getByRole('status')).toHaveText('');
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
  const events = await recordEvents(page, 'service-place-selected');
  await page.keyboard.press('Enter');
  await expect.poll(events).toEqual([{ type: 'service-place-selected', detail: { id: 'pl_hamburg' } }]);
  const popup = widget.locator('.leaflet-popup');
  await expect(popup.getByRole('heading', { name: 'Acme Hamburg' })).toBeFocused();
  await expect(popup).toContainText('Am Sandtorkai 4, 20457 Hamburg');
  await expect(popup.getByRole('link', { name: /^Book TypeScript for teams/ }).first()).toBeVisible();
  await expect(list.locator('li[aria-current=true] h3')).toHaveText('Acme Hamburg');
  await page.keyboard.press('Escape');
  await expect(popup).toHaveCount(0);
  await expect(hamburg).toBeFocused();
  // Space opens it too, as it does any button.
  await page.keyboard.press('Space');
  await expect(popup.getByRole('heading', { name: 'Acme Hamburg' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(hamburg).toBeFocused();

  // Zoomed in twice by keyboard, the second time before the tiles of the first have come (a slow
  // tile server): those are given up. All under the page's CSP, which allows the tiles' host only
  // (site.mjs): a tile given up by setting it to anything else is a violation, which fails the test.
  const zoomOf = () =>
    widget.evaluate((el) =>
      // The zoom of the loaded tiles, once the map has finished zooming (NaN while it zooms).
      el.shadowRoot!.querySelector('.leaflet-zoom-anim')
        ? NaN
        : Math.max(
            ...[...el.shadowRoot!.querySelectorAll('img.leaflet-tile-loaded')].map((t) =>
              Number(t.getAttribute('src')!.split('/').at(-3)),
            ),
          ),
    );
  const z = await zoomOf();
  const held: Route[] = [];
  await page.route(`${SERVICE}/dev/tiles/${z + 1}/**`, (route) => void held.push(route));
  await widget.getByRole('button', { name: 'Zoom in' }).focus();
  await page.keyboard.press('Enter');
  // Once the first zoom's tiles are asked for (and held) and the map has finished zooming.
  await expect.poll(async () => (held.length ? widget.locator('.leaflet-zoom-anim').count() : -1)).toBe(0);
  await page.keyboard.press('Enter');
  await expect.poll(zoomOf).toBe(z + 2);
  // The requests given up may be gone already.
  await Promise.all(held.map((route) => route.continue().catch(() => undefined)));
  await expectMarkersInPlace(widget);
  // A tile given up is no tile that failed: the map does not say its tiles could not load.
  await expect(widget.locator('.leaflet-tile-loaded').first()).toBeVisible();
  await expect(widget.getByRole('status')).toHaveText('');

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

test('on a phone (375 px): markers at their places, and each popup within the map, its heading beside the zoom control, not under it', async ({
  watched: page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${SITE}/places.html`);
  await ready(page);
  const widget = page.locator('service-map');
  await expect(widget.locator('.leaflet-marker-icon')).toHaveCount(4);
  await expectMarkersInside(widget);
  // The first view's list has room for its first places under the map: the rest on asking.
  await widget.getByRole('button', { name: 'Show all 5 places' }).click();
  await expectMarkersInPlace(widget);
  for (const name of PLACES) {
    const button = widget.getByRole('list', { name: 'Places' }).getByRole('button', { name });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(widget.locator('.leaflet-popup').getByRole('heading', { name })).toBeVisible();
    // Once the map has moved the popup into view: all of it inside the map, the heading clear of the zoom control.
    await expect
      .poll(async () => {
        const { map, popup, heading, zoom } = await boxesOf(widget, name);
        return { inside: inside(popup, map), covered: overlap(heading, zoom) };
      }, name)
      .toEqual({ inside: true, covered: false });
  }
});

for (const width of [1280, 375]) {
  test(`a map without a booking page beside a checkout (${width} px): a class goes into the page’s cart, and on to the checkout`, async ({
    watched: page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${SITE}/all.html`);
    await ready(page);
    await expect(page.locator('div[data-service-widget=checkout]')).toHaveAttribute('data-service-state', 'ready');
    const map = page.locator('service-map');
    const checkout = page.locator('service-checkout');
    const add = map
      .getByRole('list', { name: 'Places' })
      .getByRole('button', { name: /^Add to cart: / })
      .first();
    const course = (await add.getAttribute('aria-label'))!.replace('Add to cart: ', '').split(',')[0]!;
    await add.click();
    const inCart = map.getByRole('list', { name: 'Places' }).locator('.in-cart');
    await expect(inCart).toBeFocused();
    await expect(inCart).toContainText('In your cart');
    await expect(checkout.getByRole('heading', { name: course })).toBeVisible();
    await inCart.getByRole('button', { name: 'Go to checkout' }).click();
    await expect(checkout.getByRole('heading', { name: 'Your cart' })).toBeFocused();
  });
}

test('a map far below the fold sets up its map (Leaflet, 50 KB) only when the visitor nears it', async ({ watched: page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const chunks: string[] = [];
  page.on('request', (request) => chunks.push(new URL(request.url()).pathname.split('/').pop()!));
  await page.goto(`${SITE}/all.html`);
  await ready(page);
  const map = page.locator('service-map');
  // Its list shows at once; the map's code has not been asked for.
  await expect(map.getByRole('list', { name: 'Places' })).toBeAttached();
  expect(chunks.filter((c) => c.startsWith('map-leaflet-'))).toEqual([]);
  expect(await map.evaluate((el) => !!el.shadowRoot!.querySelector('.leaflet-container'))).toBe(false);
  // Scrolled to it, the map is drawn with a marker for each place that has one (not the online one).
  await map.evaluate((el) => el.scrollIntoView());
  await expect(map.locator('.leaflet-marker-icon')).toHaveCount(PLACES.length);
  expect(chunks.filter((c) => c.startsWith('map-leaflet-'))).toHaveLength(1);
});
