import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { executeServerCommand, sendKeys, setViewport } from '@web/test-runner-commands';
import type { CalendarResponse } from '../../contract/api/index.ts';
import { readState, writeState } from '../shared/page-state.ts';
import type { Cart } from '../shared/cart.ts';
import {
  backdrop,
  contrast,
  darkPage,
  dev,
  expectFaults,
  expectMinutesUntil,
  expectWholeItems,
  failOnWarnings,
  FORM_WORDS,
  holdSeats,
  keyOf,
  ownMethods,
  paint,
  reserve,
  service,
  settled,
  textOf,
  until,
} from '../../test/browser/support.ts';
import './calendar.ts';
import '../checkout/checkout.ts';

failOnWarnings();

const KEY = keyOf('calendar');
const COMPANY = 'c_acme';

/** A fetch that forwards to the real one and remembers each URL it was asked for. */
const countingFetch = () => {
  const calls: string[] = [];
  const fetcher: typeof fetch = (input, init) => {
    calls.push(String(input));
    return fetch(input, init);
  };
  return Object.assign(fetcher, { calls, months: () => calls.map((url) => new URL(url).searchParams.get('month')) });
};

/** The service's answer for a month, asked directly (what the widget must show). */
const monthOf = async (month = '', params: Record<string, string> = {}, baseUrl = service.url) => {
  const url = new URL('widget-api/v1/calendar', baseUrl);
  for (const [name, value] of Object.entries({ key: KEY, month, ...params })) if (value) url.searchParams.set(name, value);
  return (await (await fetch(url)).json()) as CalendarResponse;
};

const mount = async (
  attributes: {
    course?: string;
    location?: string;
    locale?: string;
    fetch?: typeof fetch;
    width?: number;
    baseUrl?: string;
    checkoutUrl?: string;
  } = {},
) => {
  const { course = '', location = '', locale = 'en', fetch, width = 900, baseUrl = service.url, checkoutUrl = '' } = attributes;
  const page = await fixture<HTMLElement>(
    html`<div style="width: ${width}px">
      <service-calendar
        key=${KEY}
        base-url=${baseUrl}
        locale=${locale}
        course=${course}
        location=${location}
        checkout-url=${checkoutUrl}
        .fetch=${fetch}
      ></service-calendar>
    </div>`,
  );
  return settled(page.querySelector('service-calendar')!);
};

/**
 * Mounted at the first month that has classes (the month of the service's today has none when the
 * tests run late in a month: the seed's classes start 3 days after it).
 */
interface ClassFacts {
  status: string;
  price: { amount: number };
  seats_left: number;
}
/** Which classes a test needs in its month (default: one open for booking). */
const isOpen = (c: ClassFacts) => c.status === 'open';

/**
 * Mounted on the first month that holds a class the test needs: near a month's end, the service's
 * current month may hold only classes that are full or past.
 */
const mountWithClasses = async (attributes: Parameters<typeof mount>[0] = {}, wanted: (c: ClassFacts) => boolean = isOpen) => {
  const el = await mount(attributes);
  for (let i = 0; i < 4 && !el.data!.classes.some(wanted) && el.data!.next_month; i++) {
    const from = el.data!.month;
    // An empty month offers its next month with classes; one with classes, the month after.
    onward(el, attributes.locale).click();
    await until(() => el.data!.month !== from);
    await el.updateComplete;
  }
  return el;
};

/** The way to the next month with classes, in the widget's language: an empty month's own offer, else "Next month". */
const onward = (el: HTMLElementTagNameMap['service-calendar'], locale = 'en') => {
  const next = el.data!.next_month!;
  const de = locale === 'de';
  return (
    (!el.data!.classes.length && button(el, de ? `${monthName(next, 'de')} zeigen` : `Show ${monthName(next)}`)) ||
    button(el, de ? 'Nächster Monat' : 'Next month')
  );
};

/** The service's first month with a class the test needs (the month `mountWithClasses` shows). */
const firstMonthWithClasses = async (wanted: (c: ClassFacts) => boolean = isOpen) => {
  let answer = await monthOf();
  // As the widget goes: an empty month to its next month with classes, one with classes to the month after.
  for (let i = 0; i < 4 && !answer.classes.some(wanted) && answer.next_month; i++) {
    answer = await monthOf(answer.classes.length ? nextMonth(answer.month) : answer.next_month);
  }
  return answer;
};

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const $$ = <T extends Element = HTMLElement>(el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<T>(selector)];
const button = (el: Element, name: string) =>
  $$<HTMLButtonElement>(el, 'button').find((b) => (b.getAttribute('aria-label') ?? b.textContent!.trim()) === name)!;
const cell = (el: Element, day: string) => $(el, `[data-day="${day}"]`);
const focusedDay = (el: Element) => (el.shadowRoot!.activeElement as HTMLElement | null)?.dataset.day;
const addDays = (day: string, n: number) => new Date(Date.parse(day) + n * 864e5).toISOString().slice(0, 10);
const nextMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 7);
};
const monthName = (month: string, locale = 'en') =>
  new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.parse(month + '-01'));

