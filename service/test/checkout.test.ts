/** `POST /widget-api/v1/checkout/quote`: what a cart costs, as the service computes it. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  LOCAL_PAGE,
  openTestCompany,
  startTestService,
  uniqueKey,
  useTestService,
  visitorAddress,
  writeHeaders,
  type Json,
} from './helpers.ts';

// This machine stands for a proxy, so that each visitor has a limit of their own.
const svc = useTestService({ trustProxy: ['127.0.0.1'] });

const quote = (body: unknown, opts: { key?: string; address?: string } = {}) =>
  svc.json(`/widget-api/v1/checkout/quote?key=${opts.key ?? 'wk_demo_checkout'}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: LOCAL_PAGE,
      'X-Forwarded-For': opts.address ?? visitorAddress(),
    },
    body: JSON.stringify(body),
  });
const eur = (amount: number) => ({ amount, currency: 'EUR' });
const line = (res: { body: Json }, classId: string) => res.body.items.find((l: Json) => l.class_id === classId);

describe('quote: totals and tax', () => {
  test('prices that include tax (Acme, 19 %): the tax is the share of the total, and each line says its class', async () => {
    const res = await quote({
      items: [
        { class_id: 'cls_ts_2', seats: 2 },
        { class_id: 'cls_web_2', seats: 1 },
      ],
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);
    const { body } = res;
    assert.deepEqual(body.subtotal, eur(2 * 29000 + 39000));
    assert.deepEqual(body.discount, eur(0));
    assert.deepEqual(body.total, eur(97000));
    // 97000 × 19 / 119 = 15487.39…
    assert.deepEqual(body.tax, eur(15487));
    assert.equal(body.tax_rate, 19);
    assert.equal(body.prices_include_tax, true);
    assert.equal(body.voucher, null);
    assert.equal(body.orderable, true);
    assert.deepEqual(body.payment_methods, [
      { id: 'invoice', kind: 'offline', label: 'Invoice' },
      { id: 'on_site', kind: 'offline', label: 'Pay on site' },
      { id: 'card', kind: 'redirect', label: 'Card (secure payment page)' },
    ]);
    const ts = line(res, 'cls_ts_2');
    assert.deepEqual(
      { ...ts, starts_at: undefined, ends_at: undefined },
      {
        class_id: 'cls_ts_2',
        seats: 2,
        course_id: 'crs_ts',
        course_title: 'TypeScript for teams',
        starts_at: undefined,
        ends_at: undefined,
        timezone: 'Europe/Berlin',
        location: 'Hamburg, Am Sandtorkai 4',
        seats_left: 7,
        status: 'open',
        held_until: null,
        unit_price: eur(29000),
        discount: eur(0),
        total: eur(58000),
        problem: null,
        message: null,
      },
    );
    assert.ok(Date.parse(ts.starts_at) < Date.parse(ts.ends_at));
  });

  test('prices without tax (Globex, 8.25 %): the tax is added, rounded half up', async () => {
    const res = await quote({ items: [{ class_id: 'cls_gx_safety_1', seats: 3 }] }, { key: 'wk_globex_checkout' });
    assert.equal(res.status, 200);
    const usd = (amount: number) => ({ amount, currency: 'USD' });
    assert.deepEqual(res.body.subtotal, usd(45000));
    // 45000 × 8.25 % = 3712.5 → 3713
    assert.deepEqual(res.body.tax, usd(3713));
    assert.deepEqual(res.body.total, usd(48713));
    assert.equal(res.body.tax_rate, 8.25);
    assert.equal(res.body.prices_include_tax, false);
    assert.deepEqual(line(res, 'cls_gx_safety_1').total, usd(45000), 'a line’s total is before tax');
  });

  test('without development mode there is no payment provider: card is neither offered nor taken', async () => {
    const prod = await startTestService({ dev: false, publicUrl: 'https://booking.example.com' });
    try {
      const company = await openTestCompany(prod, { types: ['checkout'] });
      const key = company.keys.checkout!;
      const items = [{ class_id: company.paidClass, seats: 1 }];
      const quoted = await prod.json(`/widget-api/v1/checkout/quote?key=${key}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: 'https://www.acme.example' },
        body: JSON.stringify({ items }),
      });
      assert.equal(quoted.status, 200, JSON.stringify(quoted.body));
      assert.deepEqual(
        quoted.body.payment_methods.map((m: Json) => m.id),
        ['invoice', 'on_site'],
      );
      const card = await prod.json(`/widget-api/v1/orders?key=${key}`, {
        method: 'POST',
        headers: writeHeaders(uniqueKey(), 'https://www.acme.example'),
        body: JSON.stringify({
          items: [{ ...items[0], attendees: [{ first_name: 'Ada', last_name: 'Lovelace' }] }],
          buyer: {
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: 'ada@example.org',
            address: { line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' },
          },
          payment_method: 'card',
          return_url: 'https://www.acme.example/checkout',
          consent: true,
        }),
      });
      assert.equal(card.status, 422);
      assert.equal(card.body.error.fields.payment_method, 'Choose one of the payment methods: invoice, on_site.');
      assert.equal((await prod.fetch('/dev/pay/pay_AAAAAAAAAAAAAAAA')).status, 404);
    } finally {
      await prod.close();
    }
  });

  test('a free cart costs nothing and needs no payment method', async () => {
    const res = await quote({ items: [{ class_id: 'cls_open_1', seats: 3 }] });
    assert.deepEqual(res.body.total, eur(0));
    assert.deepEqual(res.body.tax, eur(0));
    assert.deepEqual(res.body.payment_methods, []);
    assert.equal(res.body.orderable, true);
  });

  test('a cart of classes in two currencies is 422 fields.items', async () => {
    await svc.exec("UPDATE classes SET currency = 'GBP' WHERE id = 'cls_data_2'");
    const res = await quote({
      items: [
        { class_id: 'cls_web_2', seats: 1 },
        { class_id: 'cls_data_2', seats: 1 },
      ],
    });
    assert.equal(res.status, 422);
    assert.match(res.body.error.fields.items, /EUR and GBP: order the classes of one currency at a time/);
  });
});

describe('quote: each line’s problem', () => {
  test('unknown, another company’s, started, full, full with a waitlist, not enough seats: each says what to do, and costs nothing', async () => {
    const res = await quote({
      items: [
        { class_id: 'cls_web_2', seats: 1 },
        { class_id: 'cls_nope', seats: 1 },
        { class_id: 'cls_gx_safety_1', seats: 1 },
        { class_id: 'cls_web_past', seats: 1 },
        { class_id: 'cls_lead_1', seats: 1 },
        { class_id: 'cls_ts_1', seats: 1 },
        { class_id: 'cls_web_1', seats: 6 },
      ],
    });
    assert.equal(res.status, 200);
    const problems = Object.fromEntries(res.body.items.map((l: Json) => [l.class_id, [l.problem, l.seats_left, l.status]]));
    assert.deepEqual(problems, {
      cls_web_2: [null, 17, 'open'],
      cls_nope: ['unknown-class', 0, 'full'],
      cls_gx_safety_1: ['unknown-class', 0, 'full'],
      cls_web_past: ['started', 0, 'full'],
      cls_lead_1: ['class-full', 0, 'full'],
      cls_ts_1: ['class-full', 0, 'waitlist'],
      cls_web_1: ['not-enough-seats', 5, 'open'],
    });
    assert.equal(line(res, 'cls_nope').course_id, null);
    assert.match(line(res, 'cls_nope').message, /no longer offered: remove it/);
    assert.match(line(res, 'cls_web_past').message, /already started/);
    assert.match(line(res, 'cls_lead_1').message, /full: remove it/);
    assert.match(line(res, 'cls_ts_1').message, /waitlist/);
    assert.match(line(res, 'cls_web_1').message, /Only 5 seats are left in this class: book at most 5/);
    for (const l of res.body.items.filter((x: Json) => x.problem)) {
      assert.deepEqual(l.total, eur(0), `${l.class_id} costs nothing`);
      assert.ok(l.message.length > 20);
    }
    assert.equal(res.body.orderable, false);
    assert.deepEqual(res.body.total, eur(39000), 'the totals are the orderable lines’');
  });
});

describe('quote: vouchers', () => {
  const cart = {
    items: [
      { class_id: 'cls_ts_2', seats: 1 },
      { class_id: 'cls_web_2', seats: 1 },
    ],
  };
  /** The cart as an order paid by invoice. */
  const invoiceOrder = (extra: Record<string, unknown>) => ({
    items: cart.items.map((item) => ({ ...item, attendees: [{ first_name: 'Ada', last_name: 'Lovelace' }] })),
    buyer: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada.buyer@example.org',
      address: { line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' },
    },
    payment_method: 'invoice',
    consent: true,
    ...extra,
  });

  test('WELCOME10 (any letter case): 10 % off each line', async () => {
    const res = await quote({ ...cart, voucher: ' welcome10 ' });
    assert.deepEqual(res.body.voucher, { code: 'WELCOME10', status: 'applied', message: '10 % off every class.' });
    assert.deepEqual(line(res, 'cls_ts_2').discount, eur(2900));
    assert.deepEqual(line(res, 'cls_web_2').discount, eur(3900));
    assert.deepEqual(line(res, 'cls_web_2').total, eur(35100));
    assert.deepEqual(res.body.subtotal, eur(68000));
    assert.deepEqual(res.body.discount, eur(6800));
    assert.deepEqual(res.body.total, eur(61200));
    // 61200 × 19 / 119 = 9771.43…
    assert.deepEqual(res.body.tax, eur(9771));
  });

  test('TEAM20 applies to its programme’s lines only, and is not-applicable without them', async () => {
    const res = await quote({ ...cart, voucher: 'TEAM20' });
    assert.equal(res.body.voucher.status, 'applied');
    assert.match(res.body.voucher.message, /20 % off the classes of TypeScript for teams/);
    assert.deepEqual(line(res, 'cls_ts_2').discount, eur(5800));
    assert.deepEqual(line(res, 'cls_web_2').discount, eur(0));

    const other = await quote({ items: [{ class_id: 'cls_web_2', seats: 1 }], voucher: 'team20' });
    assert.equal(other.body.voucher.status, 'not-applicable');
    assert.match(other.body.voucher.message, /valid for TypeScript for teams only/);
    assert.deepEqual(other.body.discount, eur(0));
  });

  test('unknown, expired, used up: each says so, and gives nothing', async () => {
    for (const [code, status, message] of [
      ['NOPE99', 'unknown', /There is no voucher NOPE99: check the code/],
      ['SPRING25', 'expired', /has expired/],
      ['FIRST50', 'used-up', /has been used up/],
    ] as const) {
      const res = await quote({ ...cart, voucher: code });
      assert.equal(res.status, 200, code);
      assert.equal(res.body.voucher.status, status, code);
      assert.match(res.body.voucher.message, message);
      assert.deepEqual(res.body.discount, eur(0));
      assert.deepEqual(res.body.total, eur(68000));
    }
    // No voucher, or an empty one, is none.
    assert.equal((await quote({ ...cart, voucher: '' })).body.voucher, null);
    assert.equal((await quote({ ...cart, voucher: null })).body.voucher, null);
    // Nothing but letters, digits and hyphens: a control or direction-reversing character is refused, never echoed.
    for (const code of ['welcome10\u0000', '\u202eWELCOME10', 'WELCOME 10', 'straße']) {
      const res = await quote({ ...cart, voucher: code });
      assert.equal(res.status, 422, code);
      assert.equal(res.body.error.fields.voucher, 'A voucher code has letters, digits and hyphens only: check the code.');
    }
  });

  test('a fixed amount is spread over the lines by their cost, adding up exactly; capped at what they cost', async () => {
    await svc.exec("UPDATE vouchers SET uses = 0 WHERE code = 'FIRST50'");
    const res = await quote({ ...cart, voucher: 'first50' });
    assert.equal(res.body.voucher.status, 'applied');
    assert.equal(res.body.voucher.message, '€50.00 off your order.');
    // 5000 × 29000/68000 = 2132.35…, 5000 × 39000/68000 = 2867.65…: the cent left goes to the larger remainder.
    assert.deepEqual(line(res, 'cls_ts_2').discount, eur(2132));
    assert.deepEqual(line(res, 'cls_web_2').discount, eur(2868));
    assert.deepEqual(res.body.discount, eur(5000));

    await svc.exec("UPDATE classes SET price_amount = 3000 WHERE id = 'cls_data_2'");
    const cheap = await quote({ items: [{ class_id: 'cls_data_2', seats: 1 }], voucher: 'FIRST50' });
    assert.deepEqual(cheap.body.discount, eur(3000), 'never more than the lines cost');
    assert.deepEqual(cheap.body.total, eur(0));
    assert.deepEqual(cheap.body.payment_methods, [], 'nothing left to pay');
  });

  test('a voucher for a free cart does not apply', async () => {
    const res = await quote({ items: [{ class_id: 'cls_open_1', seats: 1 }], voucher: 'WELCOME10' });
    assert.equal(res.body.voucher.status, 'not-applicable');
  });

  test('wrong voucher guesses are limited per address: then no code is checked from there, right or wrong, and the cart is priced without it', async () => {
    const address = visitorAddress();
    // A buyer's own quotes with a good code (each change of the cart) are no guesses.
    for (let i = 0; i < 40; i++) {
      assert.equal((await quote({ ...cart, voucher: 'WELCOME10' }, { address })).body.voucher.status, 'applied');
    }
    for (let i = 0; i < 30; i++) {
      assert.equal((await quote({ ...cart, voucher: `GUESS${i}` }, { address })).body.voucher.status, 'unknown');
    }
    // Past the limit a right code and a wrong one answer alike: nothing tells which exists.
    for (const code of ['GUESS30', 'WELCOME10']) {
      const held = await quote({ ...cart, voucher: code }, { address });
      assert.equal(held.status, 200, 'the cart is still priced');
      assert.deepEqual(Object.keys(held.body.voucher).sort(), ['code', 'message', 'retry_after', 'status']);
      assert.equal(held.body.voucher.status, 'not-checked');
      assert.equal(held.body.voucher.code, code);
      // Ten minutes from the first wrong code (a busy machine may have taken a few seconds since).
      assert.ok(
        held.body.voucher.retry_after > 540 && held.body.voucher.retry_after <= 600,
        String(held.body.voucher.retry_after),
      );
      assert.equal(
        held.body.voucher.message,
        `Too many voucher codes that do not apply were tried from your connection, so this one was not checked: try it again in 10 minutes, or go on without it.`,
      );
      assert.deepEqual(held.body.discount, eur(0));
      assert.equal(held.body.orderable, true, 'the visitor can go on without the voucher');
    }
    // An order with a code from there is refused on its voucher, and one without goes through.
    const withCode = await svc.json('/widget-api/v1/orders?key=wk_demo_checkout', {
      method: 'POST',
      headers: { ...writeHeaders(uniqueKey('order')), 'X-Forwarded-For': address },
      body: JSON.stringify(invoiceOrder({ voucher: 'WELCOME10' })),
    });
    assert.equal(withCode.status, 422);
    assert.match(withCode.body.error.fields.voucher, /was not checked: try it again in 10 minutes/);
    assert.equal((await quote(cart, { address })).status, 200, 'a quote without a voucher is no guess');
    assert.equal(
      (await quote({ ...cart, voucher: 'WELCOME10' })).body.voucher.status,
      'applied',
      'another address is not limited',
    );

    await svc.advance(600);
    assert.equal((await quote({ ...cart, voucher: 'WELCOME10' }, { address })).body.voucher.status, 'applied');
  });

  test('guesses from many addresses never refuse another visitor’s good code; they leave each address only a few wrong ones', async () => {
    // 300 wrong codes from 10 addresses: the key's count is full.
    const guessers = Array.from({ length: 10 }, () => visitorAddress());
    for (const [n, address] of guessers.entries()) {
      for (let i = 0; i < 30; i++) {
        assert.equal((await quote({ ...cart, voucher: `G${n}-${i}` }, { address })).body.voucher.status, 'unknown');
      }
    }
    // Every visitor's good code still applies, renewed guesses or not.
    for (let i = 0; i < 5; i++) {
      const visitor = await quote({ ...cart, voucher: 'WELCOME10' });
      assert.equal(visitor.status, 200);
      assert.equal(visitor.body.voucher.status, 'applied');
      assert.deepEqual(visitor.body.discount, eur(6800));
    }
    // While the key is being guessed at, a new address has 5 wrong codes, not 30.
    const newcomer = visitorAddress();
    for (let i = 0; i < 5; i++) {
      assert.equal((await quote({ ...cart, voucher: `NEW${i}` }, { address: newcomer })).body.voucher.status, 'unknown');
    }
    assert.equal((await quote({ ...cart, voucher: 'NEW5' }, { address: newcomer })).body.voucher.status, 'not-checked');
  });

  test('a quote is a read: nothing is stored, no voucher is counted', async () => {
    const before = await svc.rows('SELECT code, uses FROM vouchers ORDER BY code');
    const registrations = await svc.count('SELECT count(*) FROM registrations');
    assert.equal((await quote({ ...cart, voucher: 'THANKS15' })).body.voucher.status, 'applied');
    assert.equal((await quote({ ...cart, voucher: 'THANKS15' })).body.voucher.status, 'applied');
    assert.deepEqual(await svc.rows('SELECT code, uses FROM vouchers ORDER BY code'), before);
    assert.equal(await svc.count('SELECT count(*) FROM registrations'), registrations);
    assert.equal(await svc.count('SELECT count(*) FROM orders'), 0);
  });
});

