/**
 * `POST /widget-api/v1/orders` and what follows it: the payment on the fake provider's page, the
 * expiry of unpaid orders, reading an order back, and where orders show (the profile, the REST API).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  FOREIGN_PAGE,
  LOCAL_PAGE,
  participantToken,
  registrationBody,
  uniqueKey,
  useTestService,
  visitorAddress,
  writeHeaders,
  type Json,
} from './helpers.ts';

// This machine stands for a proxy, so that each order can come from a visitor of its own.
const svc = useTestService({ trustProxy: ['127.0.0.1'] });

const RETURN_URL = `${LOCAL_PAGE}/checkout?step=done`;
const BUYER = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada.buyer@example.org',
  phone: '+49 30 1234567',
  organisation: 'Analytical Engines Ltd',
  address: { line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' },
};
const NAMES = ['Grace Hopper', 'Alan Turing', 'Edsger Dijkstra', 'Barbara Liskov', 'Donald Knuth', 'Frances Allen'];
const eur = (amount: number) => ({ amount, currency: 'EUR' });

/** An order body: each item with an attendee per seat. */
const orderBody = (items: { class_id: string; seats: number }[], extra: Record<string, unknown> = {}) => ({
  items: items.map((item) => ({
    ...item,
    attendees: Array.from({ length: item.seats }, (_, i) => {
      const [first_name, last_name] = NAMES[i % NAMES.length]!.split(' ');
      return { first_name, last_name };
    }),
  })),
  buyer: BUYER,
  payment_method: 'invoice',
  consent: true,
  ...extra,
});

interface Send {
  idem?: string;
  address?: string;
  key?: string;
}
const order = (body: unknown, { idem = uniqueKey('order'), address = visitorAddress(), key = 'wk_demo_checkout' }: Send = {}) =>
  svc.json(`/widget-api/v1/orders?key=${key}`, {
    method: 'POST',
    headers: { ...writeHeaders(idem), 'X-Forwarded-For': address },
    body: JSON.stringify(body),
  });
