import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  FOREIGN_PAGE,
  LOCAL_PAGE,
  rawRequest,
  registrationBody,
  startTestService,
  uniqueKey,
  writeHeaders,
  type Json,
  type TestService,
} from './helpers.ts';

const PATH = '/widget-api/v1/registrations?key=wk_demo_registration';
let svc: TestService;
let seed: Json;

before(async () => {
  svc = await startTestService();
  seed = (await svc.json('/dev/seed')).body;
});
after(() => svc.close());
beforeEach(async () => {
  const res = await svc.fetch('/dev/reset', { method: 'POST' });
  assert.equal(res.status, 200);
});

const register = (body: unknown, idem = uniqueKey(), headers: Record<string, string> = {}, path = PATH) =>
  svc.json(path, {
    method: 'POST',
    headers: { ...writeHeaders(idem), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const registrationCount = () => svc.count('SELECT count(*) FROM registrations');
const seatsOf = async (classId: string) => {
  const { body } = await svc.json('/widget-api/v1/widget?key=wk_demo_registration&type=registration');
  return body.courses.flatMap((c: Json) => c.classes).find((cl: Json) => cl.id === classId);
};

describe('POST /widget-api/v1/registrations', () => {
  test('registers: 201, the record, CORS for the page, and a confirmation email', async () => {
    const before = registrationCount();
    const body = registrationBody({ class_id: seed.classes.five_seats_left, email: 'Ada.Byron@Example.org' });
    const res = await register(body);
    assert.equal(res.status, 201);
    const { registration, class: cls } = res.body;
    assert.match(registration.id, /^reg_/);
    assert.equal(registration.course_id, 'crs_web');
    assert.equal(registration.class_id, seed.classes.five_seats_left);
    assert.equal(registration.status, 'confirmed');
    assert.ok(!Number.isNaN(Date.parse(registration.created_at)));
    assert.deepEqual(cls, { id: seed.classes.five_seats_left, seats_left: 4, status: 'open' });
    assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);
    assert.equal(res.headers.get('idempotent-replayed'), null);

    assert.equal(registrationCount(), before + 1);
    assert.equal((await seatsOf(seed.classes.five_seats_left)).seats_left, 4);

    const { emails } = (await svc.json('/dev/outbox?to=ada.byron@example.org')).body;
    assert.equal(emails.length, 1);
    assert.equal(emails[0].to, 'ada.byron@example.org');
    assert.match(emails[0].subject, /Registration confirmed: Web accessibility in practice/);
    assert.match(emails[0].text, new RegExp(registration.id));
    assert.match(emails[0].text, /Europe\/Berlin/);
  });

  test('a full class with an open waitlist waitlists', async () => {
    const res = await register(registrationBody({ class_id: seed.classes.full_with_waitlist }));
    assert.equal(res.status, 201);
    assert.equal(res.body.registration.status, 'waitlisted');
    assert.equal(res.body.class.seats_left, 0);
    const { emails } = (await svc.json('/dev/outbox')).body;
    assert.match(emails[0].subject, /^On the waitlist/);
  });

  test('a full class without a waitlist, or with a full one, is 409 class-full', async () => {
    for (const classId of [seed.classes.full_no_waitlist, seed.classes.waitlist_full]) {
      const before = registrationCount();
      const res = await register(registrationBody({ class_id: classId }));
      assert.equal(res.status, 409, classId);
      assert.equal(res.body.error.code, 'class-full');
      assert.equal(registrationCount(), before);
    }
  });

  test('a class in the past is 422 fields.class_id', async () => {
    const res = await register(registrationBody({ class_id: seed.classes.past }));
    assert.equal(res.status, 422);
    assert.equal(res.body.error.code, 'validation');
    assert.match(res.body.error.fields.class_id, /already started/);
  });

  test('an unknown class, or one of another company, is 422 fields.class_id', async () => {
    for (const classId of ['cls_nope', seed.classes.other_company]) {
      const res = await register(registrationBody({ class_id: classId }));
      assert.equal(res.status, 422, classId);
      assert.match(res.body.error.fields.class_id, /no such class/);
    }
  });

  test('an email already holding a place is 409 already-registered (any letter case)', async () => {
    const res = await register(registrationBody({ class_id: 'cls_web_1', email: 'GRACE@example.org' }));
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'already-registered');
    assert.ok(res.body.error.fields.email);
  });

  test('the key must be a registration key, enabled, from an allowed page', async () => {
    const cases: [string, Record<string, string>, number, string][] = [
      ['/widget-api/v1/registrations', {}, 400, 'missing-key'],
      ['/widget-api/v1/registrations?key=wk_demo_registration_revoked', {}, 401, 'invalid-key'],
      ['/widget-api/v1/registrations?key=wk_demo_calendar', {}, 403, 'type-mismatch'],
      ['/widget-api/v1/registrations?key=wk_demo_registration_disabled', {}, 403, 'not-available'],
      [PATH, { Origin: FOREIGN_PAGE }, 403, 'origin-not-allowed'],
      ['/widget-api/v1/registrations?key=wk_demo_registration_example', {}, 403, 'origin-not-allowed'],
    ];
    const before = registrationCount();
    for (const [path, headers, status, code] of cases) {
      const res = await register(registrationBody(), uniqueKey(), headers, path);
      assert.equal(res.status, status, path);
      assert.equal(res.body.error.code, code, path);
      assert.equal(res.headers.get('access-control-allow-origin'), headers.Origin ?? LOCAL_PAGE);
    }
    assert.equal(registrationCount(), before);
  });
});

describe('bad input: 4xx in the error shape, never a 500, never a record', () => {
  let before = 0;
  beforeEach(() => {
    before = registrationCount();
  });
  const noRecord = () => assert.equal(registrationCount(), before, 'nothing was stored');

  test('malformed JSON, invalid UTF-8, empty body, and JSON that is not an object → 400 bad-json', async () => {
    const bodies: (string | ArrayBuffer)[] = ['{"class_id": ', "{'a': 1}", '', '[]', '"text"', 'null', '42', 'true', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]).buffer];
    for (const body of bodies) {
      const res = await svc.json(PATH, { method: 'POST', headers: writeHeaders(uniqueKey()), body });
      assert.equal(res.status, 400, `body ${String(body)}`);
      assert.equal(res.body.error.code, 'bad-json');
      assert.match(res.body.error.message, /JSON|UTF-8/);
    }
    noRecord();
  });

  test('missing fields → 422 with a message per field', async () => {
    const res = await register({});
    assert.equal(res.status, 422);
    assert.equal(res.body.error.code, 'validation');
    assert.deepEqual(Object.keys(res.body.error.fields).sort(), ['class_id', 'consent', 'email', 'first_name', 'last_name']);
    assert.equal(res.body.error.fields.first_name, 'Enter your first name.');
    noRecord();
  });

  test('wrong types → 422 fields', async () => {
    const res = await register(
      registrationBody({ class_id: { id: 'cls_web_1' }, first_name: 42, last_name: ['x'], email: true, phone: 4930123, consent: 'true' }),
    );
    assert.equal(res.status, 422);
    const { fields } = res.body.error;
    assert.match(fields.class_id, /JSON string/);
    assert.match(fields.first_name, /JSON string/);
    assert.match(fields.last_name, /JSON string/);
    assert.match(fields.email, /JSON string/);
    assert.match(fields.phone, /JSON string/);
    assert.match(fields.consent, /true/);
    noRecord();
  });

  test('unknown fields are refused, even with everything else right', async () => {
    const res = await register(registrationBody({ price: 0, status: 'confirmed' }));
    assert.equal(res.status, 422);
    assert.deepEqual(Object.keys(res.body.error.fields).sort(), ['price', 'status']);
    assert.match(res.body.error.fields.price, /Unknown field "price"/);
    noRecord();
  });

  test('consent must be true; email valid; names, email and phone within their limits', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ consent: false }, 'consent'],
      [{ consent: undefined }, 'consent'],
      [{ consent: 1 }, 'consent'],
      [{ email: 'not-an-email' }, 'email'],
      [{ email: 'a@b' }, 'email'],
      [{ email: 'two@@example.org' }, 'email'],
      [{ email: `${'a'.repeat(250)}@example.org` }, 'email'],
      [{ first_name: '   ' }, 'first_name'],
      [{ first_name: 'x'.repeat(101) }, 'first_name'],
      [{ last_name: 'Line\nbreak' }, 'last_name'],
      [{ phone: 'call me maybe' }, 'phone'],
      [{ phone: '1'.repeat(41) }, 'phone'],
      [{ class_id: '' }, 'class_id'],
    ];
    for (const [override, field] of cases) {
      const res = await register(registrationBody(override));
      assert.equal(res.status, 422, JSON.stringify(override));
      assert.deepEqual(Object.keys(res.body.error.fields), [field], JSON.stringify(override));
      assert.equal(res.body.error.message, res.body.error.fields[field]);
    }
    noRecord();
  });

  test('phone is optional (absent, null or empty)', async () => {
    for (const phone of [undefined, null, '']) {
      const res = await register(registrationBody({ phone }));
      assert.equal(res.status, 201, String(phone));
    }
  });

  test('a body over 16 KiB → 413, whether Content-Length says so or is absent', async () => {
    const big = JSON.stringify(registrationBody({ first_name: 'x'.repeat(17 * 1024) }));
    const declared = await register(big);
    assert.equal(declared.status, 413);
    assert.equal(declared.body.error.code, 'payload-too-large');

    // Chunked transfer: no Content-Length at all, the bytes read decide.
    const chunked = await rawRequest(svc.url, {
      method: 'POST',
      path: PATH,
      headers: writeHeaders(uniqueKey()),
      chunks: [big.slice(0, 9000), big.slice(9000)],
    });
    assert.equal(chunked.status, 413);
    assert.equal(JSON.parse(chunked.body).error.code, 'payload-too-large');

    // A Content-Length above the limit is refused before the body is read.
    const claimsBig = await rawRequest(svc.url, {
      method: 'POST',
      path: PATH,
      headers: { ...writeHeaders(uniqueKey()), 'Content-Length': '100000' },
      chunks: ['{}'],
    });
    assert.equal(claimsBig.status, 413);
    noRecord();
  });

  test('a Content-Length shorter than the body → 400 in the error shape', async () => {
    const body = JSON.stringify(registrationBody({ first_name: 'x'.repeat(20000) }));
    const res = await rawRequest(svc.url, {
      method: 'POST',
      path: PATH,
      headers: { ...writeHeaders(uniqueKey()), 'Content-Length': '40' },
      chunks: [body],
    });
    assert.equal(res.status, 400);
    assert.ok(['bad-json', 'bad-request'].includes(JSON.parse(res.body).error.code));
    noRecord();
  });

  test('not application/json → 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      const res = await register(registrationBody(), uniqueKey(), { 'Content-Type': type });
      assert.equal(res.status, 415, type);
      assert.equal(res.body.error.code, 'unsupported-media-type');
    }
    const noType = await rawRequest(svc.url, {
      method: 'POST',
      path: PATH,
      headers: { 'Idempotency-Key': uniqueKey() },
      chunks: [JSON.stringify(registrationBody())],
    });
    assert.equal(noType.status, 415);
    const withCharset = await register(registrationBody(), uniqueKey(), { 'Content-Type': 'application/json; charset=utf-8' });
    assert.equal(withCharset.status, 201);
    assert.equal(registrationCount(), before + 1);
  });

  test('no Idempotency-Key (or one shorter than 8 characters) → 400 missing-idempotency-key', async () => {
    for (const idem of [undefined, 'short', 'x'.repeat(201)]) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', Origin: LOCAL_PAGE };
      if (idem !== undefined) headers['Idempotency-Key'] = idem;
      const res = await svc.json(PATH, { method: 'POST', headers, body: JSON.stringify(registrationBody()) });
      assert.equal(res.status, 400, String(idem));
      assert.equal(res.body.error.code, 'missing-idempotency-key');
    }
    noRecord();
  });
});

