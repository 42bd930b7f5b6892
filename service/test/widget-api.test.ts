import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FOREIGN_PAGE, LOCAL_PAGE, useTestService, type Json } from './helpers.ts';

// The first render only reads: the file's tests share one state.
const svc = useTestService({}, { resetEachTest: false });

const widgetPath = (key: string, type = 'registration', extra = '') =>
  `/widget-api/v1/widget?key=${encodeURIComponent(key)}&type=${type}${extra}`;

describe('GET /widget-api/v1/widget: the first render', () => {
  test('answers the widget, its company and the programmes with upcoming classes only', async () => {
    const { status, headers, body } = await svc.json(widgetPath('wk_demo_registration'), {
      headers: { Origin: LOCAL_PAGE },
    });
    assert.equal(status, 200);
    assert.equal(headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(body.widget, {
      type: 'registration',
      company: { id: 'c_acme', name: 'Acme Academy' },
      options: {},
    });
    const { now } = (await svc.json('/dev/clock')).body;
    const courseIds = body.courses.map((c: Json) => c.id);
    assert.ok(courseIds.includes('crs_web'));
    assert.ok(!courseIds.some((id: string) => id.startsWith('crs_gx')), 'no programme of another company');

    const classes = body.courses.flatMap((c: Json) => c.classes);
    assert.ok(classes.length >= 8);
    for (const cl of classes) {
      assert.ok(cl.starts_at > now, `${cl.id} is upcoming`);
      assert.match(cl.starts_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(typeof cl.timezone, 'string');
      assert.equal(typeof cl.location, 'string');
      assert.equal(cl.price.currency, 'EUR');
      assert.ok(Number.isInteger(cl.price.amount));
      assert.ok(['open', 'waitlist', 'full'].includes(cl.status));
    }
    assert.ok(!classes.some((cl: Json) => cl.id === 'cls_web_past'), 'past classes are never listed');

    // Classes by start, programmes by their next class, the one without classes last.
    for (const course of body.courses) {
      const starts = course.classes.map((cl: Json) => cl.starts_at);
      assert.deepEqual(starts, [...starts].sort());
    }
    const nexts = body.courses.filter((c: Json) => c.classes.length).map((c: Json) => c.classes[0].starts_at);
    assert.deepEqual(nexts, [...nexts].sort());
    const last = body.courses.at(-1);
    assert.equal(last.id, 'crs_sprint');
    assert.deepEqual(last.classes, []);
  });

  test('shows each seeded class state: seats, waitlist, full, free', async () => {
    const { body } = await svc.json(widgetPath('wk_demo_registration'));
    const seed = (await svc.json('/dev/seed')).body;
    const byId = new Map<string, Json>(body.courses.flatMap((c: Json) => c.classes).map((cl: Json) => [cl.id, cl]));
    const five = byId.get(seed.classes.five_seats_left);
    assert.equal(five.seats_left, 5);
    assert.equal(five.status, 'open');
    assert.equal(five.capacity, 12);
    assert.deepEqual(five.price, { amount: 49000, currency: 'EUR' });
    assert.equal(byId.get(seed.classes.full_with_waitlist).status, 'waitlist');
    assert.equal(byId.get(seed.classes.full_with_waitlist).seats_left, 0);
    assert.equal(byId.get(seed.classes.full_no_waitlist).status, 'full');
    assert.equal(byId.get(seed.classes.full_no_waitlist).waitlist, false);
    assert.equal(byId.get(seed.classes.waitlist_full).status, 'full');
    assert.equal(byId.get(seed.classes.waitlist_full).waitlist, true);
    assert.equal(byId.get(seed.classes.free).price.amount, 0);
  });

  test('course=C limits the answer to one programme; an unknown one is 404 course-not-found', async () => {
    const one = await svc.json(widgetPath('wk_demo_registration', 'registration', '&course=crs_web'));
    assert.equal(one.status, 200);
    assert.deepEqual(
      one.body.courses.map((c: Json) => c.id),
      ['crs_web'],
    );
    const empty = await svc.json(widgetPath('wk_demo_registration', 'registration', '&course='));
    assert.ok(empty.body.courses.length > 1, 'an empty course lists every programme');

    for (const course of ['crs_nope', 'crs_gx_safety']) {
      const res = await svc.json(widgetPath('wk_demo_registration', 'registration', `&course=${course}`));
      assert.equal(res.status, 404, course);
      assert.equal(res.body.error.code, 'course-not-found');
      assert.match(res.body.error.message, /data-service-course/);
    }
  });

  test('another company key sees its own programmes', async () => {
    const { status, body } = await svc.json(widgetPath('wk_globex_registration'));
    assert.equal(status, 200);
    assert.equal(body.widget.company.id, 'c_globex');
    assert.ok(body.courses.every((c: Json) => c.id.startsWith('crs_gx')));
  });

  test('type is required and must be a widget type', async () => {
    for (const [path, want] of [
      ['/widget-api/v1/widget?key=wk_demo_registration', /type=registration/],
      ['/widget-api/v1/widget?key=wk_demo_registration&type=carousel', /Unknown widget type/],
    ] as const) {
      const { status, body } = await svc.json(path);
      assert.equal(status, 422);
      assert.equal(body.error.code, 'validation');
      assert.match(body.error.fields.type, want);
    }
  });
});

describe('widget keys: every refusal has its code', () => {
  const cases: [string, string, number, string][] = [
    ['no key', '/widget-api/v1/widget?type=registration', 400, 'missing-key'],
    ['empty key', '/widget-api/v1/widget?key=&type=registration', 400, 'missing-key'],
    ['unknown key', widgetPath('wk_nope'), 401, 'invalid-key'],
    ['revoked key', widgetPath('wk_demo_registration_revoked'), 401, 'invalid-key'],
    ['huge key', widgetPath('x'.repeat(5000)), 401, 'invalid-key'],
    ['key of another type', widgetPath('wk_demo_calendar'), 403, 'type-mismatch'],
    ['type not enabled', widgetPath('wk_demo_registration_disabled'), 403, 'not-available'],
  ];
  for (const [name, path, status, code] of cases) {
    test(`${name} → ${status} ${code}`, async () => {
      const res = await svc.json(path, { headers: { Origin: LOCAL_PAGE } });
      assert.equal(res.status, status);
      assert.deepEqual(Object.keys(res.body), ['error']);
      assert.equal(res.body.error.code, code);
      assert.ok(res.body.error.message.length > 20, 'the message says how to fix it');
      // Errors are readable from any page, and reveal no data.
      assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);
      assert.equal(res.body.courses, undefined);
    });
  }

  test('type-mismatch names both types', async () => {
    const { body } = await svc.json(widgetPath('wk_demo_calendar'));
    assert.match(body.error.message, /calendar widget, not a registration widget/);
  });

  test('every seeded key of a type answers its own type', async () => {
    const seed = (await svc.json('/dev/seed')).body;
    for (const type of ['registration', 'profile', 'contact', 'calendar', 'checkout', 'video', 'map']) {
      const key = seed.widget_keys.find((k: Json) => k.type === type && k.company_id === 1);
      assert.equal(key.key, `wk_demo_${type}`);
      const res = await svc.json(widgetPath(key.key, type), { headers: { Origin: LOCAL_PAGE } });
      assert.equal(res.status, 200, type);
      assert.equal(res.body.widget.type, type);
    }
  });
});

describe('origins and CORS', () => {
  test('an allowed origin gets Access-Control-Allow-Origin and Vary: Origin', async () => {
    for (const origin of ['http://localhost:5173', 'https://localhost', 'http://127.0.0.1:9', 'https://127.0.0.1:8443']) {
      const res = await svc.fetch(widgetPath('wk_demo_registration'), { headers: { Origin: origin } });
      assert.equal(res.status, 200, origin);
      assert.equal(res.headers.get('access-control-allow-origin'), origin);
      assert.match(res.headers.get('vary') ?? '', /Origin/);
    }
  });

  test('a foreign origin is refused (403 origin-not-allowed), and may read why', async () => {
    const res = await svc.json(widgetPath('wk_demo_registration'), { headers: { Origin: FOREIGN_PAGE } });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'origin-not-allowed');
    assert.match(res.body.error.message, /https:\/\/evil\.example/);
    assert.equal(res.headers.get('access-control-allow-origin'), FOREIGN_PAGE);
    assert.equal(res.body.courses, undefined);
  });

  test('look-alike origins are refused', async () => {
    for (const origin of ['http://localhost.evil.example', 'http://127.0.0.1.evil.example:80', 'null', 'ftp://localhost:21']) {
      const res = await svc.json(widgetPath('wk_demo_registration'), { headers: { Origin: origin } });
      assert.equal(res.status, 403, origin);
      assert.equal(res.body.error.code, 'origin-not-allowed');
    }
  });

  test('the key locked to https://example.com serves it and nothing else', async () => {
    const ok = await svc.fetch(widgetPath('wk_demo_registration_example'), { headers: { Origin: 'https://example.com' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), 'https://example.com');

    for (const origin of ['http://example.com', 'https://example.com:8443', 'https://www.example.com', LOCAL_PAGE]) {
      const res = await svc.json(widgetPath('wk_demo_registration_example'), { headers: { Origin: origin } });
      assert.equal(res.status, 403, origin);
      assert.equal(res.body.error.code, 'origin-not-allowed');
    }
  });

  test('origin is checked before type: a refused page learns nothing about the key', async () => {
    const res = await svc.json(widgetPath('wk_demo_calendar'), { headers: { Origin: FOREIGN_PAGE } });
    assert.equal(res.body.error.code, 'origin-not-allowed');
  });

  test('same-origin without an Origin header counts as the service origin', async () => {
    const local = await svc.fetch(widgetPath('wk_demo_registration'), { headers: { 'Sec-Fetch-Site': 'same-origin' } });
    assert.equal(local.status, 200);
    assert.equal(local.headers.get('access-control-allow-origin'), null, 'no Origin, no CORS header');

    // Every key serves the service's own pages (the app previews each widget), even one of other origins.
    const locked = await svc.json(widgetPath('wk_demo_registration_example'), { headers: { 'Sec-Fetch-Site': 'same-origin' } });
    assert.equal(locked.status, 200);
    const elsewhere = await svc.json(widgetPath('wk_demo_registration_example'), {
      headers: { Origin: 'http://localhost:5173' },
    });
    assert.equal(elsewhere.status, 403);
    assert.equal(elsewhere.body.error.code, 'origin-not-allowed');
    assert.match(elsewhere.body.error.message, /pages on http:\/\/localhost:5173/);
  });

  test('a cross-site request whose origin the browser withheld is refused', async () => {
    const res = await svc.json(widgetPath('wk_demo_registration'), { headers: { 'Sec-Fetch-Site': 'cross-site' } });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'origin-not-allowed');
  });

  test('no Origin and no Sec-Fetch-Site (curl, a server) is not origin-checked', async () => {
    const res = await svc.fetch(widgetPath('wk_demo_registration_example'));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });

  test('a success answer never carries CORS for an origin the key does not allow', async () => {
    // The only successful answers are for allowed origins; a refused one is an error.
    const res = await svc.fetch(widgetPath('wk_demo_registration_example'), { headers: { Origin: LOCAL_PAGE } });
    assert.equal(res.status, 403);
    const ok = await svc.fetch(widgetPath('wk_demo_registration_example'), { headers: { Origin: 'https://example.com' } });
    assert.equal(ok.headers.get('access-control-allow-origin'), 'https://example.com');
  });
});