describe('service-calendar', () => {
  afterEach(() => writeState('cart', service.url, COMPANY));

  it('shows the month of the service’s today as a grid, each day named with its date and how many classes it holds', async () => {
    const expected = await firstMonthWithClasses();
    const el = await mountWithClasses();
    expect($(el, '#month').textContent).to.equal(monthName(expected.month));
    expect($$(el, 'table[role=grid] td[role=gridcell]').length).to.be.greaterThan(27);
    const first = expected.classes[0]!;
    const held = expected.classes.filter((c) => c.local_date === first.local_date).length;
    const label = cell(el, first.local_date).querySelector('.visually-hidden')!.textContent!;
    expect(label).to.contain(
      new Intl.DateTimeFormat('en', { dateStyle: 'full', timeZone: 'UTC' }).format(Date.parse(first.local_date)),
    );
    expect(label).to.match(new RegExp(`, ${held} class(es)?$`));
    expect(textOf(el)).to.contain(first.course_title);
    await expect(el).to.be.accessible();
  });

  it('reads well on a dark page: the chosen day’s frame, the view shown and every focus ring keep their contrast', async () => {
    const page = await darkPage(
      html`<div style="width: 760px"><service-calendar key=${KEY} base-url=${service.url} locale="en"></service-calendar></div>`,
    );
    const el = await settled(page.querySelector('service-calendar')!);
    // The chosen day is framed inside in the link colour (3:1 against the page at least); its focus
    // ring is checked by accessible() on every Tab stop.
    const chosen = el.shadowRoot!.querySelector<HTMLElement>('[aria-selected=true]')!;
    const frame = getComputedStyle(chosen).boxShadow.replace(/\s-?[\d.]+px.*$/, '');
    expect(contrast(paint(frame), backdrop(chosen)), frame).to.be.at.least(3);
    await expect(page).to.be.accessible();
    button(el, 'List').click();
    await el.updateComplete;
    expect(button(el, 'List').getAttribute('aria-pressed')).to.equal('true');
    await expect(page).to.be.accessible();
  });

  it('shows a day’s classes with the venue’s time named, the visitor’s own time, place, lecturer, price and seats', async () => {
    const expected = await firstMonthWithClasses();
    const el = await mountWithClasses();
    const cls = expected.classes.find((c) => c.lecturers.length) ?? expected.classes[0]!;
    cell(el, cls.local_date).click();
    await el.updateComplete;
    const text = textOf(el);
    // The venue's time, its zone named by its offset as in every widget ("GMT+1"), then the visitor's own.
    const zone = (timeZone?: string) =>
      new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'shortOffset' })
        .formatToParts(new Date(cls.starts_at))
        .find((part) => part.type === 'timeZoneName')!.value;
    const times = (timeZone?: string) =>
      `${new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit', timeZone }).formatRange(new Date(cls.starts_at), new Date(cls.ends_at))} ${zone(timeZone)}`;
    expect(text).to.contain(times(cls.timezone));
    expect(text).not.to.match(/ time\b(?!:)/);
    expect(text).to.contain(cls.location);
    if (cls.lecturers.length) expect(text).to.contain(`with ${cls.lecturers[0]!.name}`);
    if (zone() !== zone(cls.timezone)) expect(text).to.contain(`(your time: ${times()})`);
    expect(text).to.match(/Seats left: \d+|Full/);
  });

  it('follows the ARIA grid pattern: arrows, Home and End, Page Up and Down, the focus on the same day across a month', async () => {
    const el = await mount();
    const start = $(el, 'td[tabindex="0"]');
    const day = start.dataset.day!;
    start.focus();
    await sendKeys({ press: 'ArrowRight' });
    await until(() => focusedDay(el) !== day);
    const right = new Date(Date.parse(day) + 864e5).toISOString().slice(0, 10);
    expect(focusedDay(el)).to.equal(right);
    expect($(el, `[data-day="${right}"]`).getAttribute('aria-selected')).to.equal('true');
    expect($$(el, 'td[tabindex="0"]')).to.have.length(1);
    // Its focus ring stays out of the next day's content (the cells' padding): at 320 px the days are narrow.
    const cell = $(el, `[data-day="${right}"]`);
    expect(cell.matches(':focus-visible')).to.equal(true);
    const ring = getComputedStyle(cell);
    const outward = parseFloat(ring.outlineWidth) + parseFloat(ring.outlineOffset);
    expect(outward, 'how far the ring reaches out of its cell').to.be.above(0).and.at.most(parseFloat(ring.paddingLeft));

    await sendKeys({ press: 'ArrowLeft' });
    await until(() => focusedDay(el) === day);
    await sendKeys({ press: 'ArrowDown' });
    await until(() => focusedDay(el) !== day);
    expect(Date.parse(focusedDay(el)!) - Date.parse(day)).to.equal(7 * 864e5);
    await sendKeys({ press: 'ArrowUp' });
    await until(() => focusedDay(el) === day);

    // Page Down: the same day of the next month (or its last), focused there, its month shown.
    const month = day.slice(0, 7);
    await sendKeys({ press: 'PageDown' });
    await until(() => focusedDay(el)?.startsWith(nextMonth(month)) ?? false);
    expect(focusedDay(el)!.slice(8)).to.equal(day.slice(8) > '28' ? focusedDay(el)!.slice(8) : day.slice(8));
    expect($(el, '#month').textContent).to.equal(monthName(nextMonth(month)));
    await sendKeys({ press: 'PageUp' });
    await until(() => focusedDay(el) === day);
    expect($(el, '#month').textContent).to.equal(monthName(month));

    // Home and End: the ends of the week (Monday to Sunday), in another month if the week runs into it.
    const monday = addDays(day, -((new Date(Date.parse(day)).getUTCDay() + 6) % 7));
    await sendKeys({ press: 'Home' });
    await until(() => focusedDay(el) === monday);
    await sendKeys({ press: 'End' });
    await until(() => focusedDay(el) === addDays(monday, 6));
  });

  it('fetches each month once, and the next month ahead while the browser is idle', async () => {
    const fetcher = countingFetch();
    const el = await mount({ fetch: fetcher });
    const month = el.data!.month;
    await until(() => fetcher.months().includes(nextMonth(month)));
    button(el, 'Next month').click();
    await until(() => el.data!.month === nextMonth(month));
    button(el, 'Previous month').click();
    await until(() => el.data!.month === month);
    button(el, 'Next month').click();
    await until(() => el.data!.month === nextMonth(month));
    const asked = fetcher.months();
    expect(asked.filter((m) => m === nextMonth(month))).to.have.length(1);
    expect(asked.filter((m) => !m || m === month)).to.have.length(1);
  });

  it('filters by programme and by place, from the visitor’s choice and from its options changing live', async () => {
    const all = await firstMonthWithClasses();
    const course = all.filters.courses.find((c) => all.classes.some((cl) => cl.course_id === c.id))!;
    const fetcher = countingFetch();
    const el = await mountWithClasses({ fetch: fetcher });
    const select = $<HTMLSelectElement>(el, '#programme');
    select.value = course.id;
    select.dispatchEvent(new Event('change'));
    await until(() => el.data!.classes.every((c) => c.course_id === course.id));
    const shown = $$(el, 'td .title').map((t) => t.textContent);
    expect(shown.every((title) => title === course.title || title!.startsWith('+'))).to.equal(true);

    // The owner's option changes live; the visitor's choice of programme stays.
    el.location = 'Vienna';
    await el.updateComplete;
    await settled(el);
    expect(new URL(fetcher.calls.at(-1)!).searchParams.get('location')).to.equal('Vienna');
    expect(el.data!.classes.every((c) => c.location.includes('Vienna') && c.course_id === course.id)).to.equal(true);
    expect($<HTMLSelectElement>(el, '#programme').value).to.equal(course.id);

    // The place select says the owner's filter, and "All places" lifts it.
    const place = $<HTMLSelectElement>(el, '#place');
    expect(place.selectedOptions[0]!.textContent!.trim()).to.equal('Vienna');
    place.value = '';
    place.dispatchEvent(new Event('change'));
    await until(() => new URL(fetcher.calls.at(-1)!).searchParams.get('location') === null);
    await until(() => el.data!.classes.some((c) => !c.location.includes('Vienna')));
    expect($<HTMLSelectElement>(el, '#place').value).to.equal('');
  });

  it('shows the answer of the filters last chosen, whatever order the answers come in', async () => {
    const all = await firstMonthWithClasses();
    const [slow, fast] = all.filters.courses.filter((c) => all.classes.some((cl) => cl.course_id === c.id));
    expect(fast, 'two programmes with classes this month').to.not.equal(undefined);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let slowAnswered!: Promise<unknown>;
    const fetcher: typeof fetch = (input, init) => {
      if (new URL(String(input)).searchParams.get('course') !== slow!.id) return fetch(input, init);
      const answer = held.then(() => fetch(input, init));
      slowAnswered ??= answer.then((r) => r.clone().json());
      return answer;
    };
    const el = await mountWithClasses({ fetch: fetcher });
    const select = $<HTMLSelectElement>(el, '#programme');
    select.value = slow!.id;
    select.dispatchEvent(new Event('change'));
    select.value = fast!.id;
    select.dispatchEvent(new Event('change'));
    await until(() => !!el.data!.classes.length && el.data!.classes.every((c) => c.course_id === fast!.id));
    // The slow answer comes now, after the other: it does not replace what shows.
    release();
    await slowAnswered;
    await el.updateComplete;
    expect(el.data!.classes.every((c) => c.course_id === fast!.id)).to.equal(true);
    expect($<HTMLSelectElement>(el, '#programme').value).to.equal(fast!.id);
    // The slow answer is kept as its own filters' (not this month's of the other programme).
    select.value = slow!.id;
    select.dispatchEvent(new Event('change'));
    await until(() => el.data!.classes.every((c) => c.course_id === slow!.id));
    select.value = fast!.id;
    select.dispatchEvent(new Event('change'));
    await until(() => el.data!.classes.every((c) => c.course_id === fast!.id));
  });

  it('says when a month is empty and offers the next month that has classes', async () => {
    // The seed leaves at least one whole month without classes before a later one that has some.
    let month = (await monthOf()).month;
    let answer = await monthOf(month);
    for (let i = 0; i < 12 && answer.classes.length; i++) answer = await monthOf((month = nextMonth(month)));
    expect(answer.classes, `an empty month within a year of ${month}`).to.have.length(0);
    expect(answer.next_month).to.be.a('string');

    const el = await mount();
    while (el.data!.month !== month) {
      button(el, 'Next month').click();
      await until(() => !el.shadowRoot!.querySelector('[aria-busy=true]'));
    }
    expect(textOf(el)).to.contain(`No classes in ${monthName(month)}.`);
    await expect(el).to.be.accessible();
    button(el, `Show ${monthName(answer.next_month!)}`).click();
    await until(() => el.data!.month === answer.next_month && !el.shadowRoot!.querySelector('[aria-busy=true]'));
    expect(el.data!.classes.length).to.be.greaterThan(0);
    // The button went with the notice: the focus is on the month shown (it was lost to the page's body).
    expect(el.shadowRoot!.activeElement?.id).to.equal('month');
    expect(el.shadowRoot!.activeElement!.textContent).to.equal(monthName(answer.next_month!));
    expect($(el, 'td[tabindex="0"]').dataset.day).to.equal(el.data!.classes[0]!.local_date);
  });

  it('gives each filter a row of its own where two would cut their words (304 px, German), and sets them side by side where they fit', async () => {
    const rows = async (width: number) => {
      const el = await mount({ locale: 'de', width });
      const [programme, place] = ['#programme', '#place'].map((id) => $(el, id).getBoundingClientRect());
      // ("Alle Programme" was cut to "Alle Programm" in a select of 144 px.)
      return programme!.top === place!.top ? 'one row' : 'a row each';
    };
    expect(await rows(304)).to.equal('a row each');
    expect(await rows(343)).to.equal('one row');
  });

  it('shows the month as a list on a narrow page, and the visitor can switch', async () => {
    await setViewport({ width: 375, height: 800 });
    try {
      const el = await mountWithClasses({ width: 343 });
      expect(el.shadowRoot!.querySelector('table')).to.equal(null);
      expect($(el, '[aria-pressed=true]').textContent!.trim()).to.equal('List');
      const first = el.data!.classes[0]!;
      expect(textOf(el)).to.contain(first.course_title);
      await expect(el).to.be.accessible();
      button(el, 'Month').click();
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('table[role=grid]')).not.to.equal(null);
    } finally {
      await setViewport({ width: 1280, height: 800 });
    }
  });

  it('books a class into the page’s cart and tells the page, the focus on what it says then', async () => {
    const el = await mountWithClasses();
    const open = el.data!.classes.find((c) => c.status === 'open')!;
    cell(el, open.local_date).click();
    await el.updateComplete;
    const book = $<HTMLButtonElement>(el, `button[aria-describedby="c-${open.id}"]`);
    const selected = oneEvent(el, 'service-class-selected');
    book.click();
    const { detail } = await selected;
    const cls = el.data!.classes.find((c) => c.id === detail.class)!;
    expect(detail).to.deep.equal({ class: cls.id, course: cls.course_id, starts_at: cls.starts_at });
    await until(() => el.shadowRoot!.activeElement?.id === `in-${cls.id}`);
    expect(textOf(el)).to.contain('In your cart');
    const cart = readState<Cart>('cart', service.url, COMPANY)!;
    expect(cart.lines.map((l) => [l.class_id, l.seats])).to.deep.equal([[cls.id, 1]]);
    await expect(el).to.be.accessible();
  });

  it('offers a way to a checkout of the page’s cart once one is on the page: it takes the focus there', async () => {
    const el = await mountWithClasses();
    const open = el.data!.classes.find((c) => c.status === 'open')!;
    cell(el, open.local_date).click();
    await el.updateComplete;
    $<HTMLButtonElement>(el, `button[aria-describedby="c-${open.id}"]`).click();
    await until(() => el.shadowRoot!.activeElement?.id === `in-${open.id}`, 'the class in the cart');
    // No checkout on the page: no way to one.
    expect(textOf(el)).not.to.contain('Go to checkout');
    const checkout = Object.assign(document.createElement('service-checkout'), { key: keyOf('checkout'), baseUrl: service.url });
    document.body.append(checkout);
    try {
      await until(() => textOf(el).includes('Go to checkout'), 'the way to the checkout that came');
      await expect(el).to.be.accessible();
      // It counts from its first answer on; its heading, which takes the focus, shows once it is ready.
      await settled(checkout);
      button(el, 'Go to checkout').click();
      // (Booleans: a failed comparison of elements would have the test runner serialise the whole page.)
      expect(document.activeElement === checkout, 'the focus is in the checkout').to.equal(true);
      expect(checkout.shadowRoot!.activeElement!.textContent).to.equal('Your cart');
    } finally {
      checkout.remove();
    }
  });

  for (const locale of ['en', 'de'])
    it(`with no checkout on the page, a class booked links to the site’s checkout page (checkout-url), in ${locale}`, async () => {
      const [inCart, toCheckout] = locale === 'de' ? ['Im Warenkorb', 'Zur Kasse'] : ['In your cart', 'Go to checkout'];
      const el = await mountWithClasses({ locale, checkoutUrl: 'checkout.html?from=calendar' });
      const open = el.data!.classes.find((c) => c.status === 'open')!;
      cell(el, open.local_date).click();
      await el.updateComplete;
      $<HTMLButtonElement>(el, `button[aria-describedby="c-${open.id}"]`).click();
      await until(() => el.shadowRoot!.activeElement?.id === `in-${open.id}`, 'the class in the cart');
      const link = $<HTMLAnchorElement>(el, `#in-${open.id} a`);
      expect(link.textContent).to.equal(toCheckout);
      // The cart's classes go with it (a new tab opens the page without the tab's cart).
      const href = new URL(link.href);
      expect(href.origin + href.pathname).to.equal(new URL('checkout.html', location.href).href);
      expect([...href.searchParams]).to.deep.equal([
        ['from', 'calendar'],
        ['service-class', open.id],
      ]);
      expect(textOf(el)).to.contain(inCart);
      // As tall as its line, as the button to a checkout on the page is (24 px).
      expect(link.getBoundingClientRect().height).to.be.at.least(24);
      await expect(el).to.be.accessible();
      // A checkout on the page is the way, not the other page.
      const checkout = Object.assign(document.createElement('service-checkout'), {
        key: keyOf('checkout'),
        baseUrl: service.url,
      });
      document.body.append(checkout);
      try {
        await until(() => !!$(el, `#in-${open.id} button`), 'the way to the checkout on the page');
        expect($(el, `#in-${open.id}`).querySelector('a')).to.equal(null);
        expect(button(el, toCheckout).textContent).to.equal(toCheckout);
      } finally {
        checkout.remove();
      }
    });

  it('links no checkout page that is no page of this site, says why to the site owner once, and draws its classes whatever the address', async () => {
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args.join(' '));
    try {
      // An address the browser cannot read: the month's classes show all the same (they showed none).
      const el = await mountWithClasses({ checkoutUrl: 'https://' });
      const open = el.data!.classes.find((c) => c.status === 'open')!;
      cell(el, open.local_date).click();
      await el.updateComplete;
      $<HTMLButtonElement>(el, `button[aria-describedby="c-${open.id}"]`).click();
      await until(() => el.shadowRoot!.activeElement?.id === `in-${open.id}`, 'the class in the cart');
      const way = () => $(el, `#in-${open.id}`).querySelector('a, button');
      expect(way()).to.equal(null);
      expect($$(el, 'li.class').length).to.be.above(0);
      for (const [value, why] of [
        ['javascript:alert(1)', 'is no web address'],
        ['www.example.com/checkout', 'is no web address'],
        ['https://shop.example.com/checkout', 'is on another site than this page'],
      ]) {
        el.setAttribute('checkout-url', value!);
        await el.updateComplete;
        expect(way(), value).to.equal(null);
        expect(warned.filter((line) => line.includes(`"${value}" ${why}`)).length, value).to.equal(1);
      }
      // Spaces are no address either (they linked to the page itself).
      el.setAttribute('checkout-url', '   ');
      await el.updateComplete;
      expect(way()).to.equal(null);
      // Told once per address, however often the class is drawn.
      el.setAttribute('checkout-url', 'https://shop.example.com/checkout');
      await el.updateComplete;
      expect(warned.filter((line) => line.includes('shop.example.com')).length).to.equal(1);
      expect(
        warned.some((line) => line.startsWith('[service-widgets] calendar: checkout-url "https://" is no web address')),
      ).to.equal(true);
    } finally {
      console.warn = warn;
    }
  });

  describe('a full class with an open waitlist', () => {
    const waitlisted = (c: ClassFacts) => c.status === 'waitlist';
    /** The calendar's list of a month with such a class, and that class's card. */
    const mountWaitlist = async (attributes: Parameters<typeof mount>[0] = {}) => {
      const el = await mountWithClasses(attributes, waitlisted);
      const list = button(el, attributes.locale === 'de' ? 'Liste' : 'List');
      if (!list.matches('[aria-pressed=true]')) list.click();
      await el.updateComplete;
      const cls = el.data!.classes.find(waitlisted)!;
      const card = () => $(el, `#c-${cls.id}`).closest('li')!;
      return { el, cls, card };
    };
    const typeInto = (field: HTMLInputElement, value: string | boolean) => {
      if (typeof value === 'boolean') field.checked = value;
      else field.value = value;
      field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    };

    it('offers “Join waitlist”: a small form where the class is, then the class says so; the page told; accessible', async () => {
      const { el, cls, card } = await mountWaitlist();
      const join = card().querySelector<HTMLButtonElement>('button[part=button]')!;
      expect(join.textContent!.trim()).to.equal('Join waitlist');
      join.click();
      await until(() => !!card().querySelector('form'), 'the form');
      expect(el.shadowRoot!.activeElement?.id, 'the focus in its first field').to.equal('first_name');
      expect(card().querySelector('form')!.getAttribute('aria-label')).to.equal(`Join waitlist: ${cls.course_title}`);
      await expect(el).to.be.accessible();

      const email = `calendar-waitlist-${Date.now()}@example.org`;
      const form = card().querySelector('form')!;
      for (const [name, value] of [
        ['first_name', 'Grace'],
        ['last_name', 'Hopper'],
        ['email', email],
        ['consent', true],
      ] as const)
        typeInto(form.querySelector<HTMLInputElement>(`[name=${name}]`)!, value);
      const created = oneEvent(el, 'service-registration-created');
      form.querySelector<HTMLButtonElement>('button[part=button]')!.click();
      const { detail } = await created;
      expect(detail).to.include({ course: cls.course_id, class: cls.id, status: 'waitlisted' });
      await until(() => el.shadowRoot!.activeElement?.id === `joined-${cls.id}`, 'the focus on what the class says');
      expect(card().textContent).to.contain(`You are on the waitlist. We have sent a confirmation to ${email}.`);
      expect(!!card().querySelector('form'), 'the form').to.equal(false);
      const { emails } = await dev<{ emails: { subject: string }[] }>(`outbox?to=${encodeURIComponent(email)}`);
      expect(emails.map((m) => m.subject)).to.have.length(1);
      expect(emails[0]!.subject).to.match(/^On the waitlist/);
      await expect(el).to.be.accessible();
    });

    for (const locale of ['en', 'de'] as const)
      it(`checks its form itself (${locale}): what is left empty says what to do, at once, in the widget’s words, and so do the service’s faults; nothing typed is lost`, async () => {
        const posts: string[] = [];
        const counting: typeof fetch = (input, init) => {
          if (init?.method === 'POST') posts.push(String(input));
          return fetch(input, init);
        };
        const { el, card } = await mountWaitlist({ locale, fetch: counting });
        card().querySelector<HTMLButtonElement>('button[part=button]')!.click();
        await until(() => !!card().querySelector('form'), 'the form');
        const form = card().querySelector('form')!;
        const field = (name: string) => form.querySelector<HTMLInputElement>(`[name=${name}]`)!;
        typeInto(field('first_name'), 'Grace');
        form.querySelector<HTMLButtonElement>('button[part=button]')!.click();
        const words = FORM_WORDS[locale];
        await expectFaults(el, { last_name: words.fillIn, email: words.fillIn, consent: words.tickBox }, words.line);
        expect(posts).to.have.length(0);
        expect(field('first_name').value).to.equal('Grace');
        await expect(el).to.be.accessible();
        // What only the service's rules refuse comes back in the widget's language, beside its field.
        typeInto(field('last_name'), 'Hopper');
        typeInto(field('email'), 'grace@example');
        typeInto(field('consent'), true);
        form.querySelector<HTMLButtonElement>('button[part=button]')!.click();
        await until(() => posts.length === 1 && !!el.shadowRoot!.getElementById('email-error'), 'the service’s fault');
        await expectFaults(
          el,
          {
            email:
              locale === 'de'
                ? 'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.org.'
                : 'Enter a valid email address, like name@example.org.',
          },
          words.line,
        );
        expect(field('last_name').value).to.equal('Hopper');
        await expect(el).to.be.accessible();
      });

    it('in German; “Cancel” closes the form, the focus back on its button', async () => {
      const { el, card } = await mountWaitlist({ locale: 'de' });
      const join = () => card().querySelector<HTMLButtonElement>('button[part=button]')!;
      expect(join().textContent!.trim()).to.equal('Auf die Warteliste');
      join().click();
      await until(() => !!card().querySelector('form'), 'the form');
      expect(card().querySelector('form')!.textContent).to.contain('Tragen Sie sich auf die Warteliste ein');
      expect([...card().querySelectorAll('label')].map((l) => l.textContent!.trim()).slice(0, 3)).to.deep.equal([
        'Vorname',
        'Nachname',
        'E-Mail',
      ]);
      await expect(el).to.be.accessible();
      [...card().querySelectorAll('button')].find((b) => b.textContent!.trim() === 'Abbrechen')!.click();
      await until(() => !card().querySelector('form'), 'the form closed');
      expect(el.shadowRoot!.activeElement === join(), 'the focus on “Auf die Warteliste”').to.equal(true);
    });

    it('a class that changed meanwhile (a seat came free) says so in the form, and the calendar asks for its month again', async () => {
      const months = countingFetch();
      const fetcher: typeof fetch = (input, init) =>
        init?.method === 'POST'
          ? Promise.resolve(
              Response.json(
                { error: { code: 'class-has-seats', message: 'This class has a seat free again.' } },
                { status: 409 },
              ),
            )
          : months(input, init);
      const { el, card } = await mountWaitlist({ fetch: fetcher });
      card().querySelector<HTMLButtonElement>('button[part=button]')!.click();
      await until(() => !!card().querySelector('form'), 'the form');
      const form = card().querySelector('form')!;
      for (const [name, value] of [
        ['first_name', 'Ada'],
        ['last_name', 'Lovelace'],
        ['email', 'ada.waitlist@example.org'],
        ['consent', true],
      ] as const)
        typeInto(form.querySelector<HTMLInputElement>(`[name=${name}]`)!, value);
      const asked = months.calls.length;
      form.querySelector<HTMLButtonElement>('button[part=button]')!.click();
      await until(() => !!card().querySelector('#form-error p'), 'the line above the button');
      expect(card().querySelector('#form-error')!.textContent).to.contain('A seat is free again: cancel this and choose Book.');
      expect((form.querySelector('[name=email]') as HTMLInputElement).value, 'what was typed stays').to.equal(
        'ada.waitlist@example.org',
      );
      await until(() => months.calls.length > asked, 'the month asked again');
      await expect(el).to.be.accessible();
    });
  });

  it('asks for its months again after an order on the page, so that the seats left are the service’s', async () => {
    // Each answer the widget gets, by the month it asked for.
    const answers: [string | null, Promise<CalendarResponse>][] = [];
    const fetcher: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      answers.push([new URL(String(input)).searchParams.get('month'), response.clone().json()]);
      return response;
    };
    const bookable = (c: ClassFacts) => c.status === 'open' && c.price.amount > 0 && c.seats_left > 1;
    const el = await mountWithClasses({ fetch: fetcher }, bookable);
    const open = el.data!.classes.find(bookable)!;
    const ordered = await fetch(new URL(`widget-api/v1/orders?key=${keyOf('checkout')}`, service.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({
        items: [{ class_id: open.id, seats: 1, attendees: [{ first_name: 'Grace', last_name: 'Hopper' }] }],
        buyer: {
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'calendar-refresh@example.org',
          address: { line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' },
        },
        payment_method: 'invoice',
        consent: true,
      }),
    });
    expect(ordered.status).to.equal(201);
    const asked = answers.length;
    const shown = el.data;
    // A checkout elsewhere on the page tells it (its event bubbles to the window).
    document.body.dispatchEvent(new CustomEvent('service-checkout-completed', { bubbles: true, composed: true }));
    // The month shown is asked again, after the order, and its new answer is what shows. (Not "one
    // seat fewer": other test files, running beside this one, book and release seats of the class too.)
    await until(() => el.data !== shown, 'the month asked again');
    const again = answers.slice(asked).find(([month]) => month === el.data!.month);
    expect(again, 'asked after the order').to.not.equal(undefined);
    const seats = (await again![1]).classes.find((c) => c.id === open.id)!.seats_left;
    expect(el.data!.classes.find((c) => c.id === open.id)!.seats_left).to.equal(seats);
  });

  it('says when a month cannot be loaded, and loads it on retry', async () => {
    let fail = false;
    const fetcher: typeof fetch = (input, init) => (fail ? Promise.reject(new TypeError('Failed to fetch')) : fetch(input, init));
    const el = await mount({ fetch: fetcher });
    const month = el.data!.month;
    fail = true;
    button(el, 'Previous month').click();
    await until(() => !!el.shadowRoot!.querySelector('.notice.error'));
    expect(textOf(el)).to.contain('could not be loaded');
    await expect(el).to.be.accessible();
    fail = false;
    button(el, 'Try again').click();
    await until(() => el.data!.month !== month);
    expect(el.shadowRoot!.querySelector('.notice.error')).to.equal(null);
  });

  it('a class whose last seats are held by unpaid orders says for how long, in English and German, and offers no Book; accessible', async () => {
    const hold = await holdSeats('cls_lead_2', 6);
    try {
      for (const [locale, pattern] of [
        ['en', /^Last seats held for unpaid orders – try again in (\d+) min$/],
        ['de', /^Letzte Plätze für unbezahlte Bestellungen reserviert – in (\d+) Min\. erneut versuchen$/],
      ] as const) {
        const el = await mount({ course: 'crs_lead', location: 'Vienna', locale, width: 343 });
        // Month by month (Next month) to the one that holds cls_lead_2, shown as a list.
        for (let i = 0; i < 3 && !el.data!.classes.some((c) => c.id === 'cls_lead_2'); i++) {
          const month = el.data!.month;
          button(el, locale === 'en' ? 'Next month' : 'Nächster Monat').click();
          await until(() => el.data!.month !== month);
          await el.updateComplete;
        }
        const held = el.data!.classes.find((c) => c.id === 'cls_lead_2')!;
        const line = $$(el, '.class .seats').find((s) => pattern.test(s.textContent!.trim()))!;
        expect(line, textOf(el)).not.to.equal(undefined);
        expectMinutesUntil(Number(pattern.exec(line.textContent!.trim())![1]), held.held_until!);
        expect(line.closest('.class')!.querySelector('button'), 'no Book while the seats are held').to.equal(null);
        await expect(el).to.be.accessible();
      }
    } finally {
      await hold.release();
    }
  });

  it('speaks German', async () => {
    const el = await mount({ locale: 'de' });
    const text = textOf(el);
    expect(text).to.contain('Termine von Acme Academy');
    expect($(el, '#month').textContent).to.equal(monthName(el.data!.month, 'de'));
    expect(button(el, 'Nächster Monat')).not.to.equal(undefined);
    expect(button(el, 'Heute')).not.to.equal(undefined);
    await expect(el).to.be.accessible();
    // A class's time names its venue's zone as in English ("GMT+1", never "MEZ"), and the visitor's own.
    // (At a month with classes, reached in English: the month of today has none late in a month.)
    const withClasses = await mountWithClasses();
    withClasses.locale = 'de';
    await withClasses.updateComplete;
    await settled(withClasses);
    await until(() => textOf(withClasses).includes('Heute'));
    const cls = withClasses.data!.classes[0]!;
    cell(withClasses, cls.local_date).click();
    await withClasses.updateComplete;
    const zone = new Intl.DateTimeFormat('en', { timeZone: cls.timezone, timeZoneName: 'shortOffset' })
      .formatToParts(new Date(cls.starts_at))
      .find((part) => part.type === 'timeZoneName')!.value;
    expect(textOf(withClasses)).to.contain(` Uhr ${zone}`);
    expect(textOf(withClasses)).not.to.match(/MEZ|MESZ|Ortszeit/);
  });

  it('shows a class already in the page’s cart as such (a reload)', async () => {
    const answer = await firstMonthWithClasses();
    const cls = answer.classes.find((c) => c.status === 'open')!;
    writeState('cart', service.url, COMPANY, { lines: [{ class_id: cls.id, seats: 2 }] });
    const el = await mountWithClasses();
    cell(el, cls.local_date).click();
    await until(() => textOf(el).includes('In your cart'));
  });

  it('has no public method: only the hooks of Lit and of the base (the page’s cart is a controller)', () => {
    expect(ownMethods(customElements.get('service-calendar')!)).to.deep.equal([]);
  });
});

