import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import {
  darkPage,
  expectMinutesUntil,
  expectWholeItems,
  failOnWarnings,
  holdSeats,
  keyOf,
  ownMethods,
  service,
  settled,
  textOf,
  until,
} from '../../test/browser/support.ts';
import '../checkout/checkout.ts';
import { readState, writeState } from '../shared/page-state.ts';
import type { Cart } from '../shared/cart.ts';
import './map.ts';
import type { MapData, ServiceMap } from './map.ts';

failOnWarnings();

const mount = (key = keyOf('map'), locale = 'en', bookingUrl = 'https://shop.example/book', fetcher?: typeof fetch) =>
  fixture<ServiceMap>(
    html`<service-map key=${key} base-url=${service.url} locale=${locale} booking-url=${bookingUrl} .fetch=${fetcher}></service-map>`,
  );
/** The service's real first render, changed by `change` (a state the seed has no key for). */
const changed =
  (change: (data: MapData) => void): typeof fetch =>
  async (input, init) => {
    const data = (await (await fetch(input, init)).json()) as MapData;
    change(data);
    return Response.json(data);
  };
const box = (el: Element) => el.getBoundingClientRect();
const markers = (el: ServiceMap) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('.leaflet-marker-icon')];
/** The map's status line (the tiles or the map that could not load): its region is there from the first render. */
const status = (el: ServiceMap) => el.shadowRoot!.querySelector('.map-box [role=status]');
/** The button of a place in the list. */
const placeButton = (el: ServiceMap, name: string) =>
  [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.places h3 button')].find((b) => b.textContent!.trim() === name)!;
/** Whether a box lies wholly inside another. */
const inside = (inner: DOMRect, outer: DOMRect) =>
  inner.left >= outer.left - 0.5 &&
  inner.right <= outer.right + 0.5 &&
  inner.top >= outer.top - 0.5 &&
  inner.bottom <= outer.bottom + 0.5;
/** A marker's box with its focus ring (3 px, 2 px away). */
const ringed = (marker: Element) => {
  const { x, y, width, height } = box(marker);
  return new DOMRect(x - 5, y - 5, width + 10, height + 10);
};
/**
 * Resolves once the map is at rest: not panning (a popup's auto-pan: Leaflet marks its pane while it
 * moves), and nothing fading or zooming (CSS transitions).
 */
const still = (el: ServiceMap) =>
  until(
    () => !el.shadowRoot!.querySelector('.leaflet-pan-anim, .leaflet-zoom-anim') && !el.shadowRoot!.getAnimations().length,
    'the map at rest',
  );

describe('service-map', () => {
  it('lists the places first, then a marker per place with coordinates, named after it; accessible', async () => {
    const el = await settled(await mount());
    const names = [...el.shadowRoot!.querySelectorAll('.places > li h3')].map((h) => h.textContent!.trim());
    expect(names).to.deep.equal(['Acme Berlin', 'Acme Hamburg', 'Acme Vienna', 'Acme London', 'Online']);
    expect(textOf(el)).to.contain('No place on the map: these classes take place online.');
    await until(() => markers(el).length === 4);
    expect(markers(el).map((m) => m.getAttribute('aria-label'))).to.deep.equal(names.slice(0, 4));
    const book = el.shadowRoot!.querySelector<HTMLAnchorElement>('a.book')!;
    expect(book.href).to.equal('https://shop.example/book?course=crs_open&class=cls_open_1');
    await expect(el).to.be.accessible();
  });

  it('a marker chosen opens its popup with what the list item holds, and the list highlights the place; accessible', async () => {
    const el = await settled(await mount());
    await until(() => markers(el).length === 4);
    const selected = oneEvent(el, 'service-place-selected');
    markers(el)[2]!.click();
    expect((await selected).detail).to.deep.equal({ id: 'pl_vienna' });
    await until(() => !!el.shadowRoot!.querySelector('.leaflet-popup'));
    expect(el.shadowRoot!.querySelector('.leaflet-popup')!.textContent).to.contain('Mariahilfer Straße 10, 1070 Vienna');
    // In the page's font, as the rest of the widget (not Leaflet's Helvetica).
    expect(getComputedStyle(el.shadowRoot!.querySelector('.leaflet-popup-content')!).fontFamily).to.equal(
      getComputedStyle(el).fontFamily,
    );
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[aria-current=true] h3')!.textContent!.trim()).to.equal('Acme Vienna');
    await still(el);
    await expect(el).to.be.accessible();
  });

  it('side by side, a marker chosen scrolls its place into view within the list, and the page stays where it is', async () => {
    // The space the loader reserves: the list beside the map scrolls within it.
    const page = await fixture<HTMLElement>(
      html`<div style="width: 760px; font-size: 16px">
        <service-map key=${keyOf('map')} base-url=${service.url} style="display: block; min-height: 26.25em"></service-map>
      </div>`,
    );
    const el = await settled(page.querySelector<ServiceMap>('service-map')!);
    await until(() => markers(el).length === 4);
    const list = el.shadowRoot!.querySelector<HTMLElement>('.places')!;
    const last = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.places h3 button')].at(-1)!;
    expect(list.scrollHeight, 'the list scrolls within its part').to.be.above(list.clientHeight);
    expect(box(last).top, 'the last place out of the list’s view').to.be.above(box(list).bottom);
    const scrolled = scrollY;
    markers(el)
      .find((m) => m.getAttribute('aria-label') === last.textContent!.trim())!
      .click();
    await until(() => !!el.shadowRoot!.querySelector('.place.selected'), 'the place chosen');
    await until(() => {
      const item = box(el.shadowRoot!.querySelector('.place.selected')!);
      return item.top >= box(list).top - 1 && item.bottom <= box(list).bottom + 1;
    }, 'the place in the list’s view');
    expect(scrollY, 'the page not scrolled').to.equal(scrolled);
  });

  it('a class whose last seats are held by unpaid orders says for how long, in English and German, with no Book link; accessible', async () => {
    const hold = await holdSeats('cls_lead_2', 6);
    try {
      for (const [locale, pattern] of [
        ['en', /^Last seats held for unpaid orders – try again in (\d+) min$/],
        ['de', /^Letzte Plätze für unbezahlte Bestellungen reserviert – in (\d+) Min\. erneut versuchen$/],
      ] as const) {
        const el = await settled(await mount(keyOf('map'), locale));
        const held = el.data!.places.flatMap((p) => p.classes).find((c) => c.id === 'cls_lead_2')!;
        const line = [...el.shadowRoot!.querySelectorAll('.places .seats')].find((s) => pattern.test(s.textContent!.trim()))!;
        expect(line, textOf(el)).not.to.equal(undefined);
        expectMinutesUntil(Number(pattern.exec(line.textContent!.trim())![1]), held.held_until!);
        expect(line.closest('li')!.querySelector('a.book'), 'no Book while the seats are held').to.equal(null);
        await expect(el).to.be.accessible();
      }
    } finally {
      await hold.release();
    }
  });

  it('tiles that cannot load: one line says so, in German too, and the list stays; accessible', async () => {
    const el = await settled(await mount('wk_demo_map_offline', 'de'));
    // Its region is there, empty, before the line comes: a region that comes with its text may go unannounced.
    expect(status(el)?.textContent?.trim(), 'an empty status region before the tiles fail').to.equal('');
    await until(() => !!status(el)!.textContent!.trim());
    expect(status(el)!.textContent!.trim()).to.equal(
      'Der Kartenhintergrund konnte nicht geladen werden. Die Orte und ihre Markierungen funktionieren weiter.',
    );
    expect(textOf(el)).to.contain('Hier unterrichtet Acme Academy');
    expect(textOf(el)).to.contain('Buchen');
    await expect(el).to.be.accessible();
  });

  it('draws each marker inside the map, its point right under the tip of its popup', async () => {
    const el = await settled(await mount());
    await until(() => markers(el).length === 4);
    const map = box(el.shadowRoot!.querySelector('.map')!);
    for (const marker of markers(el)) {
      const { left, right, top, bottom } = box(marker);
      const name = marker.getAttribute('aria-label');
      expect(
        [left >= map.left, right <= map.right, top >= map.top, bottom <= map.bottom],
        `${name} inside the map`,
      ).to.deep.equal([true, true, true, true]);
    }
    // Each popup opens over its own marker: the marker's box stands centred under the popup's tip.
    for (const button of el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.places h3 button')) {
      button.click();
      const name = button.textContent!.trim();
      await until(() => el.shadowRoot!.querySelector('.leaflet-popup h3')?.textContent?.trim() === name);
      const marker = markers(el).find((m) => m.getAttribute('aria-label') === name)!;
      const tip = box(el.shadowRoot!.querySelector('.leaflet-popup-tip')!);
      const pin = box(marker);
      expect(Math.abs((pin.left + pin.right) / 2 - (tip.left + tip.right) / 2), `${name}: centred`).to.be.below(2);
      expect(pin.top - tip.bottom, `${name}: right under the tip`).to.be.within(-4, 4);
    }
  });

  it('Space opens a marker’s popup as Enter does; Escape closes it and the focus returns to the marker', async () => {
    const el = await settled(await mount());
    await until(() => markers(el).length === 4);
    const vienna = markers(el)[2]!;
    vienna.focus();
    const selected = oneEvent(el, 'service-place-selected');
    await sendKeys({ press: 'Space' });
    expect((await selected).detail).to.deep.equal({ id: 'pl_vienna' });
    await until(() => !!el.shadowRoot!.querySelector('.leaflet-popup'));
    expect(el.shadowRoot!.activeElement?.textContent?.trim()).to.equal('Acme Vienna');
    expect(el.shadowRoot!.activeElement?.localName).to.equal('h3');
    await sendKeys({ press: 'Escape' });
    await until(() => !el.shadowRoot!.querySelector('.leaflet-popup'));
    expect(el.shadowRoot!.activeElement).to.equal(vienna);
  });

  it('links “Book” to http(s) pages only: a relative booking-url is resolved against the page, a javascript: one, or one no browser can read, offers no link', async () => {
    const relative = await settled(await mount(keyOf('map'), 'en', 'book.html'));
    const href = relative.shadowRoot!.querySelector<HTMLAnchorElement>('a.book')!.getAttribute('href');
    expect(href).to.equal(new URL('book.html?course=crs_open&class=cls_open_1', location.href).href);
    // (`https://` and an impossible port: the map drew nothing, its first view threw.)
    for (const url of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,hello',
      'ftp://shop.example/',
      'https://',
      'https://shop.example:99999/book',
      'www.shop.example/book',
    ]) {
      const el = await settled(await mount(keyOf('map'), 'en', url));
      expect(el.shadowRoot!.querySelectorAll('a'), url).to.have.length(0);
      expect(textOf(el)).to.contain('Open day: meet the trainers');
    }
  });

  it('no places: says so, in English and German; accessible', async () => {
    for (const [locale, line] of [
      ['en', 'No places to show yet.'],
      ['de', 'Noch keine Orte.'],
    ]) {
      const el = await settled(
        await mount(
          keyOf('map'),
          locale,
          undefined,
          changed((data) => (data.places = [])),
        ),
      );
      expect(textOf(el)).to.contain(line);
      expect(markers(el)).to.have.length(0);
      await expect(el).to.be.accessible();
    }
  });

  it('a map that cannot be drawn (a tile address the map cannot fill): one line says so, the list stays; accessible', async () => {
    const broken = changed((data) => (data.widget.options.tiles!.url = 'dev/tiles/{z}/{x}/{y}/{unknown}.png'));
    for (const [locale, line] of [
      ['en', 'The map could not be loaded. The list of places still works.'],
      ['de', 'Die Karte konnte nicht geladen werden. Die Liste der Orte funktioniert weiter.'],
    ]) {
      const el = await settled(await mount(keyOf('map'), locale, undefined, broken));
      await until(() => !!status(el)?.textContent!.trim());
      expect(status(el)!.textContent!.trim()).to.equal(line);
      expect(el.shadowRoot!.querySelectorAll('.places > li')).to.have.length(5);
      await expect(el).to.be.accessible();
    }
  });

  it('without a booking page but with a checkout on the page, a class with seats goes into the page’s cart, in English and German; accessible', async () => {
    const cart = () => readState<Cart>('cart', service.url, 'c_acme');
    const addButtons = (el: Element) =>
      [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.places button.secondary')].filter((b) => b.closest('.classes'));
    for (const [locale, add, inCart] of [
      ['en', 'Add to cart', 'In your cart'],
      ['de', 'In den Warenkorb', 'Im Warenkorb'],
    ] as const) {
      writeState('cart', service.url, 'c_acme');
      const el = await settled(await mount(keyOf('map'), locale, ''));
      // Without a booking page and without a checkout: no way to book, and no link that leads nowhere.
      expect(addButtons(el)).to.have.length(0);
      expect(!!el.shadowRoot!.querySelector('a.book'), 'a Book link').to.equal(false);
      const checkout = Object.assign(document.createElement('service-checkout'), {
        key: keyOf('checkout'),
        baseUrl: service.url,
      });
      document.body.append(checkout);
      try {
        await until(() => addButtons(el).length > 0, 'the cart’s way to book, once a checkout is on the page');
        const place = el.data!.places.find((p) => p.classes.some((c) => c.status === 'open'))!;
        const cls = place.classes.find((c) => c.status === 'open')!;
        const button = addButtons(el).find((b) => b.closest(`#place-${place.id}`))!;
        expect(button.textContent!.trim()).to.equal(add);
        expect(button.getAttribute('aria-label')).to.contain(cls.course.title);
        // Only classes with seats: a full class or its waitlist is no order of seats.
        expect(addButtons(el).length).to.equal(
          el.data!.places.flatMap((p) => p.classes).filter((c) => c.status === 'open').length,
        );
        await expect(el).to.be.accessible();

        const requested = oneEvent(el, 'service-booking-requested');
        button.click();
        expect((await requested).detail).to.deep.equal({ place: place.id, course: cls.course.id, class: cls.id });
        await until(() => el.shadowRoot!.activeElement?.id === `in-${cls.id}`, 'the focus on what the map says of it');
        expect(el.shadowRoot!.activeElement!.textContent).to.contain(inCart);
        expect(cart()!.lines.map((l) => [l.class_id, l.seats, l.location])).to.deep.equal([[cls.id, 1, place.name]]);
        // The checkout shows it.
        await until(() => checkout.shadowRoot!.textContent!.includes(cls.course.title), 'the class in the checkout');
        await expect(el).to.be.accessible();
      } finally {
        checkout.remove();
        el.remove();
      }
    }
    writeState('cart', service.url, 'c_acme');
  });

  it('a page that keeps its visitor (preventDefault on service-booking-requested) keeps the cart as it is', async () => {
    writeState('cart', service.url, 'c_acme');
    const el = await settled(await mount(keyOf('map'), 'en', ''));
    const checkout = Object.assign(document.createElement('service-checkout'), { key: keyOf('checkout'), baseUrl: service.url });
    document.body.append(checkout);
    try {
      await until(() => !!el.shadowRoot!.querySelector('.classes button.secondary'), 'Add to cart');
      el.addEventListener('service-booking-requested', (event) => event.preventDefault(), { once: true });
      el.shadowRoot!.querySelector<HTMLButtonElement>('.classes button.secondary')!.click();
      await el.updateComplete;
      expect(readState<Cart>('cart', service.url, 'c_acme')?.lines ?? []).to.have.length(0);
    } finally {
      checkout.remove();
    }
  });

  /** The map as a phone shows it: 375 px wide (or `width`), in the 420 px its loader reserves. */
  const mountPhone = async (locale = 'en', width = 375) => {
    const page = await fixture<HTMLElement>(
      html`<div style="width: ${width}px; font-size: 16px">
        <service-map key=${keyOf('map')} base-url=${service.url} locale=${locale} style="display: block; min-height: 26.25em"></service-map>
      </div>`,
    );
    const el = await settled(page.querySelector('service-map')!);
    await until(() => markers(el).length === 4);
    return el;
  };

  for (const [locale, showAll] of [
    ['en', 'Show all 5 places'],
    ['de', 'Alle 5 Orte zeigen'],
  ] as const) {
    it(`at 375 px (${locale}), held to its 420 px, the list under the map shows whole places, and “${showAll}” the rest; accessible`, async () => {
      const el = await mountPhone(locale);
      const shown = await expectWholeItems(el);
      expect(Math.round(box(el).height), 'the page below did not move').to.equal(420);
      expect(shown.filter((li) => li.matches('.place')).length).to.be.within(1, 4);
      const more = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.more button')].find(
        (b) => b.textContent!.trim() === showAll,
      )!;
      expect(!!more, showAll).to.equal(true);
      await expect(el).to.be.accessible();
      more.click();
      // The view is fitted again before the next frame is painted.
      await until(
        () => [...el.shadowRoot!.querySelectorAll('.places > li')].filter((li) => li.getClientRects().length).length === 5,
        'every place shown',
      );
      expect(el.shadowRoot!.activeElement?.localName, 'the focus on the heading').to.equal('h2');
      expect(box(el).height).to.be.above(420);
    });
  }

  it('on a narrow phone (256 px: 320 less wide page margins), where not even the first place fits, the map grows by what it lacks: that place whole, “Show all” below it', async () => {
    const el = await mountPhone('en', 256);
    const shown = await expectWholeItems(el);
    const places = shown.filter((li) => li.matches('.place'));
    expect(places.length).to.equal(1);
    const more = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.more button')].find(
      (b) => b.textContent!.trim() === 'Show all 5 places',
    )!;
    expect(!!more, 'Show all 5 places').to.equal(true);
    expect(box(places[0]!).bottom, 'the place above “Show all”, not under it').to.be.at.most(box(more).top);
    expect(box(el).height).to.be.above(420);
    await still(el);
    await expect(el).to.be.accessible();
  });

  for (const [how, choose] of [
    ['in the list', (el: ServiceMap) => el.shadowRoot!.querySelector<HTMLButtonElement>('.places h3 button')!.click()],
    // (Leaflet's marker opens on Enter with no click: the view was held, the map short, the popup cut.)
    [
      'by Enter on its marker',
      async (el: ServiceMap) => {
        // The list's first place: under the grown map, its item ends below the page's fold.
        const first = el.shadowRoot!.querySelector('.places h3 button')!.textContent!.trim();
        markers(el)
          .find((m) => m.getAttribute('aria-label') === first)!
          .focus();
        await sendKeys({ press: 'Enter' });
      },
    ],
  ] as const) {
    it(`at 375 px, once the visitor chooses a place ${how}, the map grows to hold its popup whole, and the list shows whole below it; the page stays where it is`, async () => {
      // Text above the widget: the chosen place's list item, under the grown map, ends below the fold.
      const above = document.body.insertBefore(document.createElement('div'), document.body.firstChild);
      above.style.height = '150px';
      try {
        const el = await mountPhone();
        const places = el.shadowRoot!.querySelector<HTMLElement>('.places')!;
        const scrolled = scrollY;
        await choose(el);
        await until(() => !!el.shadowRoot!.querySelector('.leaflet-popup'), 'the popup');
        const mapBox = el.shadowRoot!.querySelector<HTMLElement>('.map-box')!;
        await until(() => box(mapBox).height >= 380, 'the map grown');
        // The popup whole inside the map (Leaflet pans it in), its content not scrolling.
        await until(() => {
          const popup = box(el.shadowRoot!.querySelector('.leaflet-popup')!);
          const map = box(mapBox);
          return popup.top >= map.top && popup.bottom <= map.bottom && popup.left >= map.left && popup.right <= map.right;
        }, 'the popup inside the map');
        const content = el.shadowRoot!.querySelector<HTMLElement>('.leaflet-popup-content')!;
        expect(content.scrollHeight, 'the popup shows all it holds').to.be.at.most(content.clientHeight + 1);
        expect(places.scrollHeight, 'the whole list').to.be.at.most(places.clientHeight + 1);
        expect(box(el).height).to.be.above(420);
        await still(el);
        // Not scrolled to the place's list item, below the map: that took the popup out of sight.
        expect(scrollY, 'the page not scrolled').to.equal(scrolled);
        if (how !== 'in the list') {
          expect(box(el.shadowRoot!.querySelector('.place.selected')!).bottom).to.be.above(innerHeight);
          // By Enter, the focus is in the popup, on its heading, though the map grew round it.
          expect(el.shadowRoot!.activeElement?.matches('.leaflet-popup h3')).to.equal(true);
        }
        await expect(el).to.be.accessible();
      } finally {
        above.remove();
      }
    });
  }

  it('shows a place on the map by a button that looks like one (not like a link), pressed while shown', async () => {
    const el = await settled(await mount());
    await until(() => markers(el).length === 4);
    const vienna = placeButton(el, 'Acme Vienna');
    const look = () => getComputedStyle(vienna);
    expect(look().textDecorationLine, 'not underlined as a link').to.equal('none');
    expect(look().borderTopStyle, 'a button’s edge').to.equal('solid');
    expect(vienna.getAttribute('aria-pressed')).to.equal('false');
    vienna.click();
    await el.updateComplete;
    expect(vienna.getAttribute('aria-pressed')).to.equal('true');
    // Pressed, it is filled: its fill differs from the page's.
    expect(look().backgroundColor).not.to.equal('rgba(0, 0, 0, 0)');
    await until(() => !!el.shadowRoot!.querySelector('.leaflet-popup'));
    await still(el);
    await expect(el).to.be.accessible();
  });

  it('leaves the markers that a popup’s auto-pan moved out of the map out of the Tab order', async () => {
    // A phone's width, where opening Hamburg's popup pans the others out of the map's short box.
    const el = await settled(await mount());
    el.style.width = '343px';
    await until(() => markers(el).length === 4);
    placeButton(el, 'Acme Hamburg').click();
    await until(() => !!el.shadowRoot!.querySelector('.leaflet-popup'));
    await still(el);
    const map = box(el.shadowRoot!.querySelector('.map')!);
    expect(
      markers(el).some((m) => !inside(ringed(m), map)),
      'a marker out of the map',
    ).to.equal(true);
    // Shift+Tab from the popup's heading goes through the markers to the map: each one it reaches is in sight.
    el.shadowRoot!.querySelector<HTMLElement>('.leaflet-popup h3')!.focus();
    const reached: string[] = [];
    for (;;) {
      await sendKeys({ press: 'Shift+Tab' });
      const focused = el.shadowRoot!.activeElement as HTMLElement;
      if (!focused.classList.contains('leaflet-marker-icon')) break;
      reached.push(focused.getAttribute('aria-label')!);
      expect(inside(ringed(focused), map), `${focused.getAttribute('aria-label')} in sight`).to.equal(true);
    }
    expect(reached).to.deep.equal(
      markers(el)
        .filter((m) => inside(ringed(m), map))
        .map((m) => m.getAttribute('aria-label'))
        .reverse(),
    );
    // Zoomed out, the markers back in sight are Tab stops again, and only they.
    const out = markers(el).filter((m) => !inside(ringed(m), map));
    el.shadowRoot!.querySelector<HTMLElement>('.leaflet-control-zoom-out')!.click();
    await until(() => out.some((m) => inside(ringed(m), box(el.shadowRoot!.querySelector('.map')!))), 'a marker back in sight');
    await still(el);
    for (const marker of markers(el))
      expect(marker.tabIndex, marker.getAttribute('aria-label')!).to.equal(
        inside(ringed(marker), box(el.shadowRoot!.querySelector('.map')!)) ? 0 : -1,
      );
  });

  describe('under prefers-reduced-motion: reduce', () => {
    before(() => emulateMedia({ reducedMotion: 'reduce' }));
    after(() => emulateMedia({ reducedMotion: 'no-preference' }));

    it('nothing fades, zooms or pans by animation: a popup and a zoom are there at once', async () => {
      const el = await settled(await mount());
      el.style.width = '343px';
      await until(() => markers(el).length === 4);
      await still(el);
      placeButton(el, 'Acme Hamburg').click();
      await until(() => !!el.shadowRoot!.querySelector('.leaflet-popup'));
      expect(el.shadowRoot!.getAnimations(), 'no fade').to.deep.equal([]);
      // Panned into the map at once, not over a quarter of a second.
      expect(inside(box(el.shadowRoot!.querySelector('.leaflet-popup')!), box(el.shadowRoot!.querySelector('.map')!))).to.equal(
        true,
      );
      el.shadowRoot!.querySelector<HTMLElement>('.leaflet-control-zoom-in')!.click();
      await new Promise(requestAnimationFrame);
      expect(el.shadowRoot!.getAnimations(), 'no zoom').to.deep.equal([]);
    });
  });

  it('reads well on a dark page: the markers’ rings (on the map, a light surface), the list and the popups keep their contrast', async () => {
    const page = await darkPage(
      html`<service-map key=${keyOf('map')} base-url=${service.url} locale="en" booking-url="https://shop.example/book"></service-map>`,
    );
    const el = await settled(page.querySelector('service-map')!);
    await until(() => markers(el).length === 4);
    await expect(page).to.be.accessible();
    placeButton(el, 'Acme Berlin').click();
    await until(() => !!el.shadowRoot!.querySelector('.leaflet-popup'));
    await still(el);
    await expect(page).to.be.accessible();
  });

  it('has no public method for its map: only the hooks of Lit and of the base (the map gets callbacks)', () => {
    expect(ownMethods(customElements.get('service-map')!)).to.deep.equal([]);
  });
});
