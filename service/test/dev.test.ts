import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  LOCAL_PAGE,
  openTestCompany,
  registrationBody,
  startTestService,
  uniqueKey,
  useTestService,
  writeHeaders,
  type Json,
} from './helpers.ts';

// One state for the file, as the development endpoints see it: its tests reset it where they need to.
const svc = useTestService({}, { resetEachTest: false });

describe('GET /dev/seed', () => {
  test('answers the documented shape', async () => {
    const { status, body } = await svc.json('/dev/seed');
    assert.equal(status, 200);
    assert.equal(typeof body.rest.api_key, 'string');
    assert.equal(typeof body.rest.client_secret, 'string');

    assert.ok(Array.isArray(body.users));
    for (const u of body.users) {
      assert.match(u.email, /@/);
      assert.ok(['owner', 'member', 'lecturer'].includes(u.role));
      assert.ok(Number.isInteger(u.company_id), 'the REST API’s company id, an integer');
      assert.ok(Number.isInteger(u.id));
    }
    assert.equal(body.users.find((u: Json) => u.role === 'member').company_id, 1);
    const roles = new Set(body.users.filter((u: Json) => u.company_id === 1).map((u: Json) => u.role));
    assert.deepEqual([...roles].sort(), ['lecturer', 'member', 'owner']);

    assert.ok(body.participants.length > 0);
    for (const p of body.participants) {
      assert.match(p.email, /@/);
      assert.ok(Number.isInteger(p.company_id));
    }

    for (const k of body.widget_keys) {
      assert.equal(typeof k.key, 'string');
      assert.equal(typeof k.type, 'string');
      assert.ok(Number.isInteger(k.company_id));
      assert.ok(Array.isArray(k.origins) && k.origins.length > 0);
    }
    const acmeTypes = body.widget_keys
      .filter((k: Json) => k.company_id === 1 && k.enabled && !k.revoked && k.origins.includes('http://localhost:*'))
      .map((k: Json) => k.type);
    assert.deepEqual(new Set(acmeTypes), new Set(['registration', 'profile', 'contact', 'calendar', 'checkout', 'video', 'map']));
    const locked = body.widget_keys.find((k: Json) => k.key === 'wk_demo_registration_example');
    assert.deepEqual(locked.origins, ['https://example.com']);
    assert.ok(body.widget_keys.some((k: Json) => k.revoked));
    assert.ok(body.widget_keys.some((k: Json) => !k.enabled));
    assert.ok(body.widget_keys.some((k: Json) => k.company_id === 2));

    assert.equal(body.classes.five_seats_left, 'cls_web_1');
    assert.equal(body.companies[0].id, 1);
    assert.equal(body.companies[0].public_id, 'c_acme', 'how the widget API names it');
    assert.equal(body.companies[0].name, 'Acme Academy');
    assert.deepEqual([body.rest.application_id, body.rest.company_id], [201, 1]);
  });

  test('lists the seeded videos and places (what the README says it lists)', async () => {
    const { body } = await svc.json('/dev/seed');
    assert.deepEqual(
      body.videos.map((v: Json) => [v.id, v.company_id, v.access, v.captions]),
      [
        ['vid_welcome', 1, 'public', ['en', 'de']],
        ['vid_web_intro', 1, 'public', ['en']],
        ['vid_ts_session_1', 1, 'participants', ['en', 'de']],
      ],
    );
    assert.equal(body.videos[2].title, 'TypeScript for teams: session 1');
    assert.deepEqual(
      body.places.map((p: Json) => [p.id, p.name, p.lat !== null]),
      [
        ['pl_berlin', 'Acme Berlin', true],
        ['pl_hamburg', 'Acme Hamburg', true],
        ['pl_vienna', 'Acme Vienna', true],
        ['pl_london', 'Acme London', true],
        ['pl_online', 'Online', false],
      ],
    );
    assert.equal(body.places[0].address, 'Torstraße 1, 10119 Berlin');
  });
});

