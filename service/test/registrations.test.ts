import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  FOREIGN_PAGE,
  LOCAL_PAGE,
  rawRequest,
  registrationBody,
  startTestService,
  uniqueKey,
  visitorAddress,
  writeHeaders,
  type Json,
  type TestService,
} from './helpers.ts';

const PATH = '/widget-api/v1/registrations?key=wk_demo_registration';
let svc: TestService;
let seed: Json;

before(async () => {
  // This machine stands for a proxy, so that each request can come from a visitor of its own.
  svc = await startTestService({ trustProxy: ['127.0.0.1'] });
  seed = (await svc.json('/dev/seed')).body;
});
after(() => svc.close());
beforeEach(async () => {
  const res = await svc.fetch('/dev/reset', { method: 'POST', headers: { 'Content-Type': 'application/json' } });
  assert.equal(res.status, 200);
});

/** A registration from a visitor of its own (the per-address limit is tested on its own below). */
const register = (body: unknown, idem = uniqueKey(), headers: Record<string, string> = {}, path = PATH) =>
  svc.json(path, {
    method: 'POST',
    headers: { ...writeHeaders(idem), 'X-Forwarded-For': visitorAddress(), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const registrationCount = () => svc.count('SELECT count(*) FROM registrations');
const seatsOf = async (classId: string) => {
  const { body } = await svc.json('/widget-api/v1/widget?key=wk_demo_registration&type=registration');
  return body.courses.flatMap((c: Json) => c.classes).find((cl: Json) => cl.id === classId);
};

describe('POST /widget-api/v1/registrations', () => {
  test('registers: 201, the record, CORS for the page, and a confirmation email', async () => {
    const before = await registrationCount();
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
    // Until when the participant may cancel it (24 hours before the class), and the class's calendar
    // file, which takes the registration widget's key as a plain link.
    const { starts_at } = await seatsOf(seed.classes.five_seats_left);
    assert.equal(Date.parse(starts_at) - Date.parse(registration.cancel_until), 24 * 3600_000);
    const file = await fetch(registration.calendar_url);
    assert.equal(file.status, 200);
    assert.match(file.headers.get('content-type')!, /^text\/calendar/);
    assert.equal((await file.text()).match(/BEGIN:VEVENT/g)!.length, 1);
    assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);
    assert.equal(res.headers.get('idempotent-replayed'), null);

    assert.equal(await registrationCount(), before + 1);
    assert.equal((await seatsOf(seed.classes.five_seats_left)).seats_left, 4);

    const emails = await svc.outbox('ada.byron@example.org');
    assert.equal(emails.length, 1);
    assert.equal(emails[0].to, 'ada.byron@example.org');
    assert.match(emails[0].subject, /Registration confirmed: Web accessibility in practice/);
    assert.match(emails[0].text, new RegExp(registration.id));
    // The class's time in its venue's zone, named by its offset as the widgets name it.
    assert.match(emails[0].text, /When: .* GMT\+[12]\n/);
  });

  test('a full class with an open waitlist waitlists', async () => {
    const res = await register(registrationBody({ class_id: seed.classes.full_with_waitlist }));
    assert.equal(res.status, 201);
    assert.equal(res.body.registration.status, 'waitlisted');
    assert.equal(res.body.class.seats_left, 0);
    const emails = await svc.outbox();
    assert.match(emails[0].subject, /^On the waitlist/);
  });

  test('a full class without a waitlist, or with a full one, is 409 class-full', async () => {
    for (const classId of [seed.classes.full_no_waitlist, seed.classes.waitlist_full]) {
      const before = await registrationCount();
      const res = await register(registrationBody({ class_id: classId }));
      assert.equal(res.status, 409, classId);
      assert.equal(res.body.error.code, 'class-full');
      assert.equal(await registrationCount(), before);
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

  test('a full class answers class-full alike for a person booked in it and for a stranger', async () => {
    const classId = seed.classes.full_no_waitlist;
    const [booked] = await svc.rows<{ email: string }>(
      "SELECT email FROM registrations WHERE class_id = ? AND status = 'confirmed' LIMIT 1",
      classId,
    );
    const bookedAnswer = await register(registrationBody({ class_id: classId, email: booked!.email }));
    const strangerAnswer = await register(registrationBody({ class_id: classId, email: 'stranger@example.org' }));
    assert.equal(bookedAnswer.status, 409);
    assert.deepEqual(bookedAnswer.body, strangerAnswer.body);
  });

  test('an email already holding a place gets the answer a new registration would get, one record, and an email that says so', async () => {
    const before = await registrationCount();
    // Grace holds a confirmed place in cls_web_1 (any letter case is the same email).
    const again = await register(registrationBody({ class_id: 'cls_web_1', email: 'GRACE@example.org' }));
    const stranger = await register(registrationBody({ class_id: 'cls_web_1', email: 'newcomer@example.org' }));
    assert.equal(again.status, stranger.status);
    assert.equal(again.status, 201);
    assert.deepEqual(Object.keys(again.body.registration).sort(), Object.keys(stranger.body.registration).sort());
    assert.equal(again.body.registration.status, 'confirmed');
    assert.deepEqual(again.body.class, { id: 'cls_web_1', seats_left: 4, status: 'open' }, 'as if the seat were taken now');
    assert.equal(
      await svc.count("SELECT count(*) FROM registrations WHERE email = 'grace@example.org' AND class_id = 'cls_web_1'"),
      1,
    );
    assert.equal(await registrationCount(), before + 1, 'only the stranger was added');
    const [mail] = await svc.outbox('grace@example.org');
    assert.match(mail.subject, /^You are already registered: Web accessibility/);
    assert.match(mail.text, /Hello Grace/);
    assert.match(mail.text, /Nothing has changed/);

    // Ada is confirmed in the full class with a waitlist: a stranger would be waitlisted, and so is the answer.
    const ada = await register(registrationBody({ class_id: seed.classes.full_with_waitlist, email: 'ada@example.org' }));
    assert.equal(ada.status, 201);
    assert.equal(ada.body.registration.status, 'waitlisted');
    assert.match((await svc.outbox('ada@example.org'))[0].text, /you have a place/);
  });

  test('a calendar’s key joins a waitlist, and nothing else: a class with a seat free is 409 class-has-seats', async () => {
    const calendar = '/widget-api/v1/registrations?key=wk_demo_calendar';
    const joined = await register(registrationBody({ class_id: seed.classes.full_with_waitlist }), uniqueKey(), {}, calendar);
    assert.equal(joined.status, 201);
    assert.equal(joined.body.registration.status, 'waitlisted');
    assert.match((await svc.outbox())[0].subject, /^On the waitlist/);

    const before = await registrationCount();
    const seat = await register(registrationBody({ class_id: seed.classes.five_seats_left }), uniqueKey(), {}, calendar);
    assert.equal(seat.status, 409);
    assert.equal(seat.body.error.code, 'class-has-seats');
    assert.match(seat.body.error.message, /seat free/);
    const full = await register(registrationBody({ class_id: seed.classes.full_no_waitlist }), uniqueKey(), {}, calendar);
    assert.equal(full.status, 409);
    assert.equal(full.body.error.code, 'class-full');
    assert.equal(await registrationCount(), before);
    assert.equal((await seatsOf(seed.classes.five_seats_left)).seats_left, 5);
  });

  test('the key must be a registration (or calendar) key, enabled, from an allowed page', async () => {
    const cases: [string, Record<string, string>, number, string][] = [
      ['/widget-api/v1/registrations', {}, 400, 'missing-key'],
      ['/widget-api/v1/registrations?key=wk_demo_registration_revoked', {}, 401, 'invalid-key'],
      ['/widget-api/v1/registrations?key=wk_demo_video', {}, 403, 'type-mismatch'],
      ['/widget-api/v1/registrations?key=wk_demo_checkout', {}, 403, 'type-mismatch'],
      ['/widget-api/v1/registrations?key=wk_demo_registration_disabled', {}, 403, 'not-available'],
      [PATH, { Origin: FOREIGN_PAGE }, 403, 'origin-not-allowed'],
      ['/widget-api/v1/registrations?key=wk_demo_registration_example', {}, 403, 'origin-not-allowed'],
    ];
    const before = await registrationCount();
    for (const [path, headers, status, code] of cases) {
      const res = await register(registrationBody(), uniqueKey(), headers, path);
      assert.equal(res.status, status, path);
      assert.equal(res.body.error.code, code, path);
      assert.equal(res.headers.get('access-control-allow-origin'), headers.Origin ?? LOCAL_PAGE);
    }
    assert.equal(await registrationCount(), before);
  });
});

describe('bad input: 4xx in the error shape, never a 500, never a record', () => {
  let before = 0;
  beforeEach(async () => {
    before = await registrationCount();
  });
  const noRecord = async () => assert.equal(await registrationCount(), before, 'nothing was stored');

  test('malformed JSON, invalid UTF-8, empty body, and JSON that is not an object → 400 bad-json', async () => {
    const bodies: (string | ArrayBuffer)[] = [
      '{"class_id": ',
      "{'a': 1}",
      '',
      '[]',
      '"text"',
      'null',
      '42',
      'true',
      new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]).buffer,
    ];
    for (const body of bodies) {
      const res = await svc.json(PATH, { method: 'POST', headers: writeHeaders(uniqueKey()), body });
      assert.equal(res.status, 400, `body ${String(body)}`);
      assert.equal(res.body.error.code, 'bad-json');
      assert.match(res.body.error.message, /JSON|UTF-8/);
    }
    await noRecord();
  });

  test('missing fields → 422 with a message per field', async () => {
    const res = await register({});
    assert.equal(res.status, 422);
    assert.equal(res.body.error.code, 'validation');
    assert.deepEqual(Object.keys(res.body.error.fields).sort(), ['class_id', 'consent', 'email', 'first_name', 'last_name']);
    assert.equal(res.body.error.fields.first_name, 'Enter your first name.');
    await noRecord();
  });

  test('wrong types → 422 fields', async () => {
    const res = await register(
      registrationBody({
        class_id: { id: 'cls_web_1' },
        first_name: 42,
        last_name: ['x'],
        email: true,
        phone: 4930123,
        consent: 'true',
      }),
    );
    assert.equal(res.status, 422);
    const { fields } = res.body.error;
    assert.match(fields.class_id, /JSON string/);
    assert.match(fields.first_name, /JSON string/);
    assert.match(fields.last_name, /JSON string/);
    assert.match(fields.email, /JSON string/);
    assert.match(fields.phone, /JSON string/);
    assert.match(fields.consent, /true/);
    await noRecord();
  });

  test('unknown fields are refused, even with everything else right', async () => {
    const res = await register(registrationBody({ price: 0, status: 'confirmed' }));
    assert.equal(res.status, 422);
    assert.deepEqual(Object.keys(res.body.error.fields).sort(), ['price', 'status']);
    assert.match(res.body.error.fields.price, /Unknown field "price"/);
    await noRecord();
  });

  test('a field named __proto__ is an unknown field like any other', async () => {
    const body = JSON.stringify(registrationBody()).replace(/^\{/, '{"__proto__":{"isAdmin":true},');
    const res = await register(body);
    assert.equal(res.status, 422);
    assert.deepEqual(Object.keys(res.body.error.fields), ['__proto__']);
    assert.match(res.body.error.fields.__proto__, /Unknown field "__proto__"/);
    await noRecord();
  });

  test('names must show a letter, and no text may turn its direction around', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ first_name: '\u202e'.repeat(100) }, 'first_name', /direction/],
      [{ last_name: '\u200b'.repeat(100) }, 'last_name', /at least one letter/],
      [{ first_name: '\u2066Ada' }, 'first_name', /direction/],
      [{ first_name: 'Ada\u202egnp.exe' }, 'first_name', /direction/],
      [{ last_name: '-- 42 --' }, 'last_name', /at least one letter/],
      [{ email: 'ada\u202e@example.org' }, 'email', /direction/],
      [{ email: 'ada\u200b@example.org' }, 'email', /valid email/],
    ];
    for (const [override, field, message] of cases) {
      const res = await register(registrationBody(override));
      assert.equal(res.status, 422, JSON.stringify(override));
      assert.deepEqual(Object.keys(res.body.error.fields), [field], JSON.stringify(override));
      assert.match(res.body.error.fields[field], message);
    }
    await noRecord();
    // Letters of any script, and the joiners some scripts need, are names.
    for (const first_name of ['Zoë', 'José María', 'محمد', '李', 'می\u200cخواهم']) {
      assert.equal((await register(registrationBody({ first_name }))).status, 201, first_name);
    }
  });

  test('arrays or objects nested deeper than 20 levels → 400 bad-json, never a 500', async () => {
    const withPhone = (json: string) =>
      JSON.stringify(registrationBody({ phone: undefined })).replace(/^\{/, `{"phone":${json},`);
    // 5,000 levels are 10 KB, under the size limit: the probe's body.
    for (const depth of [20, 5000]) {
      const res = await register(withPhone('['.repeat(depth) + ']'.repeat(depth)));
      assert.equal(res.status, 400, `depth ${depth}`);
      assert.equal(res.body.error.code, 'bad-json');
      assert.match(res.body.error.message, /nests arrays or objects more than 20 levels/);
    }
    const objects = '{"a":'.repeat(2000) + '1' + '}'.repeat(2000);
    assert.equal((await register(withPhone(objects))).status, 400);
    // Brackets inside strings are text, not nesting.
    const text = await register(registrationBody({ last_name: '['.repeat(50) + 'Ada' }));
    assert.equal(text.status, 201);
    // The body's own object is the first level.
    const twenty = await register(withPhone('['.repeat(19) + ']'.repeat(19)));
    assert.equal(twenty.status, 422, 'twenty levels are read, and the field is at fault');
    assert.deepEqual(Object.keys(twenty.body.error.fields), ['phone']);
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
    await noRecord();
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
    await noRecord();
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
    await noRecord();
  });

  test('not application/json → 415', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
    ]) {
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
    assert.equal(await registrationCount(), before + 1);
  });

  test('no Idempotency-Key (or one shorter than 8 characters) → 400 missing-idempotency-key', async () => {
    for (const idem of [undefined, 'short', 'x'.repeat(201)]) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', Origin: LOCAL_PAGE };
      if (idem !== undefined) headers['Idempotency-Key'] = idem;
      const res = await svc.json(PATH, { method: 'POST', headers, body: JSON.stringify(registrationBody()) });
      assert.equal(res.status, 400, String(idem));
      assert.equal(res.body.error.code, 'missing-idempotency-key');
    }
    await noRecord();
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
    assert.equal(await svc.count("SELECT count(*) FROM registrations WHERE email = 'replay@example.org'"), 1);
    assert.equal((await svc.outbox('replay@example.org')).length, 1);
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
    assert.equal(await svc.count("SELECT count(*) FROM registrations WHERE email = 'double@example.org'"), 1);
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
    await svc.advance(24 * 3600 - 60);
    assert.equal((await register(registrationBody({ email: 'day-two@example.org' }), idem)).status, 409);
    await svc.advance(61);
    assert.equal((await register(registrationBody({ email: 'day-two@example.org' }), idem)).status, 201);
    assert.equal(await svc.count('SELECT count(*) FROM idempotency WHERE key = ?', idem), 1);
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
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(20).fill(201),
    );
    const statuses = answers.map((a) => a.body.registration.status);
    assert.equal(statuses.filter((s) => s === 'confirmed').length, 5);
    assert.equal(statuses.filter((s) => s === 'waitlisted').length, 15);
    assert.equal(await svc.count("SELECT count(*) FROM registrations WHERE class_id = ? AND status = 'confirmed'", classId), 12);

    const after = await seatsOf(classId);
    assert.equal(after.seats_left, 0);
    assert.equal(after.status, 'waitlist');
    assert.equal((await svc.outbox()).length, 20);
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

describe('rate limits', () => {
  const from = (address: string, body = registrationBody(), idem = uniqueKey()) =>
    register(body, idem, { 'X-Forwarded-For': address });

  test('10 registrations per client address in 10 minutes, then 429 with Retry-After; others still register; the clock frees it', async () => {
    for (let i = 0; i < 10; i++) assert.equal((await from('203.0.113.7')).status, 201, `registration ${i + 1}`);
    const before = await registrationCount();
    const refused = await from('203.0.113.7');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate-limited');
    assert.match(refused.body.error.message, /^Too many registrations from here\. Try again in 10 minutes\.$/);
    // Ten minutes from the first of them (a second or two of the run's own time may have gone).
    assert.ok(
      refused.body.error.retry_after > 590 && refused.body.error.retry_after <= 600,
      String(refused.body.error.retry_after),
    );
    assert.equal(refused.headers.get('retry-after'), String(refused.body.error.retry_after));
    assert.match(refused.headers.get('access-control-expose-headers') ?? '', /Retry-After/);
    assert.equal(await registrationCount(), before, 'nothing stored');
    assert.equal((await from('203.0.113.8')).status, 201, 'another visitor is not held up');
    await svc.advance(10 * 60);
    assert.equal((await from('203.0.113.7')).status, 201);
  });

  test('a replay of the same submission is not counted; refused input is not counted', async () => {
    const idem = uniqueKey();
    const body = registrationBody();
    for (let i = 0; i < 12; i++) assert.equal((await from('203.0.113.9', body, idem)).status, i === 0 ? 201 : 200);
    for (let i = 0; i < 12; i++) assert.equal((await from('203.0.113.9', registrationBody({ consent: false }))).status, 422);
    for (let i = 0; i < 9; i++) assert.equal((await from('203.0.113.9')).status, 201);
    assert.equal((await from('203.0.113.9')).status, 429);
  });

  test('per widget key, whatever the addresses', async () => {
    const strict = await startTestService({
      trustProxy: ['127.0.0.1'],
      limits: { registration: { perKey: { max: 3, windowMs: 60_000 } } },
    });
    try {
      const send = () =>
        strict.json(PATH, {
          method: 'POST',
          headers: { ...writeHeaders(uniqueKey()), 'X-Forwarded-For': visitorAddress() },
          body: JSON.stringify(registrationBody()),
        });
      for (let i = 0; i < 3; i++) assert.equal((await send()).status, 201);
      const refused = await send();
      assert.equal(refused.status, 429);
      const retry = Number(refused.headers.get('retry-after'));
      assert.ok(retry > 50 && retry <= 60, String(retry));
      // (A minute from the first, less what the run took: "59 seconds" on a busy machine.)
      assert.ok(
        refused.body.error.message.endsWith(`Try again in ${retry === 60 ? '1 minute' : `${retry} seconds`}.`),
        refused.body.error.message,
      );
      const other = await strict.json('/widget-api/v1/registrations?key=wk_globex_registration', {
        method: 'POST',
        headers: writeHeaders(uniqueKey()),
        body: JSON.stringify(registrationBody({ class_id: 'cls_gx_safety_1' })),
      });
      assert.equal(other.status, 201, 'another key has its own count');
    } finally {
      await strict.close();
    }
  });

  test('X-Forwarded-For counts only from a configured proxy', async () => {
    const direct = await startTestService();
    try {
      const send = (forwardedFor: string) =>
        direct.json(PATH, {
          method: 'POST',
          headers: { ...writeHeaders(uniqueKey()), 'X-Forwarded-For': forwardedFor },
          body: JSON.stringify(registrationBody()),
        });
      for (let i = 0; i < 10; i++) assert.equal((await send(visitorAddress())).status, 201);
      assert.equal((await send(visitorAddress())).status, 429, 'a made-up address changes nothing');
    } finally {
      await direct.close();
    }
  });

  test('a network of proxies (TRUST_PROXY=127.0.0.0/8, as in a container network) is trusted as a whole', async () => {
    const behind = await startTestService({ trustProxy: ['127.0.0.0/8', 'fd00::/8'] });
    try {
      const send = (forwardedFor: string) =>
        behind.json(PATH, {
          method: 'POST',
          headers: { ...writeHeaders(uniqueKey()), 'X-Forwarded-For': forwardedFor },
          body: JSON.stringify(registrationBody()),
        });
      const visitor = visitorAddress();
      for (let i = 0; i < 10; i++) assert.equal((await send(visitor)).status, 201);
      assert.equal((await send(visitor)).status, 429, 'the visitor’s own limit');
      assert.equal((await send(visitorAddress())).status, 201, 'another visitor behind the same proxy');
    } finally {
      await behind.close();
    }
  });

  test('confirmation emails to one address: at most 5 in an hour; the registrations still count', async () => {
    const email = 'flooded@example.org';
    const classes = ['cls_web_1', 'cls_web_2', 'cls_ts_1', 'cls_ts_2', 'cls_open_1', 'cls_lead_2'];
    for (const class_id of classes) assert.equal((await register(registrationBody({ class_id, email }))).status, 201, class_id);
    assert.equal(await svc.count('SELECT count(*) FROM registrations WHERE email = ?', email), 6);
    assert.equal((await svc.outbox(email)).length, 5);
    await svc.advance(3600);
    assert.equal((await register(registrationBody({ class_id: 'cls_data_2', email }))).status, 201);
    assert.equal((await svc.outbox(email)).length, 6, 'an hour later, emails go again');
  });
});

describe('the service clock', () => {
  test('a class becomes past when the clock passes its start, and /dev/reset brings it back', async () => {
    const classId = seed.classes.soonest;
    const cls = await seatsOf(classId);
    assert.ok(cls, 'listed while upcoming');
    const { now } = (await svc.json('/dev/clock')).body;
    const moved = await svc.advance(Math.ceil((Date.parse(cls.starts_at) - Date.parse(now)) / 1000) + 60);
    assert.ok(Date.parse(moved.now) > Date.parse(cls.starts_at));

    assert.equal(await seatsOf(classId), undefined, 'no longer listed');
    const res = await register(registrationBody({ class_id: classId }));
    assert.equal(res.status, 422);
    assert.match(res.body.error.fields.class_id, /already started/);

    await svc.fetch('/dev/reset', { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    assert.ok(await seatsOf(classId), 'listed again after the reset');
  });
});