describe('quote: bad input', () => {
  test('fields by their path, a class twice, the key’s type', async () => {
    const res = await quote({
      items: [
        { class_id: 'cls_web_2', seats: 0 },
        { class_id: 'cls_ts_2', seats: 21 },
        { class_id: 'cls_web_2', seats: 1 },
        { class_id: 'cls_data_2', seats: 1.5, price: 100 },
        'cls_lead_2',
      ],
      voucher: 'X'.repeat(41),
    });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.error.fields, {
      'items.0.seats': 'Book at least 1 seat, or remove the class from the cart.',
      'items.1.seats': 'Book at most 20 seats per class in one order.',
      'items.2.class_id': 'This class is in the cart twice: give it one line with all its seats.',
      'items.3.seats': 'Seats must be a whole number, like 2.',
      'items.3.price': 'Unknown field "items.3.price": remove it. Allowed in items.3: class_id, seats.',
      'items.4': 'Each item is an object like { "class_id": "cls_web_2", "seats": 1 }.',
      voucher: 'There is no voucher code this long: check the code.',
    });
    for (const [body, field] of [
      [{ items: [] }, 'items'],
      [{}, 'items'],
      [{ items: [{ class_id: 'cls_web_2', seats: 1 }], extra: 1 }, 'extra'],
    ] as const) {
      const bad = await quote(body);
      assert.equal(bad.status, 422, JSON.stringify(body));
      assert.ok(bad.body.error.fields[field], JSON.stringify(bad.body.error.fields));
    }
    const wrongKey = await quote({ items: [{ class_id: 'cls_web_2', seats: 1 }] }, { key: 'wk_demo_registration' });
    assert.equal(wrongKey.status, 403);
    assert.equal(wrongKey.body.error.code, 'type-mismatch');
  });
});