describe('/dev/clock', () => {
  test('GET tells the service time; POST moves it forward; bad input is 422', async () => {
    const start = (await svc.json('/dev/clock')).body;
    assert.ok(Math.abs(Date.parse(start.now) - Date.now()) < 60_000 + start.offset_s * 1000);
    const moved = await svc.postJson('/dev/clock', { advance_s: 3600 });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.offset_s, start.offset_s + 3600);
    assert.ok(Date.parse(moved.body.now) - Date.parse(start.now) >= 3600_000);

    for (const body of [
      {},
      { advance_s: -1 },
      { advance_s: '60' },
      { advance_s: 60, extra: 1 },
      JSON.parse('{"advance_s":60,"__proto__":{}}'),
    ]) {
      const res = await svc.postJson('/dev/clock', body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.error.code, 'validation');
    }
    assert.equal((await svc.postJson('/dev/clock', [])).status, 400);
  });
});

describe('/dev/outbox and /dev/reset', () => {
  test('the outbox lists emails newest first; reset restores the seed, the clock and an empty outbox', async () => {
    for (const email of ['first@example.org', 'second@example.org']) {
      const res = await svc.json('/widget-api/v1/registrations?key=wk_demo_registration', {
        method: 'POST',
        headers: writeHeaders(uniqueKey()),
        body: JSON.stringify(registrationBody({ email })),
      });
      assert.equal(res.status, 201);
    }
    await svc.postJson('/dev/clock', { advance_s: 86400 });
    const emails = await svc.outbox();
    assert.deepEqual(
      emails.slice(0, 2).map((e: Json) => e.to),
      ['second@example.org', 'first@example.org'],
    );
    for (const key of ['to', 'subject', 'text', 'link', 'pin', 'sent_at']) assert.ok(key in emails[0], key);

    const reset = await svc.json('/dev/reset', { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    assert.equal(reset.status, 200);
    assert.equal((await svc.outbox()).length, 0);
    assert.equal((await svc.json('/dev/clock')).body.offset_s, 0);
    assert.equal(
      await svc.count("SELECT count(*) FROM registrations WHERE email LIKE '%@example.org' AND widget_key IS NOT NULL"),
      0,
    );
    const widget = (await svc.json('/widget-api/v1/widget?key=wk_demo_registration&type=registration')).body;
    const five = widget.courses.flatMap((c: Json) => c.classes).find((c: Json) => c.id === 'cls_web_1');
    assert.equal(five.seats_left, 5);
  });
});

describe('/dev/reset with times', () => {
  test('makes the seed that many times over, the copies apart from the originals; a wrong times is 422 and changes nothing', async () => {
    const courses = () => svc.count('SELECT count(*) FROM courses');
    const seeded = await courses();
    for (const times of [0, 201, 2.5, '3']) {
      const res = await svc.postJson('/dev/reset', { times });
      assert.equal(res.status, 422, JSON.stringify(times));
      assert.match(res.body.error.fields.times, /times (must|may) be/);
    }
    assert.equal(await courses(), seeded);
    assert.equal((await svc.postJson('/dev/reset', { times: 3 })).status, 200);
    assert.equal(await courses(), 3 * seeded);
    assert.equal(await svc.count("SELECT count(*) FROM classes WHERE id = 'cls_web_1__2'"), 1);
    assert.equal(
      await svc.count("SELECT count(*) FROM registrations WHERE class_id LIKE 'cls_web_1%'"),
      3 * (await svc.count("SELECT count(*) FROM registrations WHERE class_id = 'cls_web_1'")),
    );
    assert.equal((await svc.postJson('/dev/reset')).status, 200);
    assert.equal(await courses(), seeded);
  });
});

describe('/dev/tokens/invalidate', () => {
  test('takes a token or an email, nothing else', async () => {
    const one = await svc.postJson('/dev/tokens/invalidate', { token: 'tok_unknown' });
    assert.equal(one.status, 200);
    assert.equal(one.body.invalidated, 0);
    assert.equal((await svc.postJson('/dev/tokens/invalidate', { email: 'olivia.owner@acme.example' })).status, 200);
    for (const body of [{}, { token: 't', email: 'e@example.org' }, { token: 42 }, { email: '' }]) {
      const res = await svc.postJson('/dev/tokens/invalidate', body);
      assert.equal(res.status, 422, JSON.stringify(body));
    }
  });
});

describe('/dev/login-links', () => {
  const REST = { 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': 'rk_demo_acme' };
  const emailLogin = async (email: string, headers = REST) => {
    const res = await svc.json('/v1/login', {
      method: 'POST',
      headers,
      body: JSON.stringify({ login: email, verification_method: 'email' }),
    });
    assert.equal(res.status, 200);
    return new URL((await svc.outbox(email))[0].link);
  };

  test("sets the page an application's emailed link opens, with key; the other application keeps its own; reset restores it", async () => {
    await svc.postJson('/dev/reset');
    try {
      const before = (await svc.json('/dev/login-links')).body.applications;
      assert.deepEqual(
        before.map((a: Json) => [a.application_id, a.login_link]),
        [
          [201, '/demo/login.html'],
          [202, '/demo/login.html?app=202'],
        ],
      );

      const set = await svc.postJson('/dev/login-links', {
        application_id: 201,
        login_link: 'https://Intranet.example/sign-in?from=email#top',
      });
      assert.equal(set.status, 200);
      assert.deepEqual(set.body, {
        application_id: 201,
        name: 'Acme demo application',
        login_link: 'https://intranet.example/sign-in?from=email#top',
      });
      assert.equal(
        (await svc.json('/dev/login-links')).body.applications[0].login_link,
        'https://intranet.example/sign-in?from=email#top',
      );

      const link = await emailLogin('max.member@acme.example');
      assert.equal(`${link.origin}${link.pathname}`, 'https://intranet.example/sign-in');
      assert.equal(link.searchParams.get('from'), 'email', 'the page keeps its own parameters');
      assert.equal(link.hash, '#top');
      const token = link.searchParams.get('key')!;
      const user = await svc.json('/v1/user', { headers: { ...REST, 'X-SERVICE-TOKEN': token } });
      assert.equal(user.body.user.email, 'max.member@acme.example', 'key is a working token');
      const mail = (await svc.outbox('max.member@acme.example'))[0];
      assert.ok(mail.text.includes(link.href), 'the text holds the same link');

      const globex = await emailLogin('gina.owner@globex.example', { ...REST, 'X-SERVICE-API-KEY': 'rk_demo_globex' });
      assert.equal(globex.origin, svc.publicUrl);
      assert.equal(globex.pathname, '/demo/login.html');

      assert.equal(
        (await svc.postJson('/dev/login-links', { application_id: 201, login_link: 'http://localhost:3000/account' })).status,
        200,
        'http works too',
      );
      await svc.postJson('/dev/reset');
      const restored = await emailLogin('max.member@acme.example');
      assert.equal(`${restored.origin}${restored.pathname}`, `${svc.publicUrl}/demo/login.html`);
    } finally {
      await svc.postJson('/dev/reset');
    }
  });

  test('refuses anything but an absolute http(s) URL for a known application, field by field', async () => {
    const cases: [Json, string[]][] = [
      [{}, ['application_id', 'login_link']],
      [{ application_id: 201 }, ['login_link']],
      [{ login_link: 'https://intranet.example/' }, ['application_id']],
      [{ application_id: 999, login_link: 'https://intranet.example/' }, ['application_id']],
      [{ application_id: 'app_demo', login_link: 'https://intranet.example/' }, ['application_id']],
      [{ application_id: 42, login_link: 'https://intranet.example/' }, ['application_id']],
      [{ application_id: 201, login_link: '/demo/login.html' }, ['login_link']],
      [{ application_id: 201, login_link: 'intranet.example/sign-in' }, ['login_link']],
      [{ application_id: 201, login_link: 'ftp://intranet.example/' }, ['login_link']],
      [{ application_id: 201, login_link: 'javascript:alert(1)' }, ['login_link']],
      [{ application_id: 201, login_link: 'https://user:secret@intranet.example/' }, ['login_link']],
      [{ application_id: 201, login_link: 'https://intranet.example/a b' }, ['login_link']],
      [{ application_id: 201, login_link: `https://intranet.example/${'x'.repeat(2000)}` }, ['login_link']],
      [{ application_id: 201, login_link: 42 }, ['login_link']],
      [{ application_id: 201, login_link: 'https://intranet.example/', key: 'x' }, ['key']],
    ];
    for (const [body, fields] of cases) {
      const res = await svc.postJson('/dev/login-links', body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.error.code, 'validation');
      assert.deepEqual(Object.keys(res.body.error.fields).sort(), fields, JSON.stringify(body));
      for (const message of Object.values(res.body.error.fields)) assert.ok(String(message).length > 10);
    }
    const ftp = await svc.postJson('/dev/login-links', { application_id: 201, login_link: 'ftp://x' });
    assert.match(ftp.body.error.fields.login_link, /absolute http:\/\/ or https:\/\/ URL/);
    const unknown = await svc.postJson('/dev/login-links', { application_id: 999, login_link: 'https://x.example/' });
    assert.match(unknown.body.error.fields.application_id, /201, 202/);
    assert.equal((await svc.postJson('/dev/login-links', [])).status, 400);
    assert.equal((await svc.json('/dev/login-links', { method: 'DELETE' })).status, 405);
    const links = (await svc.json('/dev/login-links')).body.applications;
    assert.equal(links[0].login_link, '/demo/login.html', 'nothing was changed');
  });
});

describe('/dev/widget-keys', () => {
  /** The widget API's first render of a `type` widget with `key`, asked by a page on `origin`. */
  const widgetFrom = (origin: string, key: string, type: string) =>
    svc.fetch(`/widget-api/v1/widget?key=${key}&type=${type}`, { headers: { Origin: origin } });
  const keysNow = async () => (await svc.json('/dev/widget-keys')).body.widget_keys as Json[];

  test('creates a key of a type for a staging origin, which the widget API then serves there and nowhere else; reset forgets it', async () => {
    await svc.postJson('/dev/reset');
    try {
      const created = await svc.postJson('/dev/widget-keys', {
        type: 'contact',
        origins: ['https://Staging.Acme.example:443', 'http://shop.localhost:*'],
      });
      assert.equal(created.status, 201);
      const { key } = created.body;
      assert.match(key, /^wk_dev_contact_[\w-]{8}$/);
      assert.deepEqual(created.body, {
        key,
        type: 'contact',
        company_id: 1,
        origins: ['https://staging.acme.example', 'http://shop.localhost:*'],
        enabled: true,
        revoked: false,
        note: 'the contact widget of Acme Academy, created by POST /dev/widget-keys',
      });

      const staging = await widgetFrom('https://staging.acme.example', key, 'contact');
      assert.equal(staging.status, 200);
      assert.equal(staging.headers.get('access-control-allow-origin'), 'https://staging.acme.example');
      const widget = (await staging.json()) as Json;
      assert.deepEqual(
        widget.widget.options.topics,
        ['Programmes', 'Invoices', 'Something else'],
        'the options of Acme’s contact key',
      );
      assert.equal((await widgetFrom('http://shop.localhost:5173', key, 'contact')).status, 200, 'any port of that host');
      const elsewhere = await widgetFrom('https://www.acme.example', key, 'contact');
      assert.equal(elsewhere.status, 403);
      assert.equal(((await elsewhere.json()) as Json).error.code, 'origin-not-allowed');

      const globex = await svc.postJson('/dev/widget-keys', {
        type: 'registration',
        company_id: 2,
        origins: ['https://globex.example'],
      });
      assert.equal(globex.status, 201);
      const globexWidget = (await (await widgetFrom('https://globex.example', globex.body.key, 'registration')).json()) as Json;
      assert.equal(globexWidget.widget.company.name, 'Globex Institute');

      assert.deepEqual(
        (await keysNow()).slice(-2).map((k) => k.key),
        [key, globex.body.key],
        'listed after the seeded keys',
      );
      await svc.postJson('/dev/reset');
      assert.equal(
        (await keysNow()).some((k) => k.key === key),
        false,
      );
      assert.equal((await widgetFrom('https://staging.acme.example', key, 'contact')).status, 401);
    } finally {
      await svc.postJson('/dev/reset');
    }
  });

  test('adds origins to a key once, keeping those it had', async () => {
    await svc.postJson('/dev/reset');
    try {
      assert.equal((await widgetFrom('https://staging.acme.example', 'wk_demo_registration', 'registration')).status, 403);
      const added = await svc.postJson('/dev/widget-keys', {
        key: 'wk_demo_registration',
        origins: ['https://staging.acme.example/'],
      });
      assert.equal(added.status, 200);
      const again = await svc.postJson('/dev/widget-keys', {
        key: 'wk_demo_registration',
        type: 'registration',
        company_id: 1,
        origins: ['https://staging.acme.example', 'http://127.0.0.1:*'],
      });
      assert.equal(again.status, 200);
      assert.deepEqual(again.body.origins, [
        'http://localhost:*',
        'https://localhost:*',
        'http://127.0.0.1:*',
        'https://127.0.0.1:*',
        'https://staging.acme.example',
      ]);
      assert.equal((await widgetFrom('https://staging.acme.example', 'wk_demo_registration', 'registration')).status, 200);
      assert.deepEqual((await keysNow()).find((k) => k.key === 'wk_demo_registration')!.origins, again.body.origins);
    } finally {
      await svc.postJson('/dev/reset');
    }
  });

  test('refuses what it cannot do, field by field, and changes nothing', async () => {
    await svc.postJson('/dev/reset');
    const before = await keysNow();
    const cases: [Json, string[]][] = [
      [{}, ['origins', 'type']],
      [{ type: 'registration' }, ['origins']],
      [{ origins: ['https://a.example'] }, ['type']],
      [{ type: 'banner', origins: ['https://a.example'] }, ['type']],
      [{ type: 'map', company_id: 9, origins: ['https://a.example'] }, ['company_id']],
      [{ type: 'map', company_id: '1', origins: ['https://a.example'] }, ['company_id']],
      [{ type: 'map', origins: [] }, ['origins']],
      [{ type: 'map', origins: 'https://a.example' }, ['origins']],
      [{ type: 'map', origins: Array.from({ length: 21 }, (_, i) => `https://a${i}.example`) }, ['origins']],
      [{ type: 'map', origins: ['*'] }, ['origins.0']],
      [{ type: 'map', origins: ['https://a.example', 'https://a.example/booking'] }, ['origins.1']],
      [{ type: 'map', origins: ['a.example'] }, ['origins.0']],
      [{ type: 'map', origins: ['ftp://a.example'] }, ['origins.0']],
      [{ type: 'map', origins: ['javascript:alert(1)'] }, ['origins.0']],
      [{ type: 'map', origins: ['https://user:pw@a.example'] }, ['origins.0']],
      [{ type: 'map', origins: ['https://a.example?x=1'] }, ['origins.0']],
      [{ type: 'map', origins: ['http://localhost:3000:*'] }, ['origins.0']],
      [{ type: 'map', origins: [`https://${'a'.repeat(200)}.example`] }, ['origins.0']],
      [{ type: 'map', origins: [42] }, ['origins.0']],
      [{ type: 'map', origins: ['http://plain.acme.example'] }, ['origins.0']],
      [{ key: 'wk_demo_registration', origins: ['http://evil.example:*'] }, ['origins.0']],
      [{ key: 'wk_nope', origins: ['https://a.example'] }, ['key']],
      [{ key: 'wk_demo_registration_revoked', origins: ['https://a.example'] }, ['key']],
      [{ key: 'wk_demo_registration', type: 'map', origins: ['https://a.example'] }, ['type']],
      [{ key: 'wk_demo_registration', company_id: 2, origins: ['https://a.example'] }, ['company_id']],
      [{ key: '', origins: ['https://a.example'] }, ['key']],
      [{ type: 'map', origins: ['https://a.example'], enabled: true }, ['enabled']],
    ];
    for (const [body, fields] of cases) {
      const res = await svc.postJson('/dev/widget-keys', body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.error.code, 'validation');
      assert.deepEqual(Object.keys(res.body.error.fields).sort(), fields.sort(), JSON.stringify(body));
      for (const message of Object.values(res.body.error.fields)) assert.ok(String(message).length > 20);
    }
    const fieldsOf = async (body: Json) => (await svc.postJson('/dev/widget-keys', body)).body.error.fields;
    assert.match((await fieldsOf({ type: 'map', origins: ['*'] }))['origins.0'], /any site/);
    assert.match(
      (await fieldsOf({ type: 'map', origins: ['http://plain.acme.example'] }))['origins.0'],
      /not a secure page.*send https:\/\/plain\.acme\.example /,
    );
    assert.match(
      (await fieldsOf({ type: 'map', origins: ['https://a.example/booking'] }))['origins.0'],
      /send https:\/\/a\.example\./,
    );
    assert.match(
      (await fieldsOf({ type: 'map', company_id: 9, origins: ['https://a.example'] })).company_id,
      /1 \(Acme Academy\), 2 \(Globex Institute\)/,
    );
    assert.match((await fieldsOf({ key: 'wk_demo_registration_revoked', origins: ['https://a.example'] })).key, /revoked/);
    assert.equal((await svc.postJson('/dev/widget-keys', [])).status, 400);
    const plain = await svc.json('/dev/widget-keys', { method: 'POST', body: '{"type":"map","origins":["https://a.example"]}' });
    assert.equal(plain.status, 415);
    assert.deepEqual(await keysNow(), before, 'nothing was changed');
  });

  test('check: what the widget API would answer a page of an origin, in its order and with its messages', async () => {
    const check = async (query: string) => {
      const res = await svc.json(`/dev/widget-keys/check?${query}`);
      assert.equal(res.status, 200, query);
      return res.body;
    };
    assert.deepEqual(await check('key=wk_demo_registration&type=registration&origin=http://localhost:3000'), {
      ok: true,
      error: null,
    });
    assert.deepEqual(await check('key=wk_demo_map'), { ok: true, error: null }, 'no origin, no type: the key alone');
    const cases: [string, string][] = [
      ['type=registration', 'missing-key'],
      ['key=wk_nope&type=registration', 'invalid-key'],
      ['key=wk_demo_registration_revoked&type=registration', 'invalid-key'],
      ['key=wk_demo_registration&type=calendar&origin=https://www.acme.example', 'origin-not-allowed'],
      ['key=wk_demo_registration&type=calendar&origin=http://localhost:3000', 'type-mismatch'],
      ['key=wk_demo_registration_disabled&type=registration', 'not-available'],
    ];
    for (const [query, code] of cases) {
      const { ok, error } = await check(query);
      assert.equal(ok, false, query);
      assert.equal(error.code, code, query);
      // The very message a widget on that page would get from the widget API.
      const [key, type] = [new URLSearchParams(query).get('key') ?? '', new URLSearchParams(query).get('type')];
      const origin = new URLSearchParams(query).get('origin');
      const real = await svc.json(`/widget-api/v1/widget?key=${key}&type=${type}`, { headers: origin ? { Origin: origin } : {} });
      assert.deepEqual([real.body.error.code, real.body.error.message], [code, error.message], query);
    }
    for (const query of [
      'key=wk_demo_map&type=banner',
      'key=wk_demo_map&origin=acme.example',
      'key=wk_demo_map&origin=http://localhost:*',
    ]) {
      const res = await svc.json(`/dev/widget-keys/check?${query}`);
      assert.equal(res.status, 422, query);
      assert.equal(res.body.error.code, 'validation');
    }
  });
});

describe('development mode only', () => {
  test('with dev=false every /dev path is 404, and the APIs still work', async () => {
    const prod = await startTestService({ dev: false });
    try {
      for (const [method, path] of [
        ['GET', '/dev/seed'],
        ['GET', '/dev/outbox'],
        ['GET', '/dev/clock'],
        ['POST', '/dev/clock'],
        ['POST', '/dev/reset'],
        ['POST', '/dev/tokens/invalidate'],
        ['GET', '/dev/login-links'],
        ['POST', '/dev/login-links'],
        ['GET', '/dev/widget-keys'],
        ['POST', '/dev/widget-keys'],
        ['GET', '/dev/widget-keys/check?key=wk_demo_registration'],
      ]) {
        const res = await prod.json(path!, { method: method! });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal(res.body.error.code, 'not-found');
      }
      // No demo data: the demo's keys and REST credentials are unknown; support's work.
      const demo = await prod.json('/widget-api/v1/widget?key=wk_demo_registration&type=registration', {
        headers: { Origin: LOCAL_PAGE },
      });
      assert.equal(demo.body.error.code, 'invalid-key');
      const company = await openTestCompany(prod, { types: ['registration'] });
      const widget = await prod.fetch(`/widget-api/v1/widget?key=${company.keys.registration}&type=registration`, {
        headers: { Origin: 'https://www.acme.example' },
      });
      assert.equal(widget.status, 200);
    } finally {
      await prod.close();
    }
  });
});
