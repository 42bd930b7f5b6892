import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { Order } from '../../contract/api/index.ts';
import type { Cart } from '../shared/cart.ts';
import { readState, writeState } from '../shared/page-state.ts';
import { writeSession } from '../shared/session.ts';
import {
  asOwner,
  darkPage,
  dev,
  expectFaults,
  expectMinutesUntil,
  FORM_WORDS,
  expectWholeItems,
  failOnWarnings,
  holdSeats,
  placeOrder,
  keyOf,
  ownMethods,
  reserve,
  service,
  settled,
  textOf,
  until,
} from '../../test/browser/support.ts';
import './checkout.ts';

failOnWarnings();

const KEY = keyOf('checkout');
const COMPANY = 'c_acme';

/** A fetch that forwards to the real one and remembers each call's method and path. */
const countingFetch = () => {
  const calls: string[] = [];
  const fetcher: typeof fetch = (input, init) => {
    calls.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
    return fetch(input, init);
  };
  return Object.assign(fetcher, { calls, quotes: () => calls.filter((c) => c.endsWith('/checkout/quote')).length });
};

const mount = async ({
  classes = '',
  locale = 'en',
  fetch,
}: { classes?: string; locale?: string; fetch?: typeof window.fetch } = {}) => {
  const el = await fixture(
    html`<service-checkout key=${KEY} base-url=${service.url} locale=${locale} classes=${classes} .fetch=${fetch}></service-checkout>`,
  );
  return settled(el as HTMLElementTagNameMap['service-checkout']);
};

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const $$ = <T extends Element = HTMLElement>(el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<T>(selector)];
const button = (el: Element, name: string | RegExp) =>
  $$<HTMLButtonElement>(el, 'button').find((b) => {
    const text = b.getAttribute('aria-label') ?? b.textContent!.trim();
    return typeof name === 'string' ? text === name : name.test(text);
  })!;
/** The service's last quote of the widget's cart: its private state, from which every price it shows comes. */
const quoteOf = (el: HTMLElementTagNameMap['service-checkout']) => el['_quote'];
const quoted = (el: HTMLElementTagNameMap['service-checkout']) => until(() => !!quoteOf(el) && !$(el, '[aria-busy=true]'));
const cart = () => readState<Cart>('cart', service.url, COMPANY);

/** Types into the details form as a person would (each field's input event). */
const fill = async (el: Element, values: Record<string, string | boolean>) => {
  for (const [name, value] of Object.entries(values)) {
    const field = $<HTMLInputElement>(el, `[name="${name}"]`);
    if (typeof value === 'boolean') field.checked = value;
    else field.value = value;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
};

let n = 0;
const BUYER_ONLY = () => ({ first_name: 'Ada', last_name: 'Lovelace', email: `checkout-${Date.now()}-${n++}@example.org` });
const BUYER = () => ({
  'buyer.first_name': 'Ada',
  'buyer.last_name': 'Lovelace',
  'buyer.email': `checkout-${Date.now()}-${n++}@example.org`,
  'buyer.address.line1': 'Torstraße 1',
  'buyer.address.postal_code': '10119',
  'buyer.address.city': 'Berlin',
  'buyer.address.country': 'DE',
  consent: true,
});
const attendees = (classId: string, names: string[]) =>
  Object.fromEntries(
    names.flatMap((name, i) => {
      const [first, last] = name.split(' ');
      return [
        [`attendee.${classId}.${i}.first_name`, first!],
        [`attendee.${classId}.${i}.last_name`, last!],
      ];
    }),
  );

/** Goes on from the cart to the details (their code comes on demand). */
const toDetails = async (el: HTMLElementTagNameMap['service-checkout'], next = 'Continue') => {
  await quoted(el);
  button(el, next).click();
  await until(() => !!el.shadowRoot!.querySelector('form [name="buyer.email"]'));
  await el.updateComplete;
};

const seatsLeft = async (classId: string) => {
  const answer = await fetch(new URL(`widget-api/v1/checkout/quote?key=${KEY}`, service.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ items: [{ class_id: classId, seats: 1 }] }),
  });
  return ((await answer.json()) as { items: { seats_left: number }[] }).items[0]!.seats_left;
};

const emailsTo = async (email: string) =>
  (await dev<{ emails: { to: string; subject: string }[] }>('outbox')).emails.filter((m) => m.to === email);