const quote = (body: unknown, key = 'wk_demo_checkout') =>
  svc.json(`/widget-api/v1/checkout/quote?key=${key}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: LOCAL_PAGE, 'X-Forwarded-For': visitorAddress() },
    body: JSON.stringify(body),
  });
const line = (res: { body: Json }, classId: string) => res.body.items.find((l: Json) => l.class_id === classId);
const read = (id: string, headers: Record<string, string> = {}, key = 'wk_demo_checkout') =>
  svc.json(`/widget-api/v1/orders/${id}?key=${key}`, { headers: { Origin: LOCAL_PAGE, ...headers } });
/** Each class's seats left, as the calendar shows them. */
const seatsLeft = async (classId: string): Promise<number> => {
  const { body } = await svc.json('/widget-api/v1/widget?key=wk_demo_registration&type=registration');
  return body.courses.flatMap((c: Json) => c.classes).find((cl: Json) => cl.id === classId).seats_left;
};
const stored = async () => ({
  orders: await svc.count('SELECT count(*) FROM orders'),
  registrations: await svc.count('SELECT count(*) FROM registrations'),
  vouchers: await svc.rows('SELECT code, uses FROM vouchers ORDER BY code'),
  emails: await svc.count('SELECT count(*) FROM outbox'),
});
/** The path of a link the service built from its public URL, to fetch it from the test's address. */
const pathOf = (url: string) => {
  assert.ok(url.startsWith(`${svc.publicUrl}/`), `${url} starts from the public URL`);
  return url.slice(svc.publicUrl.length);
};

describe('POST /widget-api/v1/orders', () => {
  test('an invoice order: every seat booked, priced as quoted, numbered, its buyer emailed', async () => {
    const items = [
      { class_id: 'cls_ts_2', seats: 2 },
      { class_id: 'cls_web_2', seats: 1 },
    ];
    const quoted = (await quote({ items, voucher: 'welcome10' })).body;
    const before = { ts: await seatsLeft('cls_ts_2'), web: await seatsLeft('cls_web_2') };
    const res = await order(orderBody(items, { voucher: 'welcome10', expected_total: quoted.total }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);
    const { order: o, token } = res.body;
    assert.match(o.id, /^ord_/);
    assert.match(token, /^otok_/);
    assert.equal(o.number, 'A-1001');
    assert.equal(o.status, 'confirmed');
    assert.deepEqual(o.payment, { method: 'invoice', kind: 'offline', status: 'due', redirect_url: null });
    assert.equal(o.voucher, 'WELCOME10');
    for (const k of ['subtotal', 'discount', 'tax', 'total', 'tax_rate', 'prices_include_tax'] as const) {
      assert.deepEqual(o[k], quoted[k], k);
    }
    assert.deepEqual(o.total, eur(2 * 29000 + 39000 - 9700));
    assert.deepEqual(o.buyer, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada.buyer@example.org' });
    assert.deepEqual(
      o.items.map((i: Json) => [i.class_id, i.seats, i.unit_price.amount, i.discount.amount, i.total.amount, i.attendees.length]),
      [
        ['cls_ts_2', 2, 29000, 5800, 52200, 2],
        ['cls_web_2', 1, 39000, 3900, 35100, 1],
      ],
    );
    assert.deepEqual(o.items[0].attendees, [
      { first_name: 'Grace', last_name: 'Hopper' },
      { first_name: 'Alan', last_name: 'Turing' },
    ]);
    assert.equal(o.calendar_url, `${svc.publicUrl}/widget-api/v1/calendar.ics?key=wk_demo_checkout&classes=cls_ts_2,cls_web_2`);

    assert.equal(await seatsLeft('cls_ts_2'), before.ts - 2);
    assert.equal(await seatsLeft('cls_web_2'), before.web - 1);
    const seats = await svc.rows(
      'SELECT class_id, first_name, email, status, order_id FROM registrations WHERE order_id IS NOT NULL ORDER BY class_id, first_name',
    );
    assert.deepEqual(
      seats.map((r: Json) => [r.class_id, r.first_name, r.email, r.status, r.order_id]),
      [
        ['cls_ts_2', 'Alan', BUYER.email, 'confirmed', o.id],
        ['cls_ts_2', 'Grace', BUYER.email, 'confirmed', o.id],
        ['cls_web_2', 'Grace', BUYER.email, 'confirmed', o.id],
      ],
    );
    assert.equal(await svc.count("SELECT uses FROM vouchers WHERE code = 'WELCOME10'"), 1);
    assert.equal(
      await svc.count('SELECT count(*) FROM participants WHERE email = ?', BUYER.email),
      1,
      'the buyer became a participant',
    );

    const [mail, ...more] = await svc.outbox(BUYER.email);
    assert.equal(more.length, 0);
    assert.equal(mail.subject, 'Order A-1001 confirmed: Acme Academy');
    const start = o.items[0].starts_at;
    const local = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: 'Europe/Berlin' }).format(
      Date.parse(start),
    );
    const zone = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', timeZoneName: 'shortOffset' })
      .formatToParts(Date.parse(start))
      .find((part) => part.type === 'timeZoneName')!.value;
    assert.match(zone, /^GMT\+[12]$/);
    assert.ok(
      mail.text.includes(`When:  ${local} ${zone}`),
      'the class’s time at its venue, its zone named as the widgets name it',
    );
    assert.match(mail.text, /Seats: 2 \(Grace Hopper, Alan Turing\)/);
    // 87300 × 19 / 119 = 13938.66…
    assert.match(mail.text, /Total: €873\.00, including 19 % VAT of €139\.39/);
    assert.match(mail.text, /invoice/);
    assert.ok(mail.text.includes(o.calendar_url));

    // Numbers run per company.
    assert.equal((await order(orderBody([{ class_id: 'cls_web_2', seats: 1 }]))).body.order.number, 'A-1002');
    const globex = await order(orderBody([{ class_id: 'cls_gx_safety_1', seats: 1 }]), { key: 'wk_globex_checkout' });
    assert.equal(globex.status, 201, JSON.stringify(globex.body));
    assert.equal(globex.body.order.number, 'G-1001');
    assert.deepEqual(globex.body.order.total, { amount: 16238, currency: 'USD' }, '150.00 + 8.25 % tax');
  });

  test('an existing participant’s profile is never rewritten by an order', async () => {
    const res = await order(
      orderBody([{ class_id: 'cls_web_2', seats: 1 }], { buyer: { ...BUYER, email: 'ADA@example.org', first_name: 'Augusta' } }),
    );
    assert.equal(res.status, 201);
    assert.deepEqual(await svc.rows("SELECT first_name, phone FROM participants WHERE email = 'ada@example.org'"), [
      { first_name: 'Ada', phone: '+44 20 7946 0001' },
    ]);
    assert.equal(await svc.count("SELECT count(*) FROM orders WHERE participant_id = 'p_ada'"), 1);
  });

  test('a free order is confirmed with nothing to pay; a payment method sent for it is ignored', async () => {
    for (const extra of [{ payment_method: null }, { payment_method: 'invoice' }]) {
      const res = await order(orderBody([{ class_id: 'cls_open_1', seats: 2 }], extra));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.order.status, 'confirmed');
      assert.deepEqual(res.body.order.payment, { method: null, kind: null, status: 'none', redirect_url: null });
      assert.deepEqual(res.body.order.total, eur(0));
    }
    assert.match((await svc.outbox(BUYER.email))[0].text, /Nothing to pay/);
  });

  test('a free order asks for no billing address and no names: its seats are booked in the buyer’s name; a paid order needs both', async () => {
    const { address: _address, ...buyer } = { ...BUYER, email: 'free.buyer@example.org' };
    const free = {
      items: [{ class_id: 'cls_open_1', seats: 2 }],
      buyer,
      expected_total: eur(0),
      consent: true,
    };
    const res = await order(free);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.order.status, 'confirmed');
    assert.deepEqual(res.body.order.items[0].attendees, [
      { first_name: 'Ada', last_name: 'Lovelace' },
      { first_name: 'Ada', last_name: 'Lovelace' },
    ]);
    assert.deepEqual(
      await svc.rows('SELECT first_name, last_name, email FROM registrations WHERE order_id = ?', res.body.order.id),
      Array.from({ length: 2 }, () => ({ first_name: 'Ada', last_name: 'Lovelace', email: 'free.buyer@example.org' })),
    );
    assert.match((await svc.outbox('free.buyer@example.org'))[0].text, /Seats: 2 \(Ada Lovelace, Ada Lovelace\)/);

    // A class that costs something: the address and a name per seat are asked for, each named.
    const before = await stored();
    const paid = await order({
      ...free,
      items: [{ class_id: 'cls_web_2', seats: 1 }],
      expected_total: undefined,
      payment_method: 'invoice',
    });
    assert.equal(paid.status, 422);
    assert.deepEqual(paid.body.error.fields, {
      'buyer.address': 'Send the billing address (line1, postal_code, city, country): the order costs €390.00.',
      'items.0.attendees': 'Send attendees: a name for each seat.',
    });
    assert.deepEqual(await stored(), before);
  });

  test('lines with fewer seats left than ordered: 409 class-full naming each, and nothing is booked', async () => {
    const items = [
      { class_id: 'cls_web_2', seats: 1 },
      { class_id: 'cls_web_1', seats: 6 },
      { class_id: 'cls_lead_1', seats: 1 },
    ];
    const seatsBefore = await Promise.all(items.map((i) => seatsLeft(i.class_id)));
    const before = await stored();
    const res = await order(orderBody(items, { voucher: 'THANKS15' }));
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'class-full');
    assert.match(res.body.error.message, /nothing was booked/);
    assert.deepEqual(res.body.error.lines, [
      { class_id: 'cls_web_1', seats_left: 5, status: 'open', held_until: null },
      { class_id: 'cls_lead_1', seats_left: 0, status: 'full', held_until: null },
    ]);
    assert.deepEqual(res.body.error.fields, {
      'items.1.seats': 'Only 5 seats are left in this class: book at most 5.',
      'items.2.seats': 'This class is full: remove it from the order.',
    });
    assert.deepEqual(await Promise.all(items.map((i) => seatsLeft(i.class_id))), seatsBefore, 'no seat taken');
    assert.deepEqual(await stored(), before, 'no order, no registration, no voucher use, no email');
  });

  test('an unknown or started class is 422 on its line', async () => {
    for (const [classId, message] of [
      ['cls_nope', /no such class/],
      ['cls_gx_safety_1', /no such class/],
      ['cls_web_past', /already started/],
    ] as const) {
      const res = await order(
        orderBody([
          { class_id: 'cls_web_2', seats: 1 },
          { class_id: classId, seats: 1 },
        ]),
      );
      assert.equal(res.status, 422, classId);
      assert.match(res.body.error.fields['items.1.class_id'], message);
    }
    assert.equal(await svc.count('SELECT count(*) FROM orders'), 0);
  });

  test('a voucher that does not apply is 422 fields.voucher with the quote’s message', async () => {
    for (const [code, message] of [
      ['SPRING25', 'The voucher SPRING25 has expired.'],
      ['FIRST50', 'The voucher FIRST50 has been used up.'],
      ['NOPE', 'There is no voucher NOPE: check the code.'],
      ['TEAM20', /valid for TypeScript for teams only/],
    ] as const) {
      const res = await order(orderBody([{ class_id: 'cls_web_2', seats: 1 }], { voucher: code }));
      assert.equal(res.status, 422, code);
      if (typeof message === 'string') assert.equal(res.body.error.fields.voucher, message);
      else assert.match(res.body.error.fields.voucher, message);
    }
  });

  test('another total than the one shown: 409 price-changed, nothing booked', async () => {
    const items = [{ class_id: 'cls_web_2', seats: 2 }];
    const before = await stored();
    const res = await order(orderBody(items, { expected_total: eur(70000) }));
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'price-changed');
    assert.match(
      res.body.error.message,
      /The total is now €780\.00, not the €700\.00 you were shown: check the new total and order again/,
    );
    assert.deepEqual(await stored(), before);
    const other = await order(orderBody(items, { expected_total: { amount: 78000, currency: 'USD' } }));
    assert.equal(other.body.error.code, 'price-changed');
    assert.equal((await order(orderBody(items, { expected_total: eur(78000) }))).status, 201);
  });

  test('the payment method must be one of the quote’s; a redirect one needs a return_url the key serves', async () => {
    const items = [{ class_id: 'cls_web_2', seats: 1 }];
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ payment_method: undefined }, 'payment_method', /Choose how to pay: one of invoice, on_site, card/],
      [{ payment_method: 'bitcoin' }, 'payment_method', /Choose one of the payment methods: invoice, on_site, card/],
      [{ payment_method: 'card' }, 'return_url', /Send return_url/],
      [
        { payment_method: 'card', return_url: `${FOREIGN_PAGE}/back` },
        'return_url',
        /does not serve pages on https:\/\/evil\.example/,
      ],
      [{ payment_method: 'card', return_url: 'javascript:alert(1)' }, 'return_url', /absolute http\(s\) address/],
    ];
    for (const [extra, field, message] of cases) {
      const res = await order(orderBody(items, extra));
      assert.equal(res.status, 422, JSON.stringify(extra));
      assert.match(res.body.error.fields[field], message);
    }
    assert.equal(await svc.count('SELECT count(*) FROM orders'), 0);
  });

  test('field errors inside the body are named by their path, unknown nested fields too', async () => {
    const body = orderBody([{ class_id: 'cls_web_2', seats: 2 }]) as Json;
    body.items[0].attendees[1] = { first_name: '', last_name: 'Turing', title: 'Dr' };
    body.items[0].price = 1;
    body.buyer = { ...BUYER, email: 'not an email', address: { line1: 'Torstraße 1', postal_code: '10119', country: 'de' } };
    const res = await order(body);
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.error.fields, {
      'items.0.attendees.1.first_name': 'Enter your first name.',
      'items.0.attendees.1.title':
        'Unknown field "items.0.attendees.1.title": remove it. Allowed in items.0.attendees.1: first_name, last_name.',
      'items.0.price': 'Unknown field "items.0.price": remove it. Allowed in items.0: class_id, seats, attendees.',
      'buyer.email': 'Enter a valid email address, like name@example.org.',
      'buyer.address.city': 'Enter the city.',
      'buyer.address.country': 'Choose the country by its two-letter ISO 3166 code, such as DE.',
    });
    // Any country of ISO 3166 (not only Europe's), and nothing else.
    for (const [country, status] of [
      ['ZZ', 422],
      ['GR', 201],
      ['CA', 201],
    ] as const) {
      const res = await order(
        orderBody([{ class_id: 'cls_web_2', seats: 1 }], { buyer: { ...BUYER, address: { ...BUYER.address, country } } }),
      );
      assert.equal(res.status, status, `${country}: ${JSON.stringify(res.body)}`);
    }
    const short = orderBody([{ class_id: 'cls_web_2', seats: 2 }]) as Json;
    short.items[0].attendees.pop();
    assert.equal(
      (await order(short)).body.error.fields['items.0.attendees'],
      'Give one name for each seat: as many attendees as seats.',
    );
    const { buyer: _buyer, ...noBuyer } = orderBody([{ class_id: 'cls_web_2', seats: 1 }]);
    assert.match((await order(noBuyer)).body.error.fields.buyer, /Send buyer: an object with first_name/);
    assert.match(
      (await order(orderBody([{ class_id: 'cls_web_2', seats: 1 }], { expected_total: { amount: 1, currency: 'EUR', tax: 0 } })))
        .body.error.fields['expected_total.tax'],
      /Unknown field/,
    );
  });

  test('two orders for the last seats at once: one gets them, the other is told class-full', async () => {
    // cls_lead_2 has 6 seats, none taken.
    const answers = await Promise.all([1, 2].map(() => order(orderBody([{ class_id: 'cls_lead_2', seats: 4 }]))));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    assert.deepEqual(refused.body.error.lines, [{ class_id: 'cls_lead_2', seats_left: 2, status: 'open', held_until: null }]);
    assert.equal(await svc.count("SELECT count(*) FROM registrations WHERE class_id = 'cls_lead_2' AND status = 'confirmed'"), 4);
    assert.equal(await svc.count('SELECT count(*) FROM orders'), 1);
  });

  test('a voucher of one use, in two orders at once: one gets it, the other is told it is used up', async () => {
    const answers = await Promise.all(
      ['cls_web_2', 'cls_ts_2'].map((classId) => order(orderBody([{ class_id: classId, seats: 1 }], { voucher: 'THANKS15' }))),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 422]);
    assert.equal(answers.find((a) => a.status === 201)!.body.order.voucher, 'THANKS15');
    assert.equal(answers.find((a) => a.status === 422)!.body.error.fields.voucher, 'The voucher THANKS15 has been used up.');
    assert.equal(await svc.count("SELECT uses FROM vouchers WHERE code = 'THANKS15'"), 1);
    assert.equal(await svc.count('SELECT count(*) FROM orders'), 1);
  });

  test('a double submit makes one order and one email; a replay answers it again with the same token, never a new one', async () => {
    const body = orderBody([{ class_id: 'cls_web_2', seats: 1 }]);
    const idem = uniqueKey('double');
    const address = visitorAddress();
    const answers = await Promise.all([order(body, { idem, address }), order(body, { idem, address })]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 201]);
    const [first, replay] = answers[0]!.status === 201 ? answers : [answers[1]!, answers[0]!];
    assert.equal(replay!.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay!.body.order, first!.body.order);
    assert.equal(replay!.body.token, first!.body.token, 'the idempotency key is no way to new credentials');
    assert.equal((await read(first!.body.order.id, { 'X-Order-Token': first!.body.token })).status, 200);
    // Replayed again and again later: still the one token, and one stored (as its hash).
    for (let i = 0; i < 3; i++) assert.equal((await order(body, { idem, address })).body.token, first!.body.token);
    assert.equal(await svc.count('SELECT count(*) FROM order_tokens WHERE order_id = ?', first!.body.order.id), 1);
    assert.equal(await svc.count('SELECT count(*) FROM orders'), 1);
    assert.equal(await svc.count('SELECT count(*) FROM registrations WHERE order_id IS NOT NULL'), 1);
    assert.equal((await svc.outbox(BUYER.email)).length, 1);
    assert.equal(
      await svc.count("SELECT count(*) FROM idempotency WHERE response LIKE '%otok_%'"),
      0,
      'no token stored in clear',
    );

    const reused = await order({ ...body, payment_method: 'on_site' }, { idem, address });
    assert.equal(reused.status, 409);
    assert.equal(reused.body.error.code, 'idempotency-key-reused');
  });

  test('an order placed before tokens were made from the order’s id (a random token): its replay’s token reads it back', async () => {
    const body = orderBody([{ class_id: 'cls_web_2', seats: 1 }]);
    const idem = uniqueKey('old');
    const address = visitorAddress();
    const first = await order(body, { idem, address });
    // As an older service stored it: the hash of a random token only.
    await svc.exec('DELETE FROM order_tokens WHERE order_id = ?', first.body.order.id);
    await svc.exec("INSERT INTO order_tokens (hash, order_id, created_at) VALUES ('0f0f', ?, 0)", first.body.order.id);
    assert.equal((await read(first.body.order.id, { 'X-Order-Token': first.body.token })).status, 401);
    const replay = await order(body, { idem, address });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal((await read(first.body.order.id, { 'X-Order-Token': replay.body.token })).status, 200);
    assert.equal((await order(body, { idem, address })).body.token, replay.body.token, 'and the same one again');
  });

  test('orders are limited per address (429 with Retry-After); a replay is not counted', async () => {
    const address = visitorAddress();
    const idem = uniqueKey('first');
    const body = orderBody([{ class_id: 'cls_web_2', seats: 1 }]);
    for (let i = 0; i < 10; i++) {
      const res = await order(body, { address, ...(i === 0 ? { idem } : {}) });
      assert.equal(res.status, 201, `order ${i + 1}`);
    }
    const refused = await order(body, { address });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate-limited');
    assert.match(refused.body.error.message, /Too many orders from here/);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await order(body, { address, idem })).status, 200, 'the replay of the first order still answers');
    assert.equal((await order(body)).status, 201, 'another address may order');
  });

  test('the key must be a checkout key of an allowed page', async () => {
    const body = orderBody([{ class_id: 'cls_web_2', seats: 1 }]);
    const mismatch = await order(body, { key: 'wk_demo_calendar' });
    assert.equal(mismatch.body.error.code, 'type-mismatch');
    const foreign = await svc.json('/widget-api/v1/orders?key=wk_demo_checkout', {
      method: 'POST',
      headers: writeHeaders(uniqueKey(), FOREIGN_PAGE),
      body: JSON.stringify(body),
    });
    assert.equal(foreign.body.error.code, 'origin-not-allowed');
    const noIdem = await svc.json('/widget-api/v1/orders?key=wk_demo_checkout', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: LOCAL_PAGE },
      body: JSON.stringify(body),
    });
    assert.equal(noIdem.body.error.code, 'missing-idempotency-key');
  });
});

describe('seats held by orders waiting for their payment', () => {
  const cardOrder = (items: { class_id: string; seats: number }[], address = visitorAddress()) =>
    order(orderBody(items, { payment_method: 'card', return_url: RETURN_URL }), { address });
  const classOf = async (classId: string) => {
    const { body } = await svc.json('/widget-api/v1/widget?key=wk_demo_registration&type=registration');
    return body.courses.flatMap((c: Json) => c.classes).find((cl: Json) => cl.id === classId);
  };

  test('an order holds at most 20 seats in all, and one address orders at most 40 seats an hour: a hold that runs out is not taken again at once', async () => {
    const tooMany = [
      { class_id: 'cls_data_2', seats: 15 },
      { class_id: 'cls_data_3', seats: 10 },
    ];
    const big = await quote({ items: tooMany });
    assert.equal(big.status, 422);
    assert.equal(
      big.body.error.fields.items,
      'An order holds at most 20 seats in all, and this one has 25: book the others in a second order.',
    );
    assert.equal((await order(orderBody(tooMany))).body.error.fields.items, big.body.error.fields.items);

    const address = visitorAddress();
    const held = await cardOrder([{ class_id: 'cls_data_2', seats: 20 }], address);
    assert.equal(held.status, 201, JSON.stringify(held.body));
    assert.equal((await order(orderBody([{ class_id: 'cls_data_3', seats: 20 }]), { address })).status, 201);
    const more = await order(orderBody([{ class_id: 'cls_data_2', seats: 1 }]), { address });
    assert.equal(more.status, 429);
    assert.equal(more.body.error.code, 'rate-limited');
    assert.equal(more.body.error.message, 'At most 40 seats an hour may be booked from here: try again in 1 hour.');
    assert.equal(more.headers.get('retry-after'), String(more.body.error.retry_after));

    // The unpaid order's seats come free after 15 minutes, but not to the same address at once.
    await svc.advance(15 * 60 + 1);
    assert.equal((await classOf('cls_data_2')).seats_left, 30);
    const renewed = await cardOrder([{ class_id: 'cls_data_2', seats: 20 }], address);
    assert.equal(renewed.status, 429);
    assert.equal(renewed.body.error.message, 'At most 40 seats an hour may be booked from here: try again in 45 minutes.');
    assert.equal((await cardOrder([{ class_id: 'cls_data_2', seats: 20 }])).status, 201, 'another address may');
    await svc.advance(45 * 60);
    assert.equal((await order(orderBody([{ class_id: 'cls_data_3', seats: 5 }]), { address })).status, 201, 'an hour on');
  });

  test('only seats really booked count: refused orders use up nothing, and a refusal says how many may still be booked', async () => {
    const address = visitorAddress();
    const twenty = orderBody([{ class_id: 'cls_data_2', seats: 20 }]);
    for (const refusal of [{ voucher: 'NOPE' }, { expected_total: { amount: 1, currency: 'EUR' } }]) {
      for (let i = 0; i < 2; i++) assert.ok([409, 422].includes((await order({ ...twenty, ...refusal }, { address })).status));
    }
    assert.equal((await order(orderBody([{ class_id: 'cls_lead_1', seats: 20 }]), { address })).status, 409, 'full');
    assert.equal((await order(twenty, { address })).status, 201, 'nothing was booked before: the first 20');
    assert.equal((await order(orderBody([{ class_id: 'cls_data_3', seats: 10 }]), { address })).status, 201);
    const tooMany = await order(orderBody([{ class_id: 'cls_data_3', seats: 15 }]), { address });
    assert.equal(tooMany.status, 429);
    assert.equal(
      tooMany.body.error.message,
      'At most 40 seats an hour may be booked from here: 10 more can be booked now (this booking has 15), or more in 1 hour.',
    );
    assert.equal((await order(orderBody([{ class_id: 'cls_data_3', seats: 10 }]), { address })).status, 201, 'the 10 left');
  });

  test('registrations count their seats with orders; another company, and another /64 of IPv6, count apart', async () => {
    const address = '2001:db8::1';
    assert.equal((await order(orderBody([{ class_id: 'cls_data_2', seats: 20 }]), { address })).status, 201);
    assert.equal((await order(orderBody([{ class_id: 'cls_data_3', seats: 20 }]), { address })).status, 201);
    const register = (classId: string, from: string) =>
      svc.json('/widget-api/v1/registrations?key=wk_demo_registration', {
        method: 'POST',
        headers: { ...writeHeaders(uniqueKey()), 'X-Forwarded-For': from },
        body: JSON.stringify(registrationBody({ class_id: classId })),
      });
    const seat = await register('cls_web_2', '2001:db8::2');
    assert.equal(seat.status, 429, 'the same /64');
    assert.match(seat.body.error.message, /^At most 40 seats an hour may be booked from here: try again in/);
    assert.equal(
      (await register('cls_ts_1', '2001:db8::3')).body.registration.status,
      'waitlisted',
      'a waitlist place is no seat',
    );
    assert.equal((await register('cls_web_2', '2001:db8:0:1::1')).status, 201, 'another /64');
    const globex = await order(orderBody([{ class_id: 'cls_gx_safety_1', seats: 1 }]), { address, key: 'wk_globex_checkout' });
    assert.equal(globex.status, 201, 'another company');
  });

  test('a class whose last seats are only held says so, and until when, rather than full for good', async () => {
    // cls_lead_2: 6 seats, none taken, no waitlist.
    const holding = await cardOrder([{ class_id: 'cls_lead_2', seats: 6 }]);
    assert.equal(holding.status, 201);
    const until = new Date(Date.parse(holding.body.order.created_at) + 15 * 60_000).toISOString();

    const shown = await classOf('cls_lead_2');
    assert.deepEqual([shown.seats_left, shown.status, shown.held_until], [0, 'full', until]);
    assert.equal((await classOf('cls_lead_1')).held_until, null, 'a class full of confirmed places is simply full');
    assert.equal((await classOf('cls_web_2')).held_until, null);
    // The calendar's month of the class (by its venue's date) and the map's place (Vienna's three classes).
    const month = new Intl.DateTimeFormat('en-CA', { timeZone: shown.timezone, year: 'numeric', month: '2-digit' }).format(
      new Date(shown.starts_at),
    );
    const calendar = await svc.json(`/widget-api/v1/calendar?key=wk_demo_calendar&month=${month}`, {
      headers: { Origin: LOCAL_PAGE },
    });
    assert.equal(calendar.body.classes.find((c: Json) => c.id === 'cls_lead_2').held_until, until);
    const places = (await svc.json('/widget-api/v1/widget?key=wk_demo_map&type=map', { headers: { Origin: LOCAL_PAGE } })).body
      .places;
    assert.equal(places.flatMap((p: Json) => p.classes).find((c: Json) => c.id === 'cls_lead_2').held_until, until);

    const registered = await svc.json('/widget-api/v1/registrations?key=wk_demo_registration', {
      method: 'POST',
      headers: { ...writeHeaders(uniqueKey()), 'X-Forwarded-For': visitorAddress() },
      body: JSON.stringify(registrationBody({ class_id: 'cls_lead_2' })),
    });
    assert.equal(registered.status, 409);
    assert.equal(registered.body.error.code, 'class-full');
    assert.equal(
      registered.body.error.message,
      'The last seats of this class are held by orders waiting for their payment: try again in 15 minutes, or choose another date.',
    );
    assert.equal(registered.body.error.held_until, until);

    const quoted = line(await quote({ items: [{ class_id: 'cls_lead_2', seats: 1 }] }), 'cls_lead_2');
    assert.equal(quoted.problem, 'class-full');
    assert.equal(quoted.held_until, until);
    assert.equal(
      quoted.message,
      'The last seats of this class are held by orders waiting for their payment: try again in 15 minutes, or remove it.',
    );
    const refused = await order(orderBody([{ class_id: 'cls_lead_2', seats: 1 }]));
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body.error.lines, [{ class_id: 'cls_lead_2', seats_left: 0, status: 'full', held_until: until }]);
    assert.equal(refused.body.error.fields['items.0.seats'], quoted.message);

    // Once the hold runs out, the seats are anyone's.
    await svc.advance(15 * 60);
    assert.deepEqual([(await classOf('cls_lead_2')).seats_left, (await classOf('cls_lead_2')).held_until], [6, null]);
  });

  test('a line short of seats because some are held says how many are left and for how long the rest are held', async () => {
    assert.equal((await cardOrder([{ class_id: 'cls_lead_2', seats: 4 }])).status, 201);
    const quoted = line(await quote({ items: [{ class_id: 'cls_lead_2', seats: 3 }] }), 'cls_lead_2');
    assert.equal(quoted.problem, 'not-enough-seats');
    assert.equal(quoted.seats_left, 2);
    assert.equal(
      quoted.message,
      'Only 2 seats are left in this class (more are held by orders waiting for their payment, the first hold ending in 15 minutes): book at most 2, or remove it.',
    );
    assert.equal((await classOf('cls_lead_2')).held_until, null, 'seats are left: the class is open');
  });
});

describe('card payment on the fake provider’s page', () => {
  const cardOrder = async (items = [{ class_id: 'cls_ts_2', seats: 2 }], extra: Record<string, unknown> = {}) => {
    const res = await order(orderBody(items, { payment_method: 'card', return_url: RETURN_URL, ...extra }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { order: Json; token: string };
  };
  /** The page of the payment, and its two forms' actions. */
  const providerPage = async (redirectUrl: string) => {
    const res = await svc.fetch(pathOf(redirectUrl));
    const html = await res.text();
    const actions = [
      ...html.matchAll(/<form method="post" action="([^"]+)"><button type="submit"[^>]*>([^<]+)<\/button><\/form>/g),
    ].map((m) => ({ action: m[1]!, label: m[2]! }));
    return { res, html, actions };
  };
  const post = (path: string) => svc.fetch(path, { method: 'POST', redirect: 'manual' });

  test('card: pending with its seats held, paid on the provider’s page, back to return_url, confirmed and emailed', async () => {
    const before = await seatsLeft('cls_ts_2');
    const { order: o, token } = await cardOrder();
    assert.equal(o.status, 'pending_payment');
    assert.equal(o.payment.method, 'card');
    assert.equal(o.payment.kind, 'redirect');
    assert.equal(o.payment.status, 'pending');
    assert.match(o.payment.redirect_url, new RegExp(`^${svc.publicUrl}/dev/pay/pay_`));
    assert.equal(await seatsLeft('cls_ts_2'), before - 2, 'seats held while paying');
    assert.equal((await svc.outbox(BUYER.email)).length, 0, 'no confirmation before the payment');

    const { res, html, actions } = await providerPage(o.payment.redirect_url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'; style-src 'self'/);
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<title>Pay order A-1001<\/title>/);
    assert.match(html, /<dd>Acme Academy<\/dd>/);
    assert.match(html, /<dd>€580\.00<\/dd>/);
    assert.doesNotMatch(html, /<script|<style|style=/);
    assert.deepEqual(
      actions.map((a) => a.label),
      ['Pay €580.00', 'Cancel'],
    );

    const paid = await post(actions[0]!.action);
    assert.equal(paid.status, 303);
    assert.equal(paid.headers.get('location'), RETURN_URL);
    const back = await read(o.id, { 'X-Order-Token': token });
    assert.equal(back.body.order.status, 'confirmed');
    assert.deepEqual(back.body.order.payment, { method: 'card', kind: 'redirect', status: 'paid', redirect_url: null });
    assert.equal(await seatsLeft('cls_ts_2'), before - 2);
    const mails = await svc.outbox(BUYER.email);
    assert.equal(mails.length, 1);
    assert.match(mails[0].text, /Paid by card/);

    // Posting again changes nothing; the page says it is paid.
    assert.equal((await post(actions[0]!.action)).status, 303);
    assert.equal((await post(actions[1]!.action)).status, 303);
    assert.equal((await read(o.id, { 'X-Order-Token': token })).body.order.status, 'confirmed', 'a late cancel leaves it paid');
    assert.equal((await svc.outbox(BUYER.email)).length, 1);
    assert.match((await providerPage(o.payment.redirect_url)).html, /Order A-1001 is paid/);
  });

  test('Pay and Cancel take the provider page’s own form posts only: another site’s form changes nothing (403)', async () => {
    const { order: o, token } = await cardOrder();
    const { actions } = await providerPage(o.payment.redirect_url);
    const forged: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'cross-site', Origin: FOREIGN_PAGE },
      { 'Sec-Fetch-Site': 'same-site', Origin: 'http://shop.localhost:5173' },
      { Origin: FOREIGN_PAGE }, // a browser without Sec-Fetch-Site
      { Origin: 'null' },
    ];
    for (const headers of forged) {
      for (const { action } of actions) {
        const res = await svc.fetch(action, { method: 'POST', redirect: 'manual', headers });
        assert.equal(res.status, 403, JSON.stringify(headers));
        assert.match(await res.text(), /made or cancelled with the buttons of its own page only/);
      }
    }
    assert.equal((await read(o.id, { 'X-Order-Token': token })).body.order.status, 'pending_payment', 'nothing changed');
    // The page's own form: same-origin.
    const paid = await svc.fetch(actions[0]!.action, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Sec-Fetch-Site': 'same-origin', Origin: new URL(svc.url).origin },
    });
    assert.equal(paid.status, 303);
    assert.equal((await read(o.id, { 'X-Order-Token': token })).body.order.status, 'confirmed');
  });

  test('cancel on the provider’s page: the order is cancelled, its seats and voucher use given back', async () => {
    const before = await seatsLeft('cls_ts_2');
    const { order: o, token } = await cardOrder([{ class_id: 'cls_ts_2', seats: 2 }], { voucher: 'THANKS15' });
    assert.equal(await svc.count("SELECT uses FROM vouchers WHERE code = 'THANKS15'"), 1);
    const { actions } = await providerPage(o.payment.redirect_url);
    const cancelled = await post(actions[1]!.action);
    assert.equal(cancelled.status, 303);
    assert.equal(cancelled.headers.get('location'), RETURN_URL);
    const back = (await read(o.id, { 'X-Order-Token': token })).body.order;
    assert.equal(back.status, 'cancelled');
    assert.equal(back.payment.status, 'cancelled');
    assert.equal(await seatsLeft('cls_ts_2'), before, 'seats released');
    assert.equal(await svc.count("SELECT uses FROM vouchers WHERE code = 'THANKS15'"), 0, 'the voucher may be used again');
    assert.equal(await svc.count("SELECT count(*) FROM registrations WHERE order_id = ? AND status = 'cancelled'", o.id), 2);

    const late = await post(actions[0]!.action);
    assert.equal(late.status, 409);
    assert.match(await late.text(), /was cancelled, or its 15 minutes to pay ran out: nothing was charged/);
    assert.equal((await read(o.id, { 'X-Order-Token': token })).body.order.status, 'cancelled');
  });

  test('unpaid after 15 minutes of the service clock: cancelled, seats released, the waitlist moves up', async () => {
    // The order takes every seat of cls_web_1; then someone joins its waitlist.
    const { order: o, token } = await cardOrder([{ class_id: 'cls_web_1', seats: 5 }]);
    const waiting = await svc.json('/widget-api/v1/registrations?key=wk_demo_registration', {
      method: 'POST',
      headers: { ...writeHeaders(uniqueKey()), 'X-Forwarded-For': visitorAddress() },
      body: JSON.stringify(registrationBody({ class_id: 'cls_web_1', email: 'waiting@example.org' })),
    });
    assert.equal(waiting.body.registration.status, 'waitlisted');

    await svc.advance(15 * 60 - 5);
    assert.equal((await read(o.id, { 'X-Order-Token': token })).body.order.status, 'pending_payment');
    assert.equal(await seatsLeft('cls_web_1'), 0);
    await svc.advance(10);
    const expired = (await read(o.id, { 'X-Order-Token': token })).body.order;
    assert.equal(expired.status, 'cancelled');
    assert.equal(expired.payment.status, 'cancelled');
    assert.equal(expired.payment.redirect_url, null);
    assert.equal(await seatsLeft('cls_web_1'), 4, 'five seats back, one to the person who waited');
    assert.match((await svc.outbox('waiting@example.org'))[0].subject, /^Registration confirmed/);

    const { html } = await providerPage(o.payment.redirect_url);
    assert.match(html, /nothing was charged/);
    const late = await post(`${new URL(o.payment.redirect_url).pathname}/pay`);
    assert.equal(late.status, 409);
    assert.equal((await read(o.id, { 'X-Order-Token': token })).body.order.status, 'cancelled');
  });

  test('the buyer cancels an order waiting for its payment (its token): seats and voucher back, a new order may take them', async () => {
    const cancel = (id: string, token?: string) =>
      svc.json(`/widget-api/v1/orders/${id}/cancel?key=wk_demo_checkout`, {
        method: 'POST',
        headers: { Origin: LOCAL_PAGE, 'X-Forwarded-For': visitorAddress(), ...(token ? { 'X-Order-Token': token } : {}) },
      });
    // The order holds every seat of cls_web_1, with a voucher of one use.
    const before = await seatsLeft('cls_web_1');
    const { order: o, token } = await cardOrder([{ class_id: 'cls_web_1', seats: before }], { voucher: 'THANKS15' });
    assert.equal(await seatsLeft('cls_web_1'), 0);
    // Another token, none, another order's id: the same 401, and the order stays.
    for (const [id, t] of [
      [o.id, undefined],
      [o.id, 'tok_wrong'],
      ['ord_nope', token],
    ] as const) {
      const refused = await cancel(id, t);
      assert.equal(refused.status, 401, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 'invalid-token');
    }
    assert.equal((await read(o.id, { 'X-Order-Token': token })).body.order.status, 'pending_payment');

    const cancelled = await cancel(o.id, token);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.order.status, 'cancelled');
    assert.equal(cancelled.body.order.payment.status, 'cancelled');
    assert.equal(await seatsLeft('cls_web_1'), before);
    assert.equal(await svc.count("SELECT uses FROM vouchers WHERE code = 'THANKS15'"), 0);
    // Again: the same answer. The provider's page now says nothing is to be paid.
    assert.equal((await cancel(o.id, token)).body.order.status, 'cancelled');
    assert.equal(
      (await svc.fetch(`${new URL(o.payment.redirect_url).pathname}/pay`, { method: 'POST', redirect: 'manual' })).status,
      409,
    );
    // The same seats and voucher in a new order.
    const again = await order(orderBody([{ class_id: 'cls_web_1', seats: before }], { voucher: 'THANKS15' }));
    assert.equal(again.status, 201, JSON.stringify(again.body));
    // A confirmed order is not the buyer's to cancel.
    const confirmed = await cancel(again.body.order.id, again.body.token);
    assert.equal(confirmed.status, 409);
    assert.equal(confirmed.body.error.code, 'not-pending');
    assert.equal((await read(again.body.order.id, { 'X-Order-Token': again.body.token })).body.order.status, 'confirmed');
  });

  test('an unknown payment is a 404 page that says how to get back, in the demo’s look', async () => {
    for (const path of ['/dev/pay/pay_AAAAAAAAAAAAAAAA', '/dev/pay/nope']) {
      const res = await svc.fetch(path);
      assert.equal(res.status, 404);
      const html = await res.text();
      assert.match(html, /There is no payment at this address/);
      assert.match(html, /Go back to the shop with your browser’s Back button, or open its page again/);
      assert.match(html, /<a class="button secondary" href="\/#checkout">Open the demo’s checkout<\/a>/);
      assert.match(html, /<link rel="stylesheet" href="\/demo\/assets\/provider\.css">/);
      assert.doesNotMatch(html, /<script|<style|style=/);
      assert.equal((await post(`${path}/pay`)).status, 404);
    }
  });

  test('a page whose order is known leads back to the shop; a refused post back to the payment page', async () => {
    const { order: o } = await cardOrder();
    const { actions } = await providerPage(o.payment.redirect_url);
    assert.equal((await post(actions[0]!.action)).status, 303);
    const paid = (await providerPage(o.payment.redirect_url)).html;
    assert.ok(paid.includes(`<a class="button" href="${RETURN_URL}">Back to the shop</a>`), paid);
    const forged = await svc.fetch(actions[1]!.action, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Sec-Fetch-Site': 'cross-site' },
    });
    assert.equal(forged.status, 403);
    assert.ok((await forged.text()).includes(`href="${new URL(o.payment.redirect_url).pathname}">Open the payment page</a>`));
  });
});

describe('GET /widget-api/v1/orders/{id}', () => {
  test('with its token (a header, never the URL), or as the participant who bought it; anyone else is 401 alike', async () => {
    const first = (
      await order(orderBody([{ class_id: 'cls_web_2', seats: 1 }], { buyer: { ...BUYER, email: 'ada@example.org' } }))
    ).body;
    const second = (await order(orderBody([{ class_id: 'cls_ts_2', seats: 1 }]))).body;

    const ok = await read(first.order.id, { 'X-Order-Token': first.token });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, { order: first.order });
    assert.equal(ok.headers.get('access-control-allow-origin'), LOCAL_PAGE);

    const refusals: [string, Record<string, string>, string?][] = [
      [first.order.id, {}],
      [first.order.id, { 'X-Order-Token': 'otok_wrong' }],
      [first.order.id, { 'X-Order-Token': second.token }],
      ['ord_nope', { 'X-Order-Token': first.token }],
      [first.order.id, { 'X-Order-Token': first.token }, 'wk_globex_checkout'],
    ];
    const bodies = [];
    for (const [id, headers, key] of refusals) {
      const res = await read(id, headers, key);
      assert.equal(res.status, 401, `${id} ${JSON.stringify(headers)} ${key ?? ''}`);
      bodies.push(res.body);
    }
    assert.equal(new Set(bodies.map((b) => JSON.stringify(b))).size, 1, 'the same answer for every refusal');
    assert.equal(bodies[0].error.code, 'invalid-token');
    const inUrl = await svc.json(`/widget-api/v1/orders/${first.order.id}?key=wk_demo_checkout&token=${first.token}`);
    assert.equal(inUrl.status, 401, 'a token in the URL is no token');

    // The preflight lets a page send the header.
    const preflight = await svc.fetch(`/widget-api/v1/orders/${first.order.id}?key=wk_demo_checkout`, {
      method: 'OPTIONS',
      headers: { Origin: LOCAL_PAGE, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-order-token' },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /X-Order-Token/);

    // Ada's own sign-in reads her order (with her profile key or any other key of Acme), not someone else's.
    const token = await participantToken(svc, 'ada@example.org');
    assert.equal((await read(first.order.id, { 'X-Service-Token': token })).status, 200);
    assert.equal((await read(first.order.id, { 'X-Service-Token': token }, 'wk_demo_profile')).status, 200);
    assert.equal((await read(second.order.id, { 'X-Service-Token': token })).status, 401);
  });
});

describe('where orders show', () => {
  test('the profile lists the buyer’s orders, newest first; their seats are not registrations to cancel one by one', async () => {
    const buyer = { ...BUYER, email: 'ada@example.org' };
    const older = (await order(orderBody([{ class_id: 'cls_ts_2', seats: 2 }], { buyer }))).body.order;
    await svc.advance(60);
    const newer = (
      await order(orderBody([{ class_id: 'cls_web_2', seats: 1 }], { buyer, payment_method: 'card', return_url: RETURN_URL }))
    ).body.order;
    const token = await participantToken(svc, 'ada@example.org');
    const me = (
      await svc.json('/widget-api/v1/participant/me?key=wk_demo_profile', {
        method: 'POST',
        headers: { Origin: LOCAL_PAGE, 'X-Service-Token': token },
      })
    ).body;
    assert.deepEqual(
      me.orders.map((x: Json) => [x.number, x.status]),
      [
        [newer.number, 'pending_payment'],
        [older.number, 'confirmed'],
      ],
    );
    assert.deepEqual(me.orders[1], {
      id: older.id,
      number: older.number,
      status: 'confirmed',
      created_at: older.created_at,
      total: older.total,
      items: [
        {
          class_id: 'cls_ts_2',
          course_title: 'TypeScript for teams',
          starts_at: older.items[0].starts_at,
          ends_at: older.items[0].ends_at,
          timezone: 'Europe/Berlin',
          location: 'Hamburg, Am Sandtorkai 4',
          seats: 2,
          // Upcoming by the service's clock: the profile lists it with her upcoming classes.
          past: false,
        },
      ],
    });
    assert.deepEqual(
      me.registrations.map((r: Json) => r.id).sort(),
      ['reg_seed_ada_ts_1', 'reg_seed_ada_web_past'],
      'her own registrations only',
    );
    // Once the class has started by the service clock, its seats are past.
    const clock = (await svc.json('/dev/clock')).body.now;
    await svc.json('/dev/clock', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance_s: Math.ceil((Date.parse(older.items[0].starts_at) - Date.parse(clock)) / 1000) + 60 }),
    });
    const later = (
      await svc.json('/widget-api/v1/participant/me?key=wk_demo_profile', {
        method: 'POST',
        headers: { Origin: LOCAL_PAGE, 'X-Service-Token': token },
      })
    ).body;
    assert.equal(later.orders.find((x: Json) => x.id === older.id).items[0].past, true);

    const [seat] = await svc.rows<{ id: string }>('SELECT id FROM registrations WHERE order_id = ? LIMIT 1', older.id);
    const cancel = await svc.json(`/widget-api/v1/participant/registrations/${seat!.id}/cancel?key=wk_demo_profile`, {
      method: 'POST',
      headers: { Origin: LOCAL_PAGE, 'X-Service-Token': token, 'Idempotency-Key': uniqueKey() },
    });
    assert.equal(cancel.status, 409);
    assert.equal(cancel.body.error.code, 'not-cancellable');
    assert.match(cancel.body.error.message, /belongs to an order/);
    assert.equal(await svc.count("SELECT count(*) FROM registrations WHERE order_id = ? AND status = 'confirmed'", older.id), 2);

    // Renaming herself does not rename the people she booked.
    await svc.json('/widget-api/v1/participant/profile?key=wk_demo_profile', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: LOCAL_PAGE,
        'X-Service-Token': token,
        'Idempotency-Key': uniqueKey(),
      },
      body: JSON.stringify({ first_name: 'Augusta' }),
    });
    assert.deepEqual(
      (await svc.rows('SELECT first_name FROM registrations WHERE order_id = ? ORDER BY first_name', older.id)).map(
        (r: Json) => r.first_name,
      ),
      ['Alan', 'Grace'],
    );
  });

  test('the buyer may still register on their own for a class their order has seats in', async () => {
    assert.equal((await order(orderBody([{ class_id: 'cls_web_2', seats: 1 }]))).status, 201);
    const own = await svc.json('/widget-api/v1/registrations?key=wk_demo_registration', {
      method: 'POST',
      headers: { ...writeHeaders(uniqueKey()), 'X-Forwarded-For': visitorAddress() },
      body: JSON.stringify(registrationBody({ class_id: 'cls_web_2', email: BUYER.email })),
    });
    assert.equal(own.status, 201);
    assert.equal(
      await svc.count("SELECT count(*) FROM registrations WHERE email = ? AND class_id = 'cls_web_2'", BUYER.email),
      2,
    );
    assert.match((await svc.outbox(BUYER.email))[0].subject, /^Registration confirmed/);
  });

  test('the owner sees the order’s attendees in the class, with the buyer’s email and the order, and counted', async () => {
    const rest = { 'X-SERVICE-API-KEY': 'rk_demo_acme' };
    const { token } = (
      await svc.json('/v1/login', {
        method: 'POST',
        headers: { ...rest, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          login: 'olivia.owner@acme.example',
          verification_method: 'client_secret',
          client_secret: 'cs_demo_acme_secret',
        }),
      })
    ).body;
    const classOf = async () =>
      (await svc.json('/v1/courses', { headers: { ...rest, 'X-SERVICE-TOKEN': token, 'X-SERVICE-COMPANY': '1' } })).body.courses
        .flatMap((c: Json) => c.classes)
        .find((cl: Json) => cl.id === 'cls_ts_2');
    const before = await classOf();
    assert.ok(before.participants.every((p: Json) => p.order_id === null));
    const placed = (await order(orderBody([{ class_id: 'cls_ts_2', seats: 2 }]))).body.order;
    const after = await classOf();
    assert.equal(after.registrations.confirmed, before.registrations.confirmed + 2);
    assert.equal(after.seats_left, before.seats_left - 2);
    const attendees = after.participants.filter((p: Json) => p.order_id === placed.id);
    assert.deepEqual(attendees.map((p: Json) => [p.first_name, p.last_name, p.email, p.phone, p.status]).sort(), [
      ['Alan', 'Turing', BUYER.email, BUYER.phone, 'confirmed'],
      ['Grace', 'Hopper', BUYER.email, BUYER.phone, 'confirmed'],
    ]);

    // Seats held for an order whose buyer is still paying show as such, not as confirmed.
    const paying = (
      await order(orderBody([{ class_id: 'cls_ts_2', seats: 1 }], { payment_method: 'card', return_url: RETURN_URL }))
    ).body.order;
    const held = (await classOf()).participants.filter((p: Json) => p.order_id === paying.id);
    assert.deepEqual(
      held.map((p: Json) => p.status),
      ['pending_payment'],
    );
  });
});