describe('idempotency', () => {
  test('the same key and body replays the registration: 200, Idempotent-Replayed, one record, one email', async () => {
    const idem = uniqueKey();
    const body = registrationBody({ email: 'replay@example.org' });
    const first = await register(body, idem);
    assert.equal(first.status, 201);
    // Key order does not make a different body.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    for (const again of [body, reordered]) {
      const res = await register(again, idem);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('idempotent-replayed'), 'true');
      assert.match(res.headers.get('access-control-expose-headers') ?? '', /Idempotent-Replayed/);
      assert.deepEqual(res.body, first.body);
    }
    assert.equal(svc.count("SELECT count(*) FROM registrations WHERE email = 'replay@example.org'"), 1);
    assert.equal((await svc.json('/dev/outbox?to=replay@example.org')).body.emails.length, 1);
  });

  test('the same key with another body → 409 idempotency-key-reused', async () => {
    const idem = uniqueKey();
    assert.equal((await register(registrationBody(), idem)).status, 201);
    const res = await register(registrationBody({ first_name: 'Someone else' }), idem);
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'idempotency-key-reused');
  });

  test('a double click (the same request five times at once) makes one record', async () => {
    const idem = uniqueKey();
    const body = registrationBody({ email: 'double@example.org' });
    const answers = await Promise.all(Array.from({ length: 5 }, () => register(body, idem)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 200, 201]);
    assert.equal(new Set(answers.map((a) => a.body.registration.id)).size, 1);
    assert.equal(svc.count("SELECT count(*) FROM registrations WHERE email = 'double@example.org'"), 1);
  });

  test('keys are per widget key: the same Idempotency-Key on another widget key is a new submission', async () => {
    const idem = uniqueKey();
    const acme = await register(registrationBody(), idem);
    const globex = await register(
      registrationBody({ class_id: 'cls_gx_safety_1' }),
      idem,
      {},
      '/widget-api/v1/registrations?key=wk_globex_registration',
    );
    assert.equal(acme.status, 201);
    assert.equal(globex.status, 201);
  });

  test('a key is remembered for a day of the service clock, then forgotten', async () => {
    const idem = uniqueKey();
    assert.equal((await register(registrationBody({ email: 'day-one@example.org' }), idem)).status, 201);
    const advance = (seconds: number) =>
      svc.fetch('/dev/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advance_s: seconds }) });
    await advance(24 * 3600 - 60);
    assert.equal((await register(registrationBody({ email: 'day-two@example.org' }), idem)).status, 409);
    await advance(61);
    assert.equal((await register(registrationBody({ email: 'day-two@example.org' }), idem)).status, 201);
    assert.equal(svc.count('SELECT count(*) FROM idempotency WHERE key = ?', idem), 1);
  });

  test('a refused attempt stores nothing: the retry with the same key runs again', async () => {
    const idem = uniqueKey();
    const bad = await register(registrationBody({ consent: false }), idem);
    assert.equal(bad.status, 422);
    const good = await register(registrationBody({ consent: true }), idem);
    assert.equal(good.status, 201);
  });
});

