/**
 * The company's widgets in the REST API (`/v1/widgets`, `/v1/team`): an owner lists, creates,
 * changes and rotates them, and each change is what the widget API answers their pages; a member
 * sees them and changes nothing; a lecturer sees none. The rotated key serves its widget for a day
 * of the service clock, then answers `revoked`.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { widgetOrigins } from '../domain/widgets.ts';
import { restToken, useTestService, type Json } from './helpers.ts';

const svc = useTestService();
const SITE = 'https://www.acme.example';

/** A token of each user, asked once per test (every test starts from the seed). */
const tokens = new Map<string, Promise<string>>();
beforeEach(() => tokens.clear());
const tokenOf = (email: string): Promise<string> => {
  if (!tokens.has(email)) tokens.set(email, restToken(svc.url, email));
  return tokens.get(email)!;
};

const OWNER = 'olivia.owner@acme.example';
const MEMBER = 'max.member@acme.example';
const LECTURER = 'lena.lecturer@acme.example';

/** A REST call as `email`, for company 1 (Acme). */
const rest = async (email: string, path: string, method = 'GET', body?: Json) =>
  svc.json(path, {
    method,
    headers: {
      'X-SERVICE-API-KEY': 'rk_demo_acme',
      'X-SERVICE-TOKEN': await tokenOf(email),
      'X-SERVICE-COMPANY': '1',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

/** What the widget API answers a page of `origin` with `key` (a calendar's first render). */
const firstRender = (key: string, origin = SITE) =>
  svc.json(`/widget-api/v1/widget?key=${encodeURIComponent(key)}&type=calendar`, { headers: { Origin: origin } });

const created = async (body: Json = {}) => {
  const res = await rest(OWNER, '/v1/widgets', 'POST', {
    type: 'calendar',
    name: 'Calendar on the home page',
    origins: [SITE],
    ...body,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
};

describe('/v1/widgets', () => {
  test('an owner lists the company’s widgets, newest first, each with its key, loader, origins and state; by type too', async () => {
    const res = await rest(OWNER, '/v1/widgets');
    assert.equal(res.status, 200);
    const registration = res.body.widgets.find((w: Json) => w.key === 'wk_demo_registration');
    assert.deepEqual(Object.keys(registration).sort(), [
      'created_at',
      'enabled',
      'id',
      'key',
      'loader',
      'name',
      'options',
      'origins',
      'previous_keys',
      'type',
    ]);
    assert.equal(registration.loader, 'v1');
    assert.equal(typeof registration.id, 'number');
    assert.ok(
      res.body.widgets.every((w: Json) => !w.key.startsWith('wk_globex')),
      'Acme’s only',
    );
    assert.ok(!res.body.widgets.some((w: Json) => w.key === 'wk_demo_registration_revoked'), 'a revoked key is no widget');
    const calendars = await rest(OWNER, '/v1/widgets?type=calendar');
    assert.deepEqual(
      calendars.body.widgets.map((w: Json) => [w.type, w.loader]),
      [['calendar', 'v2']],
    );
    assert.equal((await rest(OWNER, '/v1/widgets?type=banner')).body.error.fields.type.includes('calendar'), true);
  });

  test('an owner creates a widget for the site: its new key shows the widget on the site’s pages, and nowhere else', async () => {
    const widget = await created({ options: { locale: 'de', location: 'Berlin' } });
    assert.match(widget.key, /^wk_[\w-]{22}$/);
    assert.deepEqual(
      { ...widget, id: 0, key: '', created_at: '' },
      {
        id: 0,
        key: '',
        created_at: '',
        type: 'calendar',
        loader: 'v2',
        name: 'Calendar on the home page',
        origins: [SITE],
        enabled: true,
        options: { locale: 'de', location: 'Berlin' },
        previous_keys: [],
      },
    );
    assert.deepEqual((await rest(OWNER, `/v1/widgets/${widget.id}`)).body, widget);
    assert.equal((await rest(OWNER, '/v1/widgets')).body.widgets[0].id, widget.id, 'newest first');

    const shown = await firstRender(widget.key);
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    assert.equal(shown.body.widget.options.location, 'Berlin');
    const elsewhere = await firstRender(widget.key, 'https://evil.example');
    assert.equal(elsewhere.status, 403);
    assert.equal(elsewhere.body.error.code, 'origin-not-allowed');
  });

  test('origins, options and names that cannot work are 422 naming the field and saying how to write it; nothing is made', async () => {
    const before = (await rest(OWNER, '/v1/widgets')).body.widgets.length;
    const cases: [Json, string, RegExp][] = [
      [{ origins: ['http://www.acme.example'] }, 'origins', /not a secure page.*https:\/\/www\.acme\.example/],
      [{ origins: ['*'] }, 'origins', /any site/],
      [{ origins: ['https://www.acme.example/shop'] }, 'origins', /no path/],
      [{ origins: [] }, 'origins', /1 to 20 origins/],
      [{ origins: 'https://www.acme.example' }, 'origins', /list/],
      [{ options: { colour: 'red' } }, 'options', /takes no option "colour": it takes locale, course, location/],
      [{ options: { locale: 'fr' } }, 'options', /"en" or "de"/],
      [{ options: { course: 7 } }, 'options', /text of at most 200/],
      [{ type: 'banner' }, 'type', /calendar/],
      [{ name: '  ' }, 'name', /1 to 100/],
    ];
    for (const [change, field, message] of cases) {
      const res = await rest(OWNER, '/v1/widgets', 'POST', { type: 'calendar', origins: [SITE], ...change });
      assert.equal(res.status, 422, JSON.stringify(change));
      assert.match(res.body.error.fields[field], message, JSON.stringify(change));
    }
    assert.equal((await rest(OWNER, '/v1/widgets')).body.widgets.length, before);
    // A map's tiles and a contact form's topics are the service's own options.
    const map = await rest(OWNER, '/v1/widgets', 'POST', {
      type: 'map',
      origins: [SITE],
      options: { tiles: { url: 'https://tiles.acme.example/{z}/{x}/{y}.png', attribution: '© Acme' } },
    });
    assert.equal(map.status, 201);
    const topics = await rest(OWNER, '/v1/widgets', 'POST', { type: 'contact', origins: [SITE], options: { topics: [''] } });
    assert.match(topics.body.error.fields.options, /1 to 100 characters/);
  });

  test('a page of the site a widget links to (a calendar’s checkout page, a map’s booking page): an http(s) address or a path; one the widget would not link is 422 saying how to write it', async () => {
    for (const [type, option] of [
      ['calendar', 'checkout-url'],
      ['map', 'booking-url'],
    ] as const) {
      for (const value of [
        'https://www.acme.example/checkout',
        '/checkout',
        'checkout.html?from=calendar',
        'http://localhost:3000/shop',
      ]) {
        const widget = await created({ type, options: { [option]: value } });
        assert.equal(widget.options[option], value, value);
        const shown = await svc.json(`/widget-api/v1/widget?key=${encodeURIComponent(widget.key)}&type=${type}`, {
          headers: { Origin: SITE },
        });
        assert.equal(shown.body.widget.options[option], value, value);
      }
      for (const value of [
        'javascript:alert(1)',
        'data:text/html,x',
        'https://',
        'https://www.acme.example:99999/',
        'www.acme.example/checkout',
      ]) {
        const res = await rest(OWNER, '/v1/widgets', 'POST', { type, origins: [SITE], options: { [option]: value } });
        assert.equal(res.status, 422, value);
        assert.match(
          res.body.error.fields.options,
          new RegExp(
            `options\\.${option} is a page of your site: an https:// address \\(https://www\\.example\\.com/${option.slice(0, -4)}\\) or a path`,
          ),
          value,
        );
      }
      // And when it is changed.
      const widget = await created({ type });
      const changed = await rest(OWNER, `/v1/widgets/${widget.id}`, 'PATCH', { options: { [option]: 'vbscript:x' } });
      assert.equal(changed.status, 422);
      assert.match(changed.body.error.fields.options, new RegExp(`options\\.${option} is a page of your site`));
    }
  });

  test('a checkout’s terms: an https address its first render names; anything else is 422 saying how to write it', async () => {
    const terms = 'https://www.acme.example/terms?lang=de#booking';
    const checkout = await created({ type: 'checkout', options: { terms } });
    assert.deepEqual(checkout.options, { terms });
    const shown = await svc.json(`/widget-api/v1/widget?key=${encodeURIComponent(checkout.key)}&type=checkout`, {
      headers: { Origin: SITE },
    });
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    assert.equal(shown.body.widget.options.terms, terms);
    for (const bad of [
      'http://www.acme.example/terms',
      'javascript:alert(1)',
      '/terms',
      'https://',
      'https://www.acme.example@evil.example/terms',
      7,
      `https://a.example/${'x'.repeat(500)}`,
    ]) {
      const res = await rest(OWNER, `/v1/widgets/${checkout.id}`, 'PATCH', { options: { terms: bad } });
      assert.equal(res.status, 422, String(bad));
      assert.match(
        res.body.error.fields.options,
        /options\.terms is .* an https URL of at most 500 characters, such as https:\/\/www\.acme\.example\/terms\./,
      );
    }
    // Another type has no terms to agree to.
    const calendar = await rest(OWNER, '/v1/widgets', 'POST', { type: 'calendar', origins: [SITE], options: { terms } });
    assert.match(calendar.body.error.fields.options, /takes no option "terms"/);
    assert.deepEqual((await rest(OWNER, `/v1/widgets/${checkout.id}`)).body.options, { terms });
  });

  test('in production only https origins serve: plain http on this machine is for development', () => {
    const dev: Record<string, string> = {};
    assert.deepEqual(widgetOrigins(['http://localhost:3000', 'HTTPS://WWW.Acme.example:443'], true, dev), [
      'http://localhost:3000',
      'https://www.acme.example',
    ]);
    assert.deepEqual(dev, {});
    const production: Record<string, string> = {};
    widgetOrigins(['http://localhost:3000'], false, production);
    assert.match(production.origins!, /secure pages only: https:\/\/localhost:3000\./);
  });

  test('an owner changes the name, the whole list of origins, the options and whether it is enabled; the widget API follows each', async () => {
    const widget = await created();
    const renamed = await rest(OWNER, `/v1/widgets/${widget.id}`, 'PATCH', {
      name: 'Calendar, Berlin',
      origins: ['https://shop.acme.example'],
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Calendar, Berlin');
    assert.deepEqual(renamed.body.origins, ['https://shop.acme.example']);
    assert.equal((await firstRender(widget.key)).body.error.code, 'origin-not-allowed', 'the old origin is gone');
    assert.equal((await firstRender(widget.key, 'https://shop.acme.example')).status, 200);

    const off = await rest(OWNER, `/v1/widgets/${widget.id}`, 'PATCH', { enabled: false });
    assert.equal(off.body.enabled, false);
    assert.equal((await firstRender(widget.key, 'https://shop.acme.example')).body.error.code, 'not-available');
    await rest(OWNER, `/v1/widgets/${widget.id}`, 'PATCH', { enabled: true });
    assert.equal((await firstRender(widget.key, 'https://shop.acme.example')).status, 200);

    const unchanged = await rest(OWNER, `/v1/widgets/${widget.id}`, 'PATCH', {});
    assert.equal(unchanged.status, 200);
    assert.equal(unchanged.body.name, 'Calendar, Berlin');
    const bad = await rest(OWNER, `/v1/widgets/${widget.id}`, 'PATCH', { origins: ['ftp://acme.example'], enabled: 'yes' });
    assert.equal(bad.status, 422);
    assert.deepEqual(Object.keys(bad.body.error.fields).sort(), ['enabled', 'origins']);
    for (const id of ['999999', 'abc', '0', '1e3', '3000000000', '99999999999999999999']) {
      assert.equal((await rest(OWNER, `/v1/widgets/${id}`)).status, 404, id);
      assert.equal((await rest(OWNER, `/v1/widgets/${id}`, 'PATCH', { enabled: false })).status, 404, id);
    }
    for (const options of [null, [], 'x']) {
      const res = await rest(OWNER, `/v1/widgets/${widget.id}`, 'PATCH', { options });
      assert.equal(res.status, 422, JSON.stringify(options));
      assert.match(res.body.error.fields.options, /an object of the widget’s settings/);
    }
    const bidi = await rest(OWNER, `/v1/widgets/${widget.id}`, 'PATCH', { name: 'Kalender \u202e' });
    assert.match(bidi.body.error.fields.name, /writing direction/);
  });

  test('rotating a key: the new one serves at once, the old one for a day of the service clock, then it answers revoked', async () => {
    const widget = await created();
    const rotated = await rest(OWNER, `/v1/widgets/${widget.id}/rotate`, 'POST');
    assert.equal(rotated.status, 200);
    assert.equal(rotated.body.id, widget.id);
    assert.notEqual(rotated.body.key, widget.key);
    const now = Date.parse((await svc.json('/dev/clock')).body.now);
    assert.equal(rotated.body.previous_keys.length, 1);
    assert.equal(rotated.body.previous_keys[0].key, widget.key);
    const until = Date.parse(rotated.body.previous_keys[0].valid_until);
    assert.ok(Math.abs(until - (now + 24 * 3_600_000)) < 5_000, 'a day of the service clock from now');
    assert.equal((await firstRender(rotated.body.key)).status, 200);
    assert.equal((await firstRender(widget.key)).status, 200, 'the old key still serves the pages that carry it');
    const listed = (await rest(OWNER, '/v1/widgets')).body.widgets;
    assert.deepEqual(
      listed.find((w: Json) => w.id === widget.id).previous_keys,
      rotated.body.previous_keys,
      'the list says it too',
    );
    assert.ok(listed.filter((w: Json) => w.id !== widget.id).every((w: Json) => w.previous_keys.length === 0));

    await svc.json('/dev/clock', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance_s: 24 * 3600 }),
    });
    const old = await firstRender(widget.key);
    assert.equal(old.status, 401);
    assert.equal(old.body.error.code, 'revoked');
    assert.match(old.body.error.message, /replaced by a new one/);
    assert.equal((await firstRender(rotated.body.key)).status, 200);
    assert.deepEqual((await rest(OWNER, `/v1/widgets/${widget.id}`)).body.previous_keys, []);
    // A calendar file linked from an email keeps working: it holds nothing personal.
    const ics = await svc.fetch(`/widget-api/v1/calendar.ics?key=${widget.key}&classes=cls_web_1`);
    assert.equal(ics.status, 200);
  });

  test('a key that leaked ends at once (grace_hours=0); two rotations at once retire one key each; a grace of more than a day is refused', async () => {
    const widget = await created();
    const leaked = await rest(OWNER, `/v1/widgets/${widget.id}/rotate?grace_hours=0`, 'POST');
    assert.equal(leaked.status, 200);
    assert.deepEqual(leaked.body.previous_keys, [], 'the old key serves no more');
    assert.equal((await firstRender(widget.key)).body.error.code, 'revoked');
    for (const hours of ['25', '-1', 'a day']) {
      const res = await rest(OWNER, `/v1/widgets/${widget.id}/rotate?grace_hours=${encodeURIComponent(hours)}`, 'POST');
      assert.equal(res.status, 422, hours);
      assert.match(res.body.error.fields.grace_hours, /from 0 .* to 24/);
    }
    const [a, b] = await Promise.all([
      rest(OWNER, `/v1/widgets/${widget.id}/rotate`, 'POST'),
      rest(OWNER, `/v1/widgets/${widget.id}/rotate`, 'POST'),
    ]);
    assert.deepEqual([a.status, b.status], [200, 200]);
    const now = (await rest(OWNER, `/v1/widgets/${widget.id}`)).body;
    assert.equal(new Set([a.body.key, b.body.key, now.key]).size, 2, 'the later one holds the key in force');
    assert.equal(now.previous_keys.length, 2, 'each rotation retired the key before it');
    for (const key of [now.key, ...now.previous_keys.map((k: Json) => k.key)])
      assert.equal((await firstRender(key)).status, 200, key);
  });

  test('a member sees the widgets and the team and changes nothing; a lecturer sees neither; another company’s widget is not found', async () => {
    const widget = await created();
    assert.equal((await rest(MEMBER, '/v1/widgets')).status, 200);
    assert.equal((await rest(MEMBER, `/v1/widgets/${widget.id}`)).status, 200);
    for (const [method, path, body] of [
      ['POST', '/v1/widgets', { type: 'calendar', origins: [SITE] }],
      ['PATCH', `/v1/widgets/${widget.id}`, { enabled: false }],
      ['POST', `/v1/widgets/${widget.id}/rotate`, undefined],
    ] as const) {
      const res = await rest(MEMBER, path, method, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.error.code, 'role-not-allowed');
      assert.match(res.body.error.message, /Only an owner/);
    }
    assert.equal((await rest(OWNER, `/v1/widgets/${widget.id}`)).body.enabled, true, 'nothing changed');
    for (const path of ['/v1/widgets', `/v1/widgets/${widget.id}`, '/v1/team']) {
      const res = await rest(LECTURER, path);
      assert.equal(res.status, 403, path);
      assert.match(res.body.error.message, /Lecturers/);
    }
    const globex = await svc.json('/v1/widgets/1', {
      headers: { 'X-SERVICE-API-KEY': 'rk_demo_acme', 'X-SERVICE-TOKEN': await tokenOf(OWNER), 'X-SERVICE-COMPANY': '2' },
    });
    // Olivia is a member of Globex: Acme's widget is no widget of Globex's.
    assert.equal(globex.status, 404);
    assert.equal(globex.body.error.code, 'not-found');
  });

  test('the team: everyone with a role in the company, owners first', async () => {
    const res = await rest(MEMBER, '/v1/team');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.company, { id: 1, name: 'Acme Academy', role: 'member' });
    const roles = res.body.team.map((p: Json) => [p.email, p.role]);
    assert.deepEqual(roles[0], [OWNER, 'owner']);
    assert.ok(roles.some(([email, role]: string[]) => email === LECTURER && role === 'lecturer'));
    assert.ok(res.body.team.every((p: Json) => Number.isInteger(p.id) && p.first_name && p.last_name));
  });
});