describe('service-checkout', () => {
  afterEach(() => {
    writeState('cart', service.url, COMPANY);
    writeSession(service.url, COMPANY, undefined);
  });

  it('says when the cart is empty', async () => {
    const el = await mount();
    expect(textOf(el)).to.contain('Your cart is empty');
    expect(el.shadowRoot!.querySelector('button[part=button]')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('an empty cart fills its reserved space with what to do, not a line above a blank box', async () => {
    const el = await reserve(await mount(), 375, 420);
    const empty = $(el, '.empty').getBoundingClientRect();
    expect(el.getBoundingClientRect().bottom - empty.bottom).to.be.below(2);
    expect(empty.height).to.be.above(300);
    await expect(el).to.be.accessible();
  });

  it('held to its 420 px at 375 px, the cart grows with what the visitor opens: the voucher field and a second seat cut nothing', async () => {
    const el = await mount({ classes: 'cls_web_2' });
    await quoted(el);
    await reserve(el, 375, 420);
    await expectWholeItems(el);
    expect($(el, 'p.more').hidden).to.equal(true);

    button(el, 'Have a voucher code?').click();
    await el.updateComplete;
    $<HTMLSelectElement>(el, '.line select').value = '2';
    $<HTMLSelectElement>(el, '.line select').dispatchEvent(new Event('change', { bubbles: true, composed: true }));
    await quoted(el);
    await until(() => textOf(el).includes('per seat'), 'the price per seat');
    // Everything it shows is there to see: the class whole with its seats, the voucher field, the
    // totals and the button, the widget grown past its reservation; no "Show all 1 classes".
    const host = el.getBoundingClientRect();
    expect(host.height).to.be.above(420);
    for (const part of ['li.line', '.line select', '#voucher', '.totals', 'button[part=button]'])
      expect($(el, part).getBoundingClientRect().bottom, part).to.be.at.most(host.bottom);
    expect($(el, 'p.more').hidden).to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('held, “Show all” shows the whole cart from its heading, which takes the focus; so does a widget’s “Go to checkout” (the class just booked, last, was under “Show all”)', async () => {
    const el = await mount({ classes: 'cls_web_2 cls_data_2 cls_lead_2' });
    await quoted(el);
    await reserve(el, 1280, 420);
    await until(() => !$(el, 'p.more').hidden, 'the cart held to its space');
    const shown = (widget = el) => $$(widget, 'li.line').filter((li) => li.getBoundingClientRect().height > 0).length;
    expect(shown()).to.be.below(3);
    button(el, 'Show all 3 classes').click();
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement?.textContent).to.equal('Your cart');
    expect(shown()).to.equal(3);
    await expect(el).to.be.accessible();

    // Held again (drawn anew), then asked for by another widget: whole, the focus on its heading.
    el.remove();
    const again = await reserve(await mount(), 1280, 420);
    await quoted(again);
    await until(() => !$(again, 'p.more').hidden, 'the cart held to its space');
    dispatchEvent(
      new CustomEvent('service-checkout-find', {
        cancelable: true,
        detail: { baseUrl: service.url, company: COMPANY, show: true },
      }),
    );
    await again.updateComplete;
    expect(document.activeElement === again, 'the focus is in the checkout').to.equal(true);
    expect(again.shadowRoot!.activeElement?.textContent).to.equal('Your cart');
    expect(shown(again)).to.equal(3);
  });

  it('shows the classes given to it, priced by the service with the tax named', async () => {
    const el = await mount({ classes: 'cls_web_2' });
    await quoted(el);
    const text = textOf(el);
    expect(text).to.contain('Web accessibility in practice');
    expect(text).to.contain('Including 19 % VAT');
    expect(text).to.contain('€62.27'); // 390.00 × 19 / 119
    expect($(el, '.total').textContent).to.contain('€390.00');
    expect(cart()!.lines.map((l) => [l.class_id, l.seats])).to.deep.equal([['cls_web_2', 1]]);
    // The class's time in its venue's zone, named by its offset (as in every widget).
    const { starts_at, timezone } = quoteOf(el)!.items[0]!;
    const zone = new Intl.DateTimeFormat('en', { timeZone: timezone!, timeZoneName: 'shortOffset' })
      .formatToParts(new Date(starts_at!))
      .find((part) => part.type === 'timeZoneName')!.value;
    expect($(el, '.line p').textContent).to.contain(zone);
    await expect(el).to.be.accessible();
  });

  it('asks the service once per change of the cart: more seats, another widget’s class, a removed line', async () => {
    const fetcher = countingFetch();
    const el = await mount({ classes: 'cls_web_2', fetch: fetcher });
    await quoted(el);
    expect(fetcher.quotes()).to.equal(1);

    const seats = $<HTMLSelectElement>(el, '#s-cls_web_2');
    seats.value = '3';
    seats.dispatchEvent(new Event('change'));
    await until(() => fetcher.quotes() === 2);
    await quoted(el);
    expect($(el, '.total').textContent).to.contain('€1,170.00');

    // Another copy of the package on the page adds a class: it shows here, priced.
    writeState('cart', service.url, COMPANY, {
      lines: [...cart()!.lines, { class_id: 'cls_data_2', seats: 1, course_title: 'Data literacy basics' }],
    });
    await until(() => fetcher.quotes() === 3);
    await quoted(el);
    expect(textOf(el)).to.contain('Data literacy basics');
    expect($(el, '.total').textContent).to.contain('€1,319.00');

    button(el, 'Remove Data literacy basics').click();
    await until(() => fetcher.quotes() === 4);
    await quoted(el);
    expect(textOf(el)).not.to.contain('Data literacy basics');
    button(el, 'Remove Web accessibility in practice').click();
    await until(() => textOf(el).includes('Your cart is empty'));
    expect(el.shadowRoot!.activeElement).to.equal($(el, 'h2'));
    expect(fetcher.quotes()).to.equal(4);
  });

  it('a quote that fails after a change: no old totals beside the new seats, no Continue, until a retry prices this cart', async () => {
    let down = false;
    const fetcher: typeof fetch = (input, init) =>
      down && String(input).includes('/checkout/quote') ? Promise.reject(new TypeError('Failed to fetch')) : fetch(input, init);
    const el = await mount({ classes: 'cls_web_2', fetch: fetcher });
    await quoted(el);
    expect($(el, '.total').textContent).to.contain('€390.00');
    down = true;
    const seats = $<HTMLSelectElement>(el, '#s-cls_web_2');
    seats.value = '3';
    seats.dispatchEvent(new Event('change'));
    await until(() => textOf(el).includes('The prices could not be updated.'));
    expect($(el, '.total')).to.equal(null);
    expect(button(el, 'Continue').disabled).to.equal(true);
    await expect(el).to.be.accessible();
    down = false;
    button(el, 'Try again').click();
    await quoted(el);
    expect($(el, '.total').textContent).to.contain('€1,170.00');
    expect(button(el, 'Continue').disabled).to.equal(false);
  });

  it('checks a voucher with the service: applied, or why not', async () => {
    const el = await mount({ classes: 'cls_web_2' });
    await quoted(el);
    button(el, 'Have a voucher code?').click();
    await until(() => el.shadowRoot!.activeElement?.id === 'voucher');
    const apply = async (code: string) => {
      $<HTMLInputElement>(el, '#voucher').value = code;
      button(el, 'Apply').click();
      await until(() => quoteOf(el)?.voucher?.code === code.toUpperCase());
      await el.updateComplete;
      return $(el, '#voucher-result');
    };
    let result = await apply('welcome10');
    expect(result.classList.contains('error')).to.equal(false);
    expect(textOf(el)).to.contain('Discount');
    expect($(el, '.total').textContent).to.contain('€351.00');
    expect($(el, '#voucher').getAttribute('aria-describedby')).to.equal('voucher-result');
    await expect(el).to.be.accessible();
    for (const [code, says] of [
      ['NOPE123', /^There is no voucher NOPE123: check the code\. You can order without it\.$/],
      ['SPRING25', /^The voucher SPRING25 has expired\. You can order without it\.$/],
      ['FIRST50', /^The voucher FIRST50 has been used up\. You can order without it\.$/],
      ['TEAM20', /^The voucher TEAM20 does not apply to the classes in your cart\. You can order without it\.$/],
    ] as const) {
      result = await apply(code);
      expect(result.classList.contains('error'), code).to.equal(true);
      expect(result.textContent!.trim(), code).to.match(says);
      expect($(el, '.total').textContent).to.contain('€390.00');
    }
    await expect(el).to.be.accessible();
  });

  it('checks a code copied with a space, a mark or markup as a code is written: the cart keeps its prices and says what became of it', async () => {
    const el = await mount({ classes: 'cls_web_2' });
    await quoted(el);
    button(el, 'Have a voucher code?').click();
    await until(() => el.shadowRoot!.activeElement?.id === 'voucher');
    const apply = async (typed: string, checked: string) => {
      $<HTMLInputElement>(el, '#voucher').value = typed;
      button(el, 'Apply').click();
      await until(() => quoteOf(el)?.voucher?.code === checked);
      await el.updateComplete;
      return $(el, '#voucher-result').textContent!.trim();
    };
    expect(await apply(' WELCOME 10 ', 'WELCOME10')).to.equal('Voucher WELCOME10 applied: see the discount below.');
    expect($(el, '.total').textContent).to.contain('€351.00');
    expect($<HTMLInputElement>(el, '#voucher').value).to.equal('WELCOME10');
    expect(await apply('TEAM20!', 'TEAM20')).to.match(/^The voucher TEAM20 does not apply/);
    expect(await apply('<b>x</b>', 'BXB')).to.equal('There is no voucher BXB: check the code. You can order without it.');
    // The prices stay, and the cart can go on.
    expect($(el, '.total').textContent).to.contain('€390.00');
    expect(button(el, 'Continue').disabled).to.equal(false);
    expect(el.shadowRoot!.querySelector('[role=alert]')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('a voucher the cart says does not apply is not sent: the order goes without it, as the cart said', async () => {
    const bodies: { voucher?: string | null }[] = [];
    const fetcher: typeof fetch = (input, init) => {
      if (String(input).includes('/orders')) bodies.push(JSON.parse(String(init!.body)));
      return fetch(input, init);
    };
    writeState('cart', service.url, COMPANY, { lines: [{ class_id: 'cls_web_2', seats: 1 }], voucher: 'TEAM20' });
    const el = await mount({ fetch: fetcher });
    await quoted(el);
    expect($(el, '#voucher-result').textContent!.trim()).to.equal(
      'The voucher TEAM20 does not apply to the classes in your cart. You can order without it.',
    );
    await toDetails(el);
    await fill(el, { ...attendees('cls_web_2', ['Grace Hopper']), ...BUYER() });
    const completed = oneEvent(el, 'service-checkout-completed');
    button(el, /^Place order · €390\.00$/).click();
    expect((await completed).detail.total).to.deep.equal({ amount: 39000, currency: 'EUR' });
    expect(bodies.map((b) => b.voucher)).to.deep.equal([null]);
  });

  it('a voucher used up while the visitor types their details: back to the cart, told why, nothing booked, then ordered without it', async () => {
    writeState('cart', service.url, COMPANY, { lines: [{ class_id: 'cls_web_2', seats: 1 }], voucher: 'THANKS15' });
    const el = await mount();
    await quoted(el);
    expect(quoteOf(el)!.voucher!.status).to.equal('applied');
    await toDetails(el);
    const buyer = BUYER();
    await fill(el, { ...attendees('cls_web_2', ['Grace Hopper']), ...buyer });
    // Another visitor's order takes its one use meanwhile (until it is given back, below).
    const other = await holdSeats('cls_web_1', 1, service.url, 'THANKS15');
    try {
      button(el, /^Place order/).click();
      await until(() => textOf(el).includes('Your voucher can no longer be used, and nothing was booked.'));
      await quoted(el);
      expect($(el, '#voucher-result').textContent!.trim()).to.equal(
        'The voucher THANKS15 has been used up. You can order without it.',
      );
      expect($(el, '.total').textContent).to.contain('€390.00');
      expect(await emailsTo(buyer['buyer.email'])).to.have.length(0);
      await expect(el).to.be.accessible();
      // On without it, nothing typed lost.
      await toDetails(el);
      expect($<HTMLInputElement>(el, '[name="buyer.email"]').value).to.equal(buyer['buyer.email']);
      const completed = oneEvent(el, 'service-checkout-completed');
      button(el, /^Place order · €390\.00$/).click();
      expect((await completed).detail.total).to.deep.equal({ amount: 39000, currency: 'EUR' });
    } finally {
      await other.release();
    }
  });

  for (const [locale, words] of [
    [
      'en',
      {
        next: 'Continue',
        note: 'Nothing to pay: we need only your name and email, and the seats are booked in your name.',
        order: 'Place free order',
        none: 'Nothing to pay.',
        seats: '2 seats: Ada Lovelace',
        free: 'Free',
      },
    ],
    [
      'de',
      {
        next: 'Weiter',
        note: 'Es ist nichts zu bezahlen: Wir brauchen nur Ihren Namen und Ihre E-Mail-Adresse, die Plätze werden auf Ihren Namen gebucht.',
        order: 'Kostenlos bestellen',
        none: 'Es ist nichts zu bezahlen.',
        seats: '2 Plätze: Ada Lovelace',
        free: 'Kostenlos',
      },
    ],
  ] as const) {
    it(`(${locale}) a free order asks only for the buyer: no billing address, no name per seat, no payment`, async () => {
      const el = await mount({ classes: 'cls_open_1', locale });
      const seats = $<HTMLSelectElement>(el, '#s-cls_open_1');
      seats.value = '2';
      seats.dispatchEvent(new Event('change'));
      await until(() => quoteOf(el)?.items[0]?.seats === 2);
      await toDetails(el, words.next);
      expect(textOf(el)).to.contain(words.note);
      // What is asked: the buyer (and their consent), nothing else that a person must fill in.
      const asked = $$<HTMLInputElement>(el, 'input[required], select[required]')
        .filter((field) => field.getClientRects().length)
        .map((field) => field.name);
      expect(asked).to.deep.equal(['buyer.first_name', 'buyer.last_name', 'buyer.email', 'consent']);
      expect($$(el, 'input[type=radio]')).to.have.length(0);
      await expect(el).to.be.accessible();
      const { consent: _consent, ...buyer } = BUYER();
      await fill(el, {
        'buyer.first_name': 'Ada',
        'buyer.last_name': 'Lovelace',
        'buyer.email': buyer['buyer.email'],
        consent: true,
      });
      const completed = oneEvent(el, 'service-checkout-completed');
      button(el, words.order).click();
      expect((await completed).detail.total).to.deep.equal({ amount: 0, currency: 'EUR' });
      await el.updateComplete;
      const done = $(el, '.done').textContent!.replace(/\s+/g, ' ');
      expect(done).to.contain(words.none);
      expect(done).to.contain(words.seats);
      expect($(el, '.done .amount').textContent).to.equal(words.free);
      expect($(el, '.done .totals')).to.equal(null);
      await expect(el).to.be.accessible();
    });
  }

  it('places an order: attendees, buyer, invoice; confirmation with the number and the calendar file; the page told; the cart empty', async () => {
    const el = await mount({ classes: 'cls_data_2' });
    const seats = $<HTMLSelectElement>(el, '#s-cls_data_2');
    seats.value = '2';
    seats.dispatchEvent(new Event('change'));
    await until(() => quoteOf(el)?.items[0]?.seats === 2);
    await toDetails(el);
    expect(el.shadowRoot!.activeElement).to.equal($(el, 'h2'));
    await expect(el).to.be.accessible();
    const buyer = BUYER();
    await fill(el, { ...attendees('cls_data_2', ['Grace Hopper', 'Alan Turing']), ...buyer });
    expect((el.shadowRoot!.querySelector('#pm-invoice') as HTMLInputElement).checked).to.equal(true);
    // Each payment method's radio sits beside its label's first line, the size of a box to tick: at
    // least 24 × 24 px (WCAG 2.5.8), no taller than a line.
    for (const radio of el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=radio]')) {
      const box = radio.getBoundingClientRect();
      const label = el.shadowRoot!.querySelector(`label[for="${radio.id}"]`)!.getBoundingClientRect();
      expect([box.width, box.height], radio.id).to.deep.equal([24, 24]);
      expect(Math.abs(box.top - label.top), radio.id).to.be.below(6);
    }
    const completed = oneEvent(el, 'service-checkout-completed');
    button(el, /^Place order · €298\.00$/).click();
    const { detail } = await completed;
    expect(detail.number).to.match(/^A-\d+$/);
    expect(detail.items).to.deep.equal([{ class: 'cls_data_2', course: 'crs_data', seats: 2 }]);
    expect(detail.total).to.deep.equal({ amount: 29800, currency: 'EUR' });
    await el.updateComplete;
    const text = textOf(el);
    expect(text).to.contain(`Thank you! Your order ${detail.number} is placed.`);
    expect(text).to.contain(`We have sent the confirmation to ${buyer['buyer.email']}.`);
    expect(text).to.contain('You will receive an invoice for €298.00 by email.');
    // What was booked, for whom, what it cost; how to change it.
    expect($(el, '.done .line').textContent!.replace(/\s+/g, ' ')).to.contain('2 seats: Grace Hopper, Alan Turing €298.00');
    expect($(el, '.done .total').textContent).to.contain('€298.00');
    expect(text).to.contain(`To change or cancel the order, contact Acme Academy and quote ${detail.number}.`);
    const ics = $<HTMLAnchorElement>(el, 'a[download]');
    expect(ics.textContent!.trim()).to.equal('Add to calendar');
    expect(ics.href).to.contain('calendar.ics?key=wk_demo_checkout&classes=cls_data_2');
    expect(el.shadowRoot!.activeElement).to.equal($(el, 'h2'));
    expect(cart()?.lines ?? []).to.deep.equal([]);
    expect(await emailsTo(buyer['buyer.email'])).to.have.length(1);
    await expect(el).to.be.accessible();
  });

  for (const [locale, words] of [
    [
      'en',
      {
        paid: 'Paid by card: €351.00.',
        discount: 'Discount (WELCOME10)',
        seats: '1 seat: Grace Hopper',
        thanks: 'Thank you! Your order {number} is placed.',
      },
    ],
    [
      'de',
      {
        paid: 'Mit Karte bezahlt: 351,00 €.',
        discount: 'Rabatt (WELCOME10)',
        seats: '1 Platz: Grace Hopper',
        thanks: 'Vielen Dank! Ihre Bestellung {number} ist aufgegeben.',
      },
    ],
  ] as const) {
    for (const width of [1280, 375]) {
      it(`(${locale}, ${width} px) back from the provider’s page paid: the whole confirmation, in view with the focus on its heading`, async () => {
        const { order, token } = await placeOrder('cls_web_2', 1, {
          paymentMethod: 'card',
          voucher: 'WELCOME10',
          attendees: [{ first_name: 'Grace', last_name: 'Hopper' }],
          buyer: { first_name: 'Ada', last_name: 'Lovelace', email: `paid-${Date.now()}-${n++}@example.org` },
        });
        // Paid on the provider's page (its form's post, through the test server: same-origin there).
        const paid = await fetch(`/dev/pay/${order.payment.redirect_url!.split('/').pop()}/pay`, { method: 'POST' });
        expect(paid.ok).to.equal(true);
        writeState('cart', service.url, COMPANY, {
          lines: [{ class_id: 'cls_web_2', seats: 1 }],
          order: { id: order.id, token },
        });
        // The page opens at its top, the checkout far below it.
        const above = document.body.appendChild(document.createElement('div'));
        above.style.height = '3000px';
        try {
          const el = document.body.appendChild(
            Object.assign(document.createElement('service-checkout'), { key: KEY, baseUrl: service.url, locale }),
          );
          await reserve(await settled(el), width, 420);
          const heading = $(el, '.done h2');
          await until(() => el.shadowRoot!.activeElement === heading, 'the heading focused');
          const { top, bottom } = heading.getBoundingClientRect();
          expect(top).to.be.at.least(0);
          expect(bottom).to.be.at.most(innerHeight);
          expect(heading.textContent!.replace(/\s+/g, ' ').trim()).to.equal(words.thanks.replace('{number}', order.number));
          // Its number on one line, however narrow.
          expect($(el, '.done h2 .nowrap').getClientRects()).to.have.length(1);
          // Nothing below it was in view: it shows whole (how it was paid, the discount, every line).
          const text = $(el, '.done').textContent!.replace(/\s+/g, ' ');
          for (const said of [words.paid, words.discount, words.seats]) expect(text).to.contain(said);
          // The line before its discount, as the subtotal it makes (the discount once, in its row).
          expect($(el, '.done .amount').textContent).to.equal($(el, '.done .totals dd').textContent);
          expect($(el, '.done .more')?.hidden ?? true).to.equal(true);
          expect(el.getBoundingClientRect().bottom - $(el, '.done').getBoundingClientRect().bottom).to.be.below(1);
          await expect(el).to.be.accessible();
          el.remove();
        } finally {
          above.remove();
        }
      });
    }
  }

  it('at 320 px with a long email address: nothing overflows, and no amount breaks', async () => {
    const email = `maximiliane.schwarzenberger.${Date.now()}@example.org`;
    const el = await mount({ classes: 'cls_web_2' });
    // A 320 px phone, less a page's margins.
    await reserve(el, 304, 420);
    button(el, 'Have a voucher code?').click();
    await el.updateComplete;
    $<HTMLInputElement>(el, '#voucher').value = 'WELCOME10';
    button(el, 'Apply').click();
    await until(() => quoteOf(el)?.voucher?.status === 'applied');
    // Each amount on one line: its text's boxes all on one (the cart's beside a title of two lines).
    const oneLine = (selector: string) => {
      const amounts = $$(el, selector);
      expect(amounts.length, selector).to.be.above(0);
      for (const amount of amounts) {
        const text = document.createRange();
        text.selectNodeContents(amount);
        expect(new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size, amount.textContent!).to.equal(1);
      }
    };
    oneLine('.line .amount, .totals dd');
    // The line before its discount, as the subtotal it makes (the discount once, in its row).
    expect($(el, '.line .amount').textContent).to.equal($(el, '.totals dd').textContent);
    await toDetails(el);
    await fill(el, { ...attendees('cls_web_2', ['Grace Hopper']), ...BUYER(), 'buyer.email': email });
    const completed = oneEvent(el, 'service-checkout-completed');
    button(el, /^Place order/).click();
    await completed;
    await el.updateComplete;
    expect(textOf(el)).to.contain(email);
    const done = $(el, '.done');
    expect(done.scrollWidth).to.be.at.most(done.clientWidth);
    oneLine('.done dd, .done .amount');
    await expect(el).to.be.accessible();
  });

  it('names the company’s terms in its consent where its widget has them, a link that opens beside the form; else only the storing of the details; English and German, accessible', async () => {
    const terms = 'https://www.acme.example/terms';
    // The owner's setting of a checkout widget of this page (the REST API; the app sets it the same way).
    const { key } = await asOwner<{ key: string }>('/v1/widgets', 'POST', {
      type: 'checkout',
      origins: [location.origin],
      options: { terms },
    });
    for (const [locale, next, withTerms, without] of [
      [
        'en',
        'Continue',
        'I agree to the terms and conditions (opens in a new tab) of Acme Academy and that it stores my details to handle this order.',
        'I agree that Acme Academy stores my details to handle this order.',
      ],
      [
        'de',
        'Weiter',
        'Ich stimme den Geschäftsbedingungen (öffnet in einem neuen Tab) von Acme Academy zu und bin einverstanden, dass Acme Academy meine Angaben zur Abwicklung dieser Bestellung speichert.',
        'Ich bin einverstanden, dass Acme Academy meine Angaben zur Abwicklung dieser Bestellung speichert.',
      ],
    ]) {
      const el = await settled(
        await fixture<HTMLElementTagNameMap['service-checkout']>(
          html`<service-checkout key=${key} base-url=${service.url} locale=${locale} classes="cls_web_2"></service-checkout>`,
        ),
      );
      await toDetails(el, next);
      const label = $(el, 'label[for=consent]');
      expect(label.textContent!.replace(/\s+/g, ' ').trim()).to.equal(withTerms);
      const link = label.querySelector('a')!;
      expect([link.href, link.target, link.relList.contains('noopener')]).to.deep.equal([terms, '_blank', true]);
      await expect(el).to.be.accessible();
      el.remove();
      writeState('cart', service.url, COMPANY);

      // The seeded checkout names no terms: nothing to agree to but the storing of the details.
      const plain = await mount({ classes: 'cls_web_2', locale });
      await toDetails(plain, next);
      expect($(plain, 'label[for=consent]').textContent!.trim()).to.equal(without);
      expect($(plain, 'label[for=consent] a')).to.equal(null);
      plain.remove();
      writeState('cart', service.url, COMPANY);
    }
  });

  it('fills the buyer from the participant signed in on the page', async () => {
    writeSession(service.url, COMPANY, {
      token: 'ptok_test',
      participant: { id: 'p_ada', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org', phone: '+44 20 7946 0001' },
    });
    const el = await mount({ classes: 'cls_web_2' });
    await toDetails(el);
    expect($<HTMLInputElement>(el, '[name="buyer.email"]').value).to.equal('ada@example.org');
    expect($<HTMLInputElement>(el, '[name="buyer.first_name"]').value).to.equal('Ada');
    expect($<HTMLInputElement>(el, '[name="buyer.phone"]').value).to.equal('+44 20 7946 0001');
  });

  it('a class that fills up meanwhile: back to the cart, told which, nothing booked, nothing typed lost', async () => {
    const left = await seatsLeft('cls_lead_3');
    expect(left).to.be.greaterThan(1);
    const el = await mount({ classes: 'cls_lead_3' });
    const seats = $<HTMLSelectElement>(el, '#s-cls_lead_3');
    seats.value = '2';
    seats.dispatchEvent(new Event('change'));
    await until(() => quoteOf(el)?.items[0]?.seats === 2);
    await toDetails(el);
    const buyer = BUYER();
    await fill(el, { ...attendees('cls_lead_3', ['Grace Hopper', 'Alan Turing']), ...buyer });
    await placeOrder('cls_lead_3', left - 1);
    button(el, /^Place order/).click();
    await until(() => textOf(el).includes('Some classes filled up'));
    await quoted(el);
    expect(textOf(el)).to.contain('Seats left in this class: 1. Book at most that many, or remove it.');
    expect($(el, 'button[part=button]').hasAttribute('disabled')).to.equal(true);
    expect(await seatsLeft('cls_lead_3')).to.equal(1);
    expect(await emailsTo(buyer['buyer.email'])).to.have.length(0);
    await expect(el).to.be.accessible();

    // One seat then: the order goes through with what was typed.
    const one = $<HTMLSelectElement>(el, '#s-cls_lead_3');
    one.value = '1';
    one.dispatchEvent(new Event('change'));
    await until(() => quoteOf(el)?.orderable === true);
    await toDetails(el);
    expect($<HTMLInputElement>(el, '[name="buyer.email"]').value).to.equal(buyer['buyer.email']);
    expect($<HTMLInputElement>(el, '[name="attendee.cls_lead_3.0.first_name"]').value).to.equal('Grace');
    const completed = oneEvent(el, 'service-checkout-completed');
    button(el, /^Place order/).click();
    expect((await completed).detail.items).to.deep.equal([{ class: 'cls_lead_3', course: 'crs_lead', seats: 1 }]);
  });

  it('an unreachable service: said, nothing typed lost, and the retry makes one order', async () => {
    let down = false;
    const fetcher: typeof fetch = (input, init) =>
      down && init?.method === 'POST' && String(input).includes('/orders')
        ? Promise.reject(new TypeError('Failed to fetch'))
        : fetch(input, init);
    const el = await mount({ classes: 'cls_web_2', fetch: fetcher });
    await toDetails(el);
    const buyer = BUYER();
    await fill(el, { ...attendees('cls_web_2', ['Grace Hopper']), ...buyer });
    down = true;
    button(el, /^Place order/).click();
    await until(() => textOf(el).includes('could not be reached'));
    expect(textOf(el)).to.contain('Your entries are kept.');
    expect($<HTMLInputElement>(el, '[name="buyer.email"]').value).to.equal(buyer['buyer.email']);
    await expect(el).to.be.accessible();
    down = false;
    const completed = oneEvent(el, 'service-checkout-completed');
    button(el, /^Place order/).click();
    await completed;
    expect(await emailsTo(buyer['buyer.email'])).to.have.length(1);
  });

  it('reads well on a dark page: the cart, the details and their focus rings keep their contrast', async () => {
    const page = await darkPage(
      html`<service-checkout key=${KEY} base-url=${service.url} locale="en" classes="cls_web_2"></service-checkout>`,
    );
    const el = await settled(page.querySelector('service-checkout')!);
    await quoted(el);
    await expect(page).to.be.accessible();
    await toDetails(el);
    await expect(page).to.be.accessible();
  });

  it('marks the fields the service refuses, each with its message', async () => {
    const el = await mount({ classes: 'cls_web_2' });
    await toDetails(el);
    await fill(el, {
      ...attendees('cls_web_2', ['Grace Hopper']),
      ...BUYER(),
      'buyer.address.postal_code': 'x'.repeat(20),
      'buyer.first_name': '\u202eAda',
      'attendee.cls_web_2.0.last_name': 'Hopper\u202e',
    });
    button(el, /^Place order/).click();
    await until(() => textOf(el).includes('Please correct the highlighted fields.'));
    const field = $<HTMLInputElement>(el, '[name="buyer.first_name"]');
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    expect(el.shadowRoot!.getElementById('buyer.first_name-error')!.textContent).to.contain('invisible characters');
    // An attendee's fault, which the service names by the line's place, beside that attendee's field,
    // the first of the form at fault: the focus is there.
    const attendee = $(el, '[name="attendee.cls_web_2.0.last_name"]');
    expect(attendee.getAttribute('aria-invalid')).to.equal('true');
    expect(el.shadowRoot!.getElementById('attendee.cls_web_2.0.last_name-error')!.textContent).to.contain('invisible characters');
    expect(el.shadowRoot!.activeElement).to.equal(attendee);
    await expect(el).to.be.accessible();
  });

  for (const locale of ['en', 'de'] as const)
    it(`checks the details itself (${locale}): every field left empty says what to do, at once, in the widget’s words; nothing is sent, nothing typed is lost`, async () => {
      const fetcher = countingFetch();
      const el = await mount({ classes: 'cls_web_2', locale, fetch: fetcher });
      await toDetails(el, locale === 'de' ? 'Weiter' : 'Continue');
      await fill(el, {
        'attendee.cls_web_2.0.first_name': 'Grace',
        'buyer.phone': '+49 30 1234567',
        'buyer.organisation': 'Navy',
      });
      const sent = fetcher.calls.length;
      $<HTMLButtonElement>(el, 'form > button[part=button]').click();
      const { fillIn, pickOne, tickBox, line } = FORM_WORDS[locale];
      await expectFaults(
        el,
        {
          'attendee.cls_web_2.0.last_name': fillIn,
          'buyer.first_name': fillIn,
          'buyer.last_name': fillIn,
          'buyer.email': fillIn,
          'buyer.address.line1': fillIn,
          'buyer.address.postal_code': fillIn,
          'buyer.address.city': fillIn,
          'buyer.address.country': pickOne,
          consent: tickBox,
        },
        line,
      );
      expect(fetcher.calls.slice(sent)).to.deep.equal([]);
      expect($<HTMLInputElement>(el, '[name="attendee.cls_web_2.0.first_name"]').value).to.equal('Grace');
      expect($<HTMLInputElement>(el, '[name="buyer.organisation"]').value).to.equal('Navy');
      await expect(el).to.be.accessible();
    });

  it('a German checkout shows the service’s faults in German, every one at once beside its field, and keeps the details', async () => {
    const el = await mount({ classes: 'cls_web_2', locale: 'de' });
    await toDetails(el, 'Weiter');
    await fill(el, {
      ...attendees('cls_web_2', ['Grace Hopper']),
      ...BUYER(),
      'buyer.email': 'ada@example',
      'buyer.phone': 'ruf mich an',
      'buyer.address.city': 'x'.repeat(101),
    });
    $<HTMLButtonElement>(el, 'form > button[part=button]').click();
    await until(() => !!el.shadowRoot!.getElementById('buyer.email-error'), 'the service’s faults');
    await expectFaults(
      el,
      {
        'buyer.email': 'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.org.',
        'buyer.phone': 'Die Telefonnummer darf nur Ziffern, Leerzeichen und + ( ) - . / enthalten.',
        'buyer.address.city': 'Kürzen Sie „Ort“ auf höchstens 100 Zeichen.',
      },
      'Bitte korrigieren Sie die markierten Felder.',
    );
    expect($<HTMLInputElement>(el, '[name="buyer.email"]').value).to.equal('ada@example');
    expect($<HTMLInputElement>(el, '[name="attendee.cls_web_2.0.last_name"]').value).to.equal('Hopper');
    await expect(el).to.be.accessible();
  });

  it('keeps each attendee with their class when another line is removed', async () => {
    const el = await mount({ classes: 'cls_data_2 cls_web_2' });
    await toDetails(el);
    await fill(el, { ...attendees('cls_data_2', ['Grace Hopper']), ...attendees('cls_web_2', ['Edsger Dijkstra']) });
    button(el, /Back to the cart/).click();
    await quoted(el);
    button(el, /^Remove Data/).click();
    await until(() => quoteOf(el)?.items.length === 1);
    await toDetails(el);
    const names = [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('fieldset input[name^="attendee."]')].map((i) => i.value);
    expect(names).to.deep.equal(['Edsger', 'Dijkstra']);
  });

  it('back from the provider’s page unpaid: a way to pay and a way to cancel it; cancelled, its seats are free for the cart', async () => {
    const left = await seatsLeft('cls_web_1');
    const answer = await fetch(new URL(`widget-api/v1/orders?key=${KEY}`, service.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({
        items: [
          {
            class_id: 'cls_web_1',
            seats: left,
            attendees: Array.from({ length: left }, () => ({ first_name: 'Ada', last_name: 'Lovelace' })),
          },
        ],
        buyer: { ...BUYER_ONLY(), address: { line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' } },
        payment_method: 'card',
        return_url: location.href,
        consent: true,
      }),
    });
    const { order, token } = (await answer.json()) as { order: Order; token: string };
    expect(order.status).to.equal('pending_payment');
    writeState('cart', service.url, COMPANY, { lines: [{ class_id: 'cls_web_1', seats: left }], order: { id: order.id, token } });
    // The first two cancels meet a dropped connection (each tried three times).
    let drops = 6;
    const fetcher: typeof fetch = (input, init) =>
      String(input).includes('/cancel') && drops-- > 0 ? Promise.reject(new TypeError('Failed to fetch')) : fetch(input, init);
    const el = await mount({ fetch: fetcher });
    await quoted(el);
    expect(textOf(el)).to.contain('Your payment is not complete yet.');
    // Back from the provider's page: the focus on the cart's heading, its line below it.
    await until(() => el.shadowRoot!.activeElement === $(el, 'h2'), 'the heading focused');
    expect($<HTMLAnchorElement>(el, '.notice a').href).to.equal(order.payment.redirect_url);
    // Its own order holds the seats: no second order meanwhile.
    expect(button(el, 'Continue').disabled).to.equal(true);
    await expect(el).to.be.accessible();

    for (let i = 0; i < 2; i++) {
      button(el, 'Cancel this payment and change the order').click();
      await until(() => drops === 3 - 3 * i && textOf(el).includes('could not be reached'));
    }
    await new Promise((frame) => requestAnimationFrame(frame));
    await el.updateComplete;
    // Said once, however often it failed, with both ways still there.
    expect(textOf(el).match(/could not be reached/g)).to.have.length(1);
    expect(textOf(el)).to.contain('Your payment is not complete yet.');
    await expect(el).to.be.accessible();
    button(el, 'Cancel this payment and change the order').click();
    await until(() => textOf(el).includes('The payment was cancelled and nothing was charged.'));
    await quoted(el);
    expect(cart()?.order).to.equal(undefined);
    expect(await seatsLeft('cls_web_1')).to.equal(left);
    expect(quoteOf(el)?.orderable).to.equal(true);
    expect(button(el, 'Continue').disabled).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it('back with an order the service does not know (its data reset): the cart is kept, with a line that says so', async () => {
    writeState('cart', service.url, COMPANY, {
      lines: [{ class_id: 'cls_web_2', seats: 1 }],
      order: { id: 'ord_gone', token: 'ot_gone' },
    });
    const el = await mount();
    await quoted(el);
    expect(el.loadState).to.equal('ready');
    expect(textOf(el)).to.contain('We could not find the order you came back from. Your cart is kept');
    expect(textOf(el)).to.contain('Web accessibility in practice');
    expect(cart()?.order).to.equal(undefined);
    expect(button(el, 'Continue').disabled).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it('keeps the cart across a reload of the page', async () => {
    const first = await mount({ classes: 'cls_web_2' });
    await quoted(first);
    first.remove();
    const again = await mount();
    await quoted(again);
    expect(textOf(again)).to.contain('Web accessibility in practice');
  });

  /** The visitor removes the cart's one class (Web accessibility in practice); drawn anew with the same options (a reload), the cart is empty. */
  const removedStaysOut = async (first: HTMLElementTagNameMap['service-checkout']) => {
    button(first, 'Remove Web accessibility in practice').click();
    await until(() => textOf(first).includes('Your cart is empty'));
    first.remove();
    const again = await mount({ classes: 'cls_web_2' });
    expect(textOf(again)).to.contain('Your cart is empty');
    expect(cart()!.lines).to.deep.equal([]);
    return again;
  };

  it('a class of its options that the visitor removed stays out after a reload; a class newly given joins', async () => {
    const first = await mount({ classes: 'cls_web_2' });
    await quoted(first);
    const again = await removedStaysOut(first);
    again.classes = 'cls_web_2 cls_data_2';
    await until(() => !!quoteOf(again));
    await quoted(again);
    expect(cart()!.lines.map((l) => l.class_id)).to.deep.equal(['cls_data_2']);
  });

  it('takes the classes the page’s address names (a calendar’s link, opened in a new tab without the tab’s cart), once: removed, one stays out after a reload', async () => {
    const page = location.href;
    history.replaceState(null, '', `${location.pathname}?service-class=cls_web_2,cls_data_2`);
    try {
      const first = await mount();
      await quoted(first);
      expect(cart()!.lines.map((l) => [l.class_id, l.seats])).to.deep.equal([
        ['cls_web_2', 1],
        ['cls_data_2', 1],
      ]);
      expect(textOf(first)).to.contain('Web accessibility in practice');
      button(first, 'Remove Web accessibility in practice').click();
      await until(() => cart()!.lines.length === 1);
      first.remove();
      const again = await mount();
      await quoted(again);
      expect(cart()!.lines.map((l) => l.class_id)).to.deep.equal(['cls_data_2']);
    } finally {
      history.replaceState(null, '', page);
    }
  });

  it('a class given that was in the cart already (booked in the calendar that linked here), removed, stays out after a reload', async () => {
    writeState('cart', service.url, COMPANY, { lines: [{ class_id: 'cls_web_2', seats: 2 }] });
    const first = await mount({ classes: 'cls_web_2' });
    await quoted(first);
    // The seats chosen before stay as they were.
    expect(cart()!.lines.map((l) => [l.class_id, l.seats])).to.deep.equal([['cls_web_2', 2]]);
    await removedStaysOut(first);
  });

  it('a line whose seats are held by unpaid orders says how many are left and for how long, in English and German; accessible', async () => {
    const hold = await holdSeats('cls_lead_2', 6);
    try {
      for (const [locale, pattern] of [
        ['en', /^Seats left: 0\. Others are held for unpaid orders: try again in (\d+) min, or remove it\.$/],
        [
          'de',
          /^Freie Plätze: 0\. Weitere sind für unbezahlte Bestellungen reserviert: Versuchen Sie es in (\d+) Min\. erneut oder entfernen Sie den Termin\.$/,
        ],
      ] as const) {
        writeState('cart', service.url, COMPANY);
        const el = await mount({ classes: 'cls_lead_2', locale });
        await quoted(el);
        const line = $(el, '#p-cls_lead_2').textContent!.trim();
        expect(line).to.match(pattern);
        expectMinutesUntil(Number(pattern.exec(line)![1]), quoteOf(el)!.items[0]!.held_until!);
        expect(button(el, locale === 'en' ? 'Continue' : 'Weiter').disabled).to.equal(true);
        await expect(el).to.be.accessible();
      }
    } finally {
      await hold.release();
    }
  });

  it('a voucher not checked (too many wrong codes from this connection): said in English and German, and the cart goes on without it', async () => {
    // The strict service keeps the default limit of wrong codes per address (30 in 10 minutes).
    const guess = (voucher: string) =>
      fetch(new URL(`widget-api/v1/checkout/quote?key=${KEY}`, service.strict), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ items: [{ class_id: 'cls_web_2', seats: 1 }], voucher }),
      });
    for (let i = 0; i < 30; i++) expect((await guess(`WRONG${i}`)).status).to.equal(200);
    try {
      for (const [locale, line, next] of [
        [
          'en',
          'Too many wrong codes were tried from your connection: WELCOME10 was not checked. Try again in 10 min, or go on without it.',
          'Continue',
        ],
        [
          'de',
          'Von Ihrer Verbindung aus wurden zu viele falsche Codes versucht: WELCOME10 wurde nicht geprüft. Versuchen Sie es in 10 Min. erneut oder fahren Sie ohne Gutschein fort.',
          'Weiter',
        ],
      ] as const) {
        writeState('cart', service.strict, COMPANY, { lines: [{ class_id: 'cls_web_2', seats: 1 }], voucher: 'WELCOME10' });
        const el = await settled(
          (await fixture(
            html`<service-checkout key=${KEY} base-url=${service.strict} locale=${locale}></service-checkout>`,
          )) as HTMLElementTagNameMap['service-checkout'],
        );
        await quoted(el);
        expect($(el, '#voucher-result').textContent!.trim()).to.equal(line);
        expect($(el, '#voucher-result').classList.contains('error')).to.equal(true);
        expect(textOf(el)).not.to.contain('−');
        expect(button(el, next).disabled, 'the visitor can go on without the voucher').to.equal(false);
        await expect(el).to.be.accessible();
        if (locale === 'en') {
          // And does: the order goes without the code the visitor was told was not checked.
          await toDetails(el);
          await fill(el, { ...attendees('cls_web_2', ['Grace Hopper']), ...BUYER() });
          const completed = oneEvent(el, 'service-checkout-completed');
          button(el, /^Place order · €390\.00$/).click();
          expect((await completed).detail.total).to.deep.equal({ amount: 39000, currency: 'EUR' });
        }
      }
    } finally {
      writeState('cart', service.strict, COMPANY);
    }
  });

  it('speaks German', async () => {
    const el = await mount({ classes: 'cls_web_2', locale: 'de' });
    await quoted(el);
    const text = textOf(el);
    expect(text).to.contain('Ihr Warenkorb');
    expect(text).to.contain('Enthaltene MwSt. (19 %)');
    expect(text).to.contain('390,00 €');
    await expect(el).to.be.accessible();
    // The service's verdicts in German too: a voucher, a line that cannot be ordered.
    button(el, 'Gutschein einlösen').click();
    await until(() => !!el.shadowRoot!.querySelector('#voucher'));
    $<HTMLInputElement>(el, '#voucher').value = 'nope';
    button(el, 'Einlösen').click();
    await until(() => quoteOf(el)?.voucher?.code === 'NOPE');
    await el.updateComplete;
    expect($(el, '#voucher-result').textContent!.trim()).to.equal(
      'Es gibt keinen Gutschein NOPE: Bitte prüfen Sie den Code. Sie können ohne ihn bestellen.',
    );
    // A code the service cannot read (the form writes none: a cart kept from before).
    writeState('cart', service.url, COMPANY, { ...cart()!, voucher: 'straße' });
    await until(() => textOf(el).includes('Ein Gutscheincode besteht nur aus Buchstaben, Ziffern und Bindestrichen'));
    $<HTMLInputElement>(el, '#voucher').value = 'nope';
    button(el, 'Einlösen').click();
    await quoted(el);
    writeState('cart', service.url, COMPANY, { ...cart()!, lines: [...cart()!.lines, { class_id: 'cls_gone', seats: 1 }] });
    await until(() => textOf(el).includes('Dieser Termin wird nicht mehr angeboten'));
    await quoted(el);
    expect(textOf(el)).to.contain('Ändern oder entfernen Sie die markierten Termine, um fortzufahren.');
    await expect(el).to.be.accessible();
    button(el, 'cls_gone entfernen').click();
    await until(() => quoteOf(el)?.orderable === true);
    await toDetails(el, 'Weiter');
    expect(textOf(el)).to.contain('Rechnungsadresse');
    await expect(el).to.be.accessible();
  });

  it('has no public method for its steps: only the hooks of Lit and of the base (the steps get callbacks)', () => {
    expect(ownMethods(customElements.get('service-checkout')!)).to.deep.equal([]);
  });
});