describe('seats', () => {
  test('20 concurrent registrations for the last 5 seats: exactly 5 confirmed, 15 waitlisted', async () => {
    const classId = seed.classes.five_seats_left;
    assert.equal((await seatsOf(classId)).seats_left, 5);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        register(registrationBody({ class_id: classId, email: `crowd${i}@example.org` }), uniqueKey(`crowd${i}`)),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status), Array(20).fill(201));
    const statuses = answers.map((a) => a.body.registration.status);
    assert.equal(statuses.filter((s) => s === 'confirmed').length, 5);
    assert.equal(statuses.filter((s) => s === 'waitlisted').length, 15);
    assert.equal(svc.count("SELECT count(*) FROM registrations WHERE class_id = ? AND status = 'confirmed'", classId), 12);

    const after = await seatsOf(classId);
    assert.equal(after.seats_left, 0);
    assert.equal(after.status, 'waitlist');
    assert.equal((await svc.json('/dev/outbox')).body.emails.length, 20);
  });

  test('20 concurrent registrations for a class with 5 seats and no waitlist: 5 confirmed, 15 class-full', async () => {
    // Make the free class (no waitlist) hold exactly 5 seats: fill it through the API first.
    const classId = seed.classes.free;
    const { seats_left } = await seatsOf(classId);
    for (let i = 0; i < seats_left - 5; i++) {
      assert.equal((await register(registrationBody({ class_id: classId, email: `fill${i}@example.org` }))).status, 201);
    }
    assert.equal((await seatsOf(classId)).seats_left, 5);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => register(registrationBody({ class_id: classId, email: `rush${i}@example.org` }))),
    );
    assert.equal(answers.filter((a) => a.status === 201 && a.body.registration.status === 'confirmed').length, 5);
    assert.equal(answers.filter((a) => a.status === 409 && a.body.error.code === 'class-full').length, 15);
    assert.equal((await seatsOf(classId)).status, 'full');
  });
});

describe('the service clock', () => {
  test('a class becomes past when the clock passes its start, and /dev/reset brings it back', async () => {
    const classId = seed.classes.soonest;
    const cls = await seatsOf(classId);
    assert.ok(cls, 'listed while upcoming');
    const { now } = (await svc.json('/dev/clock')).body;
    const advance = Math.ceil((Date.parse(cls.starts_at) - Date.parse(now)) / 1000) + 60;
    const moved = await svc.json('/dev/clock', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance_s: advance }),
    });
    assert.equal(moved.status, 200);
    assert.ok(Date.parse(moved.body.now) > Date.parse(cls.starts_at));

    assert.equal(await seatsOf(classId), undefined, 'no longer listed');
    const res = await register(registrationBody({ class_id: classId }));
    assert.equal(res.status, 422);
    assert.match(res.body.error.fields.class_id, /already started/);

    await svc.fetch('/dev/reset', { method: 'POST' });
    assert.ok(await seatsOf(classId), 'listed again after the reset');
  });
});