describe('service-calendar, a company 25 times the seed: months of more classes than an answer holds', () => {
  /**
   * The grown service's first month of more than `classes` (two pages, 40, unless said), asked
   * directly. (The first month of more than one page may hold fewer than two: when the seed is made
   * late in a month, that month holds only its first classes.)
   */
  const bigMonth = async (classes = 40) => {
    let answer = await monthOf('', {}, service.grown);
    for (let i = 0; i < 4 && answer.classes_total <= classes && answer.next_month; i++) {
      answer = await monthOf(answer.classes.length ? nextMonth(answer.month) : answer.next_month, {}, service.grown);
    }
    expect(answer.classes_total, `a month of more than ${classes} classes`).to.be.greaterThan(classes);
    return answer;
  };

  /** The calendar on the grown service, showing the first month of more than `classes`. */
  const mountBig = async (attributes: Parameters<typeof mount>[0] = {}, classes?: number) => {
    const expected = await bigMonth(classes);
    const el = await mount({ baseUrl: service.grown, ...attributes });
    while (el.data!.month !== expected.month) {
      const from = el.data!.month;
      onward(el, attributes.locale).click();
      await until(() => el.data!.month !== from);
    }
    await el.updateComplete;
    return { el, expected };
  };

  const shown = (el: Element) => $$(el, 'li.class h4').map((h) => h.id.slice(2));

  it('says when the code for more classes cannot be fetched, and fetches it on “Try again”', async () => {
    await executeServerCommand('fail-requests', { path: '/widgets/calendar/calendar-pages.ts', times: 1 });
    // The first month of more than a page: the first that asks for the code.
    const { el, expected } = await mountBig({}, 20);
    button(el, 'List').click();
    await until(() => !!el.shadowRoot!.querySelector('.notice.error'));
    expect(textOf(el)).to.contain(`The classes of ${monthName(expected.month)} could not be loaded.`);
    await expect(el).to.be.accessible();
    button(el, 'Try again').click();
    await until(() => !!button(el, 'More classes'));
    expect(shown(el)).to.deep.equal(expected.classes.map((c) => c.id));
    expect(el.shadowRoot!.querySelector('.notice.error')).to.equal(null);
  });

  it('shows each day’s count and first two programmes from the month’s answer, and a day’s every class, a page at a time', async () => {
    const { el, expected } = await mountBig();
    const busiest = expected.days.reduce((a, b) => (b.classes > a.classes ? b : a));
    expect(busiest.classes, 'a day of more than a page').to.be.greaterThan(20);
    const day = cell(el, busiest.date);
    expect(day.querySelector('.visually-hidden')!.textContent).to.match(new RegExp(`, ${busiest.classes} classes$`));
    expect([...day.querySelectorAll('.title')].map((t) => t.textContent)).to.deep.equal([
      ...busiest.titles,
      `+${busiest.classes - 2}`,
    ]);

    day.click();
    const page1 = (await monthOf(expected.month, { day: busiest.date }, service.grown)).classes.map((c) => c.id);
    await until(() => shown(el).join() === page1.join());
    expect(page1).to.have.length(20);
    await expect(el).to.be.accessible();
    await until(() => !!button(el, 'More classes'));
    // By keyboard: the button keeps the focus while the page comes; the last page takes the button
    // away, and the focus goes to the first class it brought.
    button(el, 'More classes').focus();
    await sendKeys({ press: 'Enter' });
    const page2 = (await monthOf(expected.month, { day: busiest.date, page: '2' }, service.grown)).classes.map((c) => c.id);
    await until(() => shown(el).length === busiest.classes);
    expect(shown(el)).to.deep.equal([...page1, ...page2]);
    expect(button(el, 'More classes'), 'all of the day is shown').to.equal(undefined);
    await until(() => el.shadowRoot!.activeElement === $$(el, 'li.class')[20]);

    // A day whose classes all came with the month is shown without asking again.
    const early = expected.days.find((d) => expected.classes.filter((c) => c.local_date === d.date).length === d.classes);
    if (early) {
      cell(el, early.date).click();
      await el.updateComplete;
      expect(shown(el)).to.deep.equal(expected.classes.filter((c) => c.local_date === early.date).map((c) => c.id));
    }
  });

  it('lists a big month 20 classes at a time: “More classes” adds the next 20, each once, in the service’s order', async () => {
    const counting = countingFetch();
    const { el, expected } = await mountBig({ fetch: counting });
    button(el, 'List').click();
    await el.updateComplete;
    expect(shown(el)).to.deep.equal(expected.classes.map((c) => c.id));
    const asked = counting.calls.length;
    await until(() => !!button(el, 'More classes'));
    button(el, 'More classes').focus();
    await sendKeys({ press: 'Enter' });
    const page2 = (await monthOf(expected.month, { page: '2' }, service.grown)).classes.map((c) => c.id);
    await until(() => shown(el).length === 40);
    expect(el.shadowRoot!.activeElement, 'the button, below the new classes, keeps the focus').to.equal(
      button(el, 'More classes'),
    );
    expect(shown(el)).to.deep.equal([...expected.classes.map((c) => c.id), ...page2]);
    expect(new Set(shown(el)).size).to.equal(40);
    expect(counting.calls.slice(asked).filter((url) => new URL(url).searchParams.get('page') === '2')).to.have.length(1);
    // Each day's heading once, above its classes.
    const headings = $$(el, '.fill h3').map((h) => h.textContent);
    expect(new Set(headings).size).to.equal(headings.length);
    await expect(el).to.be.accessible();
  });

  it('says when a further page cannot be loaded, in the visitor’s language, and loads it on “Try again”', async () => {
    let fail = true;
    const fetcher: typeof fetch = (input, init) =>
      fail && new URL(String(input)).searchParams.get('page') === '2'
        ? Promise.reject(new TypeError('Failed to fetch'))
        : fetch(input, init);
    const { el, expected } = await mountBig({ fetch: fetcher, locale: 'de' });
    button(el, 'Liste').click();
    await until(() => !!button(el, 'Weitere Termine'));
    button(el, 'Weitere Termine').click();
    await until(() => !!el.shadowRoot!.querySelector('.fill [role=alert]'));
    expect($(el, '.fill [role=alert]').textContent).to.contain(
      `Die Termine im ${monthName(expected.month, 'de')} konnten nicht geladen werden.`,
    );
    expect(shown(el), 'what was shown stays').to.have.length(20);
    await expect(el).to.be.accessible();
    fail = false;
    button(el, 'Erneut versuchen').click();
    await until(() => shown(el).length === 40);
    expect(el.shadowRoot!.querySelector('.fill [role=alert]')).to.equal(null);
  });

  it('at 375 px, held to its 576 px, lists whole classes under their days (no day without its class), the rest on asking', async () => {
    // The first month of many classes as the service's month (the widget's first answer), whatever the date.
    const { month } = await bigMonth();
    const first: typeof fetch = (input, init) => {
      const url = new URL(String(input));
      if (url.pathname.endsWith('/calendar') && !url.searchParams.get('month')) url.searchParams.set('month', month);
      return fetch(url, init);
    };
    const el = await reserve(await mount({ baseUrl: service.grown, fetch: first, width: 375 }), 375, 576);
    await until(() => !!el.shadowRoot!.querySelector('.class'), 'the list');
    const shown = await expectWholeItems(el);
    expect(el.getBoundingClientRect().height, 'the page below did not move').to.equal(576);
    expect(shown.length).to.be.within(1, 19);
    const more = $(el, 'p.more');
    expect(more.hidden).to.equal(false);
    await expect(el).to.be.accessible();
    more.querySelector('button')!.click();
    // The view is fitted again before the next frame is painted.
    await until(
      () => $$(el, '.class').filter((c) => c.getClientRects().length).length === el.data!.classes.length,
      'every class shown',
    );
    expect(el.getBoundingClientRect().height).to.be.above(576);
  });
});