describe('preflight (OPTIONS)', () => {
  const preflight = (key: string, origin: string) =>
    svc.fetch(`/widget-api/v1/registrations?key=${key}`, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,idempotency-key',
      },
    });

  test('passes for an allowed origin with the write headers', async () => {
    const res = await preflight('wk_demo_registration', LOCAL_PAGE);
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    assert.match(allowed, /content-type/);
    assert.match(allowed, /idempotency-key/);
    assert.ok(Number(res.headers.get('access-control-max-age')) > 0);
  });

  test('fails for a foreign origin, an unknown key, and without a key', async () => {
    for (const [key, origin, status] of [
      ['wk_demo_registration', FOREIGN_PAGE, 403],
      ['wk_nope', LOCAL_PAGE, 401],
      ['', LOCAL_PAGE, 400],
    ] as const) {
      const res = await preflight(key, origin);
      assert.equal(res.status, status, `${key} from ${origin}`);
      assert.equal(res.headers.get('access-control-allow-methods'), null);
    }
  });
});

describe('routes', () => {
  test('an unknown widget API path is 404 not-found in the error shape, readable cross-origin', async () => {
    const res = await svc.json('/widget-api/v1/nothing?key=wk_demo_registration', { headers: { Origin: LOCAL_PAGE } });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'not-found');
    assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);
  });

  test('a wrong method is 405 with Allow', async () => {
    const del = await svc.json(widgetPath('wk_demo_registration'), { method: 'DELETE' });
    assert.equal(del.status, 405);
    assert.equal(del.body.error.code, 'method-not-allowed');
    assert.match(del.headers.get('allow') ?? '', /GET/);
    const get = await svc.json('/widget-api/v1/registrations?key=wk_demo_registration');
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST, OPTIONS');
  });

  test('HEAD of the first render answers without a body', async () => {
    const res = await svc.fetch(widgetPath('wk_demo_registration'), { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
  });
});
