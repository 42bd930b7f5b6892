import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  participantToken,
  registrationBody,
  startTestService,
  uniqueKey,
  writeHeaders,
  type Json,
  type TestService,
  restToken,
} from './helpers.ts';

let svc: TestService;
let doc: Json;
before(async () => {
  svc = await startTestService();
  const res = await svc.json('/openapi.json');
  assert.equal(res.status, 200);
  doc = res.body;
});
after(() => svc.close());

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function resolve(pointer: string): Json {
  assert.ok(pointer.startsWith('#/'), pointer);
  return pointer
    .slice(2)
    .split('/')
    .reduce((node: Json, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

/** Just enough JSON Schema to tell whether the document still describes the real answers. */
function check(schema: Json, value: unknown, path = '$'): string[] {
  if (schema.$ref) return check(resolve(schema.$ref), value, path);
  const errors: string[] = [];
  if (schema.allOf) for (const s of schema.allOf) errors.push(...check(s, value, path));
  if (schema.oneOf) {
    const passing = schema.oneOf.filter((s: Json) => check(s, value, path).length === 0).length;
    if (passing !== 1) errors.push(`${path}: matches ${passing} of oneOf`);
  }
  if (schema.anyOf && !schema.anyOf.some((s: Json) => check(s, value, path).length === 0)) {
    errors.push(`${path}: matches none of anyOf`);
  }
  if ('const' in schema && value !== schema.const) errors.push(`${path}: not ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${path}: ${JSON.stringify(value)} not in enum`);
  if (schema.type) {
    const types = [schema.type].flat();
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
    const ok = types.some((t: string) => t === actual || (t === 'number' && actual === 'integer'));
    if (!ok) return [...errors, `${path}: ${actual}, expected ${types.join('|')}`];
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in obj)) errors.push(`${path}.${name}: missing`);
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      if (name in obj) errors.push(...check(sub, obj[name], `${path}.${name}`));
    }
    if (schema.additionalProperties === false) {
      for (const name of Object.keys(obj)) if (!(name in (schema.properties ?? {}))) errors.push(`${path}.${name}: not allowed`);
    }
  }
  if (Array.isArray(value) && schema.items)
    value.forEach((item, i) => errors.push(...check(schema.items, item, `${path}[${i}]`)));
  return errors;
}

function documentedResponse(path: string, method: string, status: number): Json {
  let response = doc.paths[path][method].responses[String(status)];
  assert.ok(response, `${method.toUpperCase()} ${path} documents ${status}`);
  if (response.$ref) response = resolve(response.$ref);
  return response;
}

/** A JSON answer must match its schema; any other (an iCalendar file, a page) its documented media type. */
function assertDescribes(path: string, method: string, res: { status: number; headers: Headers; body: unknown }) {
  const response = documentedResponse(path, method, res.status);
  if (!response.content) {
    assert.equal(res.body, '', `${method.toUpperCase()} ${path} ${res.status} has no body`);
    return;
  }
  const type = res.headers.get('content-type')?.split(';')[0];
  if (type !== undefined && type !== 'application/json') {
    assert.ok(response.content?.[type], `${method.toUpperCase()} ${path} ${res.status} documents ${type}`);
    return;
  }
  const errors = check(response.content['application/json'].schema, res.body);
  assert.deepEqual(errors, [], `${method.toUpperCase()} ${path} ${res.status}`);
}

/** Any answer: JSON parsed, anything else as text. */
async function call(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: Json }> {
  const res = await svc.fetch(path, { redirect: 'manual', ...init });
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('application/json');
  return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : text };
}

describe('GET /openapi.json', () => {
  test('is OpenAPI 3.1 with both APIs, every $ref resolving, unique operation ids', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.servers[0].url, svc.publicUrl);
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      '/dev/clock',
      '/dev/login-links',
      '/dev/outbox',
      '/dev/pay/{payment}',
      '/dev/pay/{payment}/cancel',
      '/dev/pay/{payment}/pay',
      '/dev/reset',
      '/dev/tiles/{z}/{x}/{y}.png',
      '/dev/tokens/invalidate',
      '/dev/widget-keys',
      '/dev/widget-keys/check',
      '/media/videos/{id}/{file}',
      '/v1/courses',
      '/v1/login',
      '/v1/session',
      '/v1/team',
      '/v1/user',
      '/v1/verify',
      '/v1/widgets',
      '/v1/widgets/check',
      '/v1/widgets/{id}',
      '/v1/widgets/{id}/rotate',
      '/widget-api/v1/calendar',
      '/widget-api/v1/calendar.ics',
      '/widget-api/v1/checkout/quote',
      '/widget-api/v1/contact-messages',
      '/widget-api/v1/courses',
      '/widget-api/v1/orders',
      '/widget-api/v1/orders/{id}',
      '/widget-api/v1/orders/{id}/cancel',
      '/widget-api/v1/participant/email/confirm',
      '/widget-api/v1/participant/login',
      '/widget-api/v1/participant/logout',
      '/widget-api/v1/participant/me',
      '/widget-api/v1/participant/profile',
      '/widget-api/v1/participant/registrations/{id}/cancel',
      '/widget-api/v1/participant/verify',
      '/widget-api/v1/registrations',
      '/widget-api/v1/videos/{id}/media',
      '/widget-api/v1/widget',
    ]);
    const refs: string[] = [];
    const walk = (node: Json) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        if (typeof node.$ref === 'string') refs.push(node.$ref);
        Object.values(node).forEach(walk);
      }
    };
    walk(doc);
    assert.ok(refs.length > 20);
    for (const r of refs) assert.ok(resolve(r) !== undefined, `${r} resolves`);

    const ids = Object.values(doc.paths).flatMap((item: Json) => METHODS.filter((m) => item[m]).map((m) => item[m].operationId));
    assert.equal(new Set(ids).size, ids.length);
  });

  test('every documented operation exists in the service', async () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const method of METHODS.filter((m) => item[m])) {
        // A path parameter with an example is filled in (a file's path must name a real file).
        const example = (name: string) =>
          item[method].parameters?.find((p: Json) => p.in === 'path' && p.name === name)?.schema?.examples?.[0];
        const url = path.replace(/\{(\w+)\}/g, (whole, name: string) => example(name) ?? whole);
        const res = await svc.fetch(url, { method: method.toUpperCase(), redirect: 'manual' });
        const type = res.headers.get('content-type')?.split(';')[0];
        const body = type === 'application/json' ? ((await res.json()) as Json) : undefined;
        // A route of its own may answer 404 for the record its path names (no such payment), never the router's.
        const routerNotFound = res.status === 404 && body?.error?.code === 'not-found';
        assert.ok(res.status !== 405 && !routerNotFound, `${method.toUpperCase()} ${url} answered ${res.status}`);
        if (body !== undefined) {
          assertDescribes(path, method, { status: res.status, headers: res.headers, body });
        } else {
          // A page or a file: its type is one the document names for this answer.
          const documented = Object.keys(item[method].responses[String(res.status)]?.content ?? {});
          assert.ok(documented.includes(type!), `${method.toUpperCase()} ${url}: ${type} is not in ${documented.join(', ')}`);
          await res.body?.cancel();
        }
      }
    }
  });

  test('documents the files of the video widget and the development tiles, with their media types', () => {
    const media = doc.paths['/media/videos/{id}/{file}'].get;
    assert.deepEqual(Object.keys(media.responses).sort(), ['200', '206', '403', '404']);
    assert.deepEqual(Object.keys(media.responses['200'].content).sort(), ['image/jpeg', 'text/vtt', 'video/webm']);
    assert.deepEqual(
      media.parameters.map((p: Json) => `${p.in} ${p.name}`),
      ['path id', 'path file', 'query expires', 'query signature'],
    );
    const tiles = doc.paths['/dev/tiles/{z}/{x}/{y}.png'].get;
    assert.deepEqual(Object.keys(tiles.responses['200'].content), ['image/png']);
    assert.deepEqual(tiles.tags, ['Development']);
  });

  test('describes the refusals of the video files', async () => {
    for (const path of ['/media/videos/vid_ts_session_1/video.webm', '/media/videos/vid_nope/poster.jpg']) {
      const res = await svc.json(path);
      assertDescribes('/media/videos/{id}/{file}', 'get', res);
    }
  });

  test('describes the real answers of every operation', async () => {
    const widget = await svc.json('/widget-api/v1/widget?key=wk_demo_registration&type=registration');
    assertDescribes('/widget-api/v1/widget', 'get', widget);
    const profile = await svc.json('/widget-api/v1/widget?key=wk_demo_profile&type=profile');
    assertDescribes('/widget-api/v1/widget', 'get', profile);

    const post = (path: string, body: Json, headers: Record<string, string>) =>
      svc.json(path, { method: 'POST', headers, body: JSON.stringify(body) });
    const idem = uniqueKey();
    const reg = () =>
      post(
        '/widget-api/v1/registrations?key=wk_demo_registration',
        registrationBody({ email: 'doc@example.org' }),
        writeHeaders(idem),
      );
    assertDescribes('/widget-api/v1/registrations', 'post', await reg());
    assertDescribes(
      '/widget-api/v1/registrations',
      'post',
      await svc.json('/widget-api/v1/registrations?key=wk_demo_registration', {
        method: 'POST',
        headers: writeHeaders(uniqueKey()),
        body: JSON.stringify(registrationBody({ email: 'doc@example.org' })),
      }),
    );

    const rest = { 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': 'rk_demo_acme' };
    const login = await post(
      '/v1/login',
      { login: 'olivia.owner@acme.example', verification_method: 'client_secret', client_secret: 'cs_demo_acme_secret' },
      rest,
    );
    assertDescribes('/v1/login', 'post', login);
    const emailLogin = await post('/v1/login', { login: 'lena.lecturer@acme.example', verification_method: 'email' }, rest);
    assertDescribes('/v1/login', 'post', emailLogin);
    const pin = await svc.lastPin('lena.lecturer@acme.example');
    const verified = await post('/v1/verify', { action: 'validate_pin', email: 'lena.lecturer@acme.example', pin }, rest);
    assertDescribes('/v1/verify', 'post', verified);
    assertDescribes(
      '/v1/verify',
      'post',
      await post('/v1/verify', { action: 'validate_pin', email: 'x@example.org', pin: '000000' }, rest),
    );

    const owner = { 'X-SERVICE-API-KEY': 'rk_demo_acme', 'X-SERVICE-TOKEN': login.body.token };
    assertDescribes('/v1/user', 'get', await svc.json('/v1/user', { headers: owner }));
    for (const headers of [
      { ...owner, 'X-SERVICE-COMPANY': '1' },
      { ...owner, 'X-SERVICE-COMPANY': '2' },
      { 'X-SERVICE-API-KEY': 'rk_demo_acme', 'X-SERVICE-TOKEN': verified.body.token, 'X-SERVICE-COMPANY': '1' },
    ]) {
      const res = await svc.json('/v1/courses?per_page=3', { headers });
      assert.equal(res.status, 200);
      assertDescribes('/v1/courses', 'get', res);
    }
    assertDescribes(
      '/v1/courses',
      'get',
      await svc.json('/v1/courses?page=0', { headers: { ...owner, 'X-SERVICE-COMPANY': '1' } }),
    );
  });

  test('describes the real answers of the video and map widgets', async () => {
    for (const path of ['wk_demo_video&type=video', 'wk_demo_video&type=video&video=vid_nope', 'wk_demo_map&type=map']) {
      assertDescribes('/widget-api/v1/widget', 'get', await svc.json(`/widget-api/v1/widget?key=${path}`));
    }
    const token = await participantToken(svc, 'grace@example.org');
    const media = (id: string, headers: Record<string, string>) =>
      svc.json(`/widget-api/v1/videos/${id}/media?key=wk_demo_video`, { method: 'POST', headers });
    for (const [id, headers] of [
      ['vid_ts_session_1', { 'X-Service-Token': token }],
      ['vid_welcome', { 'X-Service-Token': token }],
      ['vid_nope', { 'X-Service-Token': token }],
      ['vid_ts_session_1', {}],
    ] as const) {
      assertDescribes('/widget-api/v1/videos/{id}/media', 'post', await media(id, headers));
    }
  });

  test('describes the real answers of the calendar and its file', async () => {
    const C = '/widget-api/v1/calendar';
    let month = await call(`${C}?key=wk_demo_calendar`);
    // At a month's end the service's month may hold no classes any more: then the next one that does.
    if (!month.body.classes.length) month = await call(`${C}?key=wk_demo_calendar&month=${month.body.next_month}`);
    assert.ok(month.body.classes.length > 0);
    assertDescribes(C, 'get', month);
    const empty = await call(`${C}?key=wk_demo_calendar&month=2100-12`);
    assert.equal(empty.body.next_month, null);
    assertDescribes(C, 'get', empty);
    assertDescribes(C, 'get', await call(`${C}?key=wk_demo_calendar&month=13`));
    assertDescribes(C, 'get', await call(`${C}?key=wk_demo_calendar&course=crs_nope`));
    assertDescribes(C, 'get', await call(`${C}?key=wk_demo_registration`));
    const file = await call(`${C}.ics?key=wk_demo_calendar&classes=cls_web_1`);
    assert.equal(file.status, 200);
    assertDescribes(`${C}.ics`, 'get', file);
    assertDescribes(`${C}.ics`, 'get', await call(`${C}.ics?key=wk_demo_calendar&classes=cls_nope`));
  });

  test('describes the real answers of the checkout, the order and the payment pages', async () => {
    const post = (path: string, body: Json, headers: Record<string, string> = {}) =>
      call(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const Q = '/widget-api/v1/checkout/quote';
    const items = [
      { class_id: 'cls_ts_2', seats: 2 },
      { class_id: 'cls_lead_1', seats: 1 },
      { class_id: 'cls_nope', seats: 1 },
    ];
    const quoted = await post(`${Q}?key=wk_demo_checkout`, { items, voucher: 'TEAM20' });
    assert.equal(quoted.status, 200);
    assertDescribes(Q, 'post', quoted);
    assertDescribes(Q, 'post', await post(`${Q}?key=wk_demo_checkout`, { items: [{ class_id: 'cls_open_1', seats: 1 }] }));
    assertDescribes(Q, 'post', await post(`${Q}?key=wk_demo_checkout`, { items: [] }));

    const O = '/widget-api/v1/orders';
    const attendees = (n: number) => Array.from({ length: n }, () => ({ first_name: 'Ada', last_name: 'Lovelace' }));
    const body = (classId: string, seats: number, extra: Json = {}) => ({
      items: [{ class_id: classId, seats, attendees: attendees(seats) }],
      buyer: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'doc.buyer@example.org',
        address: { line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' },
      },
      payment_method: 'card',
      return_url: 'http://localhost:5173/checkout',
      consent: true,
      ...extra,
    });
    const idem = uniqueKey();
    const placed = await post(`${O}?key=wk_demo_checkout`, body('cls_ts_2', 2), writeHeaders(idem));
    assert.equal(placed.status, 201);
    assertDescribes(O, 'post', placed);
    assertDescribes(O, 'post', await post(`${O}?key=wk_demo_checkout`, body('cls_ts_2', 2), writeHeaders(idem)));
    assertDescribes(O, 'post', await post(`${O}?key=wk_demo_checkout`, body('cls_lead_1', 1), writeHeaders(uniqueKey())));
    assertDescribes(
      O,
      'post',
      await post(
        `${O}?key=wk_demo_checkout`,
        body('cls_ts_2', 1, { expected_total: { amount: 1, currency: 'EUR' } }),
        writeHeaders(uniqueKey()),
      ),
    );
    assertDescribes(
      O,
      'post',
      await post(`${O}?key=wk_demo_checkout`, body('cls_ts_2', 1, { voucher: 'SPRING25' }), writeHeaders(uniqueKey())),
    );
    const free = await post(
      `${O}?key=wk_demo_checkout`,
      body('cls_open_1', 1, { payment_method: null }),
      writeHeaders(uniqueKey()),
    );
    assert.equal(free.status, 201);
    assertDescribes(O, 'post', free);

    const R = '/widget-api/v1/orders/{id}';
    const { order, token } = placed.body;
    const read = (headers: Record<string, string>) => call(`${O}/${order.id}?key=wk_demo_checkout`, { headers });
    assertDescribes(R, 'get', await read({ 'X-Order-Token': token }));
    assertDescribes(R, 'get', await read({}));

    const page = new URL(order.payment.redirect_url).pathname;
    assertDescribes('/dev/pay/{payment}', 'get', await call(page));
    assertDescribes('/dev/pay/{payment}/pay', 'post', await call(`${page}/pay`, { method: 'POST' }));
    assertDescribes('/dev/pay/{payment}/cancel', 'post', await call(`${page}/cancel`, { method: 'POST' }));
    const after = await read({ 'X-Order-Token': token });
    assert.equal(after.body.order.status, 'confirmed');
    assertDescribes(R, 'get', after);

    // Cancelling it now: 409 (it is paid); without its token: 401; a pending one: 200.
    const C = '/widget-api/v1/orders/{id}/cancel';
    const cancel = (id: string, headers: Record<string, string>) =>
      call(`${O}/${id}/cancel?key=wk_demo_checkout`, { method: 'POST', headers });
    assertDescribes(C, 'post', await cancel(order.id, { 'X-Order-Token': token }));
    assertDescribes(C, 'post', await cancel(order.id, {}));
    const pending = (await post(`${O}?key=wk_demo_checkout`, body('cls_ts_2', 1), writeHeaders(uniqueKey()))).body;
    const cancelled = await cancel(pending.order.id, { 'X-Order-Token': pending.token });
    assert.equal(cancelled.status, 200);
    assertDescribes(C, 'post', cancelled);
  });

  test('describes the real answers of the contact widget', async () => {
    const widget = await svc.json('/widget-api/v1/widget?key=wk_demo_contact&type=contact');
    assert.ok(widget.body.form.token);
    assertDescribes('/widget-api/v1/widget', 'get', widget);
    const send = (body: Json, idem = uniqueKey()) =>
      svc.json('/widget-api/v1/contact-messages?key=wk_demo_contact', {
        method: 'POST',
        headers: writeHeaders(idem),
        body: JSON.stringify(body),
      });
    const body = {
      name: 'Ada',
      email: 'ada@example.org',
      subject: 'Hello',
      topic: 'Programmes',
      message: 'Which programme suits a beginner?',
      consent: true,
      website: '',
      form_token: widget.body.form.token,
    };
    const idem = uniqueKey();
    assertDescribes('/widget-api/v1/contact-messages', 'post', await send(body, idem));
    await svc.advance(3);
    const sent = await send(body, idem);
    assert.equal(sent.status, 201);
    assertDescribes('/widget-api/v1/contact-messages', 'post', sent);
    assertDescribes('/widget-api/v1/contact-messages', 'post', await send(body, idem));
    assertDescribes('/widget-api/v1/contact-messages', 'post', await send({ ...body, form_token: 'forged' }));
    const used = await send(body);
    assert.equal(used.body.error.code, 'form-token-used');
    assertDescribes('/widget-api/v1/contact-messages', 'post', used);
    const tooFast = await send({ ...body, form_token: sent.body.form.token });
    assert.equal(tooFast.body.error.code, 'too-fast');
    assertDescribes('/widget-api/v1/contact-messages', 'post', tooFast);
  });

  test('describes a rate-limited write', async () => {
    let last: Json;
    for (let i = 0; i < 11; i++) {
      last = await svc.json('/widget-api/v1/registrations?key=wk_demo_registration', {
        method: 'POST',
        headers: writeHeaders(uniqueKey()),
        body: JSON.stringify(registrationBody({ class_id: 'cls_web_2' })),
      });
    }
    assert.equal(last.status, 429);
    assertDescribes('/widget-api/v1/registrations', 'post', last);
  });

  test('describes the real answers of the participant calls', async () => {
    const P = '/widget-api/v1/participant';
    const call = (path: string, body?: Json, headers: Record<string, string> = {}) =>
      svc.json(`${P}/${path}?key=wk_demo_profile`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const email = 'ada@example.org';
    const login = await call('login', { email, return_url: 'http://localhost:5173/account' });
    assertDescribes(`${P}/login`, 'post', login);
    assertDescribes(`${P}/login`, 'post', await call('login', { email, return_url: 'https://evil.example/' }));
    const pin = await svc.lastPin(email);
    const wrong = await call('verify', { email, pin: pin === '000000' ? '000001' : '000000' });
    assert.equal(wrong.body.error.attempts_left, 4);
    assertDescribes(`${P}/verify`, 'post', wrong);
    const verified = await call('verify', { email, pin });
    assertDescribes(`${P}/verify`, 'post', verified);
    const token = { 'X-Service-Token': verified.body.token };

    const me = await call('me', undefined, token);
    assert.equal(me.status, 200);
    assertDescribes(`${P}/me`, 'post', me);
    assertDescribes(`${P}/me`, 'post', await call('me', undefined, { 'X-Service-Token': 'ptok_nope' }));
    const profile = await call('profile', { phone: null }, { ...token, 'Idempotency-Key': uniqueKey() });
    assert.equal(profile.status, 200);
    assertDescribes(`${P}/profile`, 'post', profile);
    const change = await call(
      'profile',
      { email: 'countess@example.org', return_url: 'http://localhost:5173/account' },
      { ...token, 'Idempotency-Key': uniqueKey() },
    );
    assert.equal(change.body.email_change.email, 'countess@example.org');
    assertDescribes(`${P}/profile`, 'post', change);
    assertDescribes(`${P}/me`, 'post', await call('me', undefined, token));
    const changePin = await svc.lastPin('countess@example.org');
    const wrongChange = await call('email/confirm', { pin: changePin === '000000' ? '000001' : '000000' }, token);
    assert.equal(wrongChange.body.error.code, 'pin-wrong');
    assertDescribes(`${P}/email/confirm`, 'post', wrongChange);
    const confirmed = await call('email/confirm', { pin: changePin }, token);
    assert.equal(confirmed.status, 200);
    assertDescribes(`${P}/email/confirm`, 'post', confirmed);
    const upcoming = me.body.registrations.find((reg: Json) => reg.cancellable);
    const cancelled = await call(`registrations/${upcoming.id}/cancel`, undefined, { ...token, 'Idempotency-Key': uniqueKey() });
    assert.equal(cancelled.status, 200);
    assertDescribes(`${P}/registrations/{id}/cancel`, 'post', cancelled);
    const past = me.body.registrations.find((reg: Json) => !reg.cancellable);
    assertDescribes(
      `${P}/registrations/{id}/cancel`,
      'post',
      await call(`registrations/${past.id}/cancel`, undefined, { ...token, 'Idempotency-Key': uniqueKey() }),
    );
    assertDescribes(
      `${P}/registrations/{id}/cancel`,
      'post',
      await call('registrations/reg_nope/cancel', undefined, { ...token, 'Idempotency-Key': uniqueKey() }),
    );
    const logout = await svc.fetch(`${P}/logout?key=wk_demo_profile`, { method: 'POST', headers: token });
    assert.equal(logout.status, 204);
    assert.ok(doc.paths[`${P}/logout`].post.responses['204']);
  });
});

describe('the OpenAPI document', () => {
  test('says the REST API is for servers and same-origin tools, and its key stays off browsers', () => {
    const rest = doc.tags.find((t: Json) => t.name === 'REST API');
    assert.match(rest.description, /servers and same-origin pages only \(no CORS; never ship the API key to a browser\)/);
    assert.match(doc.info.description, /The REST API is for servers and same-origin tools .* answers no CORS/);
    assert.match(doc.info.description, /never ship them to browsers/);
  });

  test('is valid OpenAPI 3.1 by an independent validator', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const validator = new Validator();
    const result = await validator.validate(doc);
    assert.equal(validator.version, '3.1');
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
  });
});

describe('the document and the validation cannot drift apart', () => {
  /** How to reach each operation that takes a JSON body, past its key, token and header checks. */
  const contexts: Record<string, { key?: string; rest?: boolean; app?: boolean; token?: boolean; owner?: boolean }> = {
    '/v1/login': { rest: true },
    '/v1/session': { app: true },
    '/v1/verify': { rest: true },
    // An owner of company 1, and its widget 1 (the seed's first).
    '/v1/widgets': { rest: true, owner: true },
    '/v1/widgets/{id}': { rest: true, owner: true },
    '/widget-api/v1/registrations': { key: 'wk_demo_registration' },
    '/widget-api/v1/contact-messages': { key: 'wk_demo_contact' },
    '/widget-api/v1/checkout/quote': { key: 'wk_demo_checkout' },
    '/widget-api/v1/orders': { key: 'wk_demo_checkout' },
    '/widget-api/v1/participant/login': { key: 'wk_demo_profile' },
    '/widget-api/v1/participant/verify': { key: 'wk_demo_profile' },
    '/widget-api/v1/participant/profile': { key: 'wk_demo_profile', token: true },
    '/widget-api/v1/participant/email/confirm': { key: 'wk_demo_profile', token: true },
    '/dev/clock': {},
    '/dev/tokens/invalidate': {},
    '/dev/login-links': {},
    '/dev/widget-keys': {},
  };

  /** A property's own schema: a nullable one (`anyOf` with null) by its other member. */
  const own = (schema: Json): Json => {
    const s = schema.$ref ? resolve(schema.$ref) : schema;
    return s.anyOf ? own(s.anyOf.find((m: Json) => m.type !== 'null')) : s;
  };
  const example = (schema: Json): unknown =>
    'const' in schema
      ? schema.const
      : (schema.examples?.[0] ??
        schema.enum?.[0] ??
        ({ string: 'text', integer: 1, number: 1, boolean: true } as Json)[schema.type]);
  const wrongType = (schema: Json): unknown => (schema.type === 'string' || schema.enum ? 12345 : 'not the right type');

  test('for every JSON body it describes: a missing required field, an unknown field, a string over its maximum and a wrong type are 422 naming the field', async () => {
    await svc.fetch('/dev/reset', { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    const P = '/widget-api/v1/participant';
    const login = await svc.json(`${P}/login?key=wk_demo_profile`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.org', return_url: 'http://localhost:5173/account' }),
    });
    assert.equal(login.status, 202);
    const pin = await svc.lastPin('ada@example.org');
    const { token } = (
      await svc.json(`${P}/verify?key=wk_demo_profile`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.org', pin }),
      })
    ).body;

    const ownerToken = await restToken(svc.url);

    const operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]?.requestBody).map((method) => ({ path, method, operation: item[method] })),
    );
    assert.deepEqual(
      operations.map((o) => o.path).sort(),
      Object.keys(contexts).sort(),
      'every operation with a body is tried here',
    );

    let tried = 0;
    for (const { path, method, operation } of operations) {
      const context = contexts[path]!;
      const schema = resolve(operation.requestBody.content['application/json'].schema.$ref);
      const properties = Object.entries(schema.properties as Record<string, Json>).map(([name, s]) => ({ name, schema: own(s) }));
      const valid = Object.fromEntries(properties.map(({ name, schema: s }) => [name, example(s)]));
      const send = (body: Json) =>
        svc.json(`${path.replace('{id}', '1')}${context.key ? `?key=${context.key}` : ''}`, {
          method: method.toUpperCase(),
          headers: {
            'Content-Type': 'application/json',
            'Idempotency-Key': uniqueKey(),
            Origin: 'http://localhost:5173',
            ...(context.rest ? { 'X-SERVICE-API-KEY': 'rk_demo_acme' } : {}),
            ...(context.app ? { 'X-SERVICE-API-KEY': 'service-app' } : {}),
            ...(context.token ? { 'X-Service-Token': token } : {}),
            ...(context.owner ? { 'X-SERVICE-TOKEN': ownerToken, 'X-SERVICE-COMPANY': '1' } : {}),
          },
          body: JSON.stringify(body),
        });
      const expectFault = async (body: Json, field: string, what: string) => {
        const res = await send(body);
        const label = `${method.toUpperCase()} ${path}: ${what}`;
        assert.equal(res.status, 422, `${label}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'validation', label);
        assert.ok(field in res.body.error.fields, `${label}: names ${field} in ${JSON.stringify(res.body.error.fields)}`);
        assert.ok(res.body.error.fields[field].length > 10, `${label}: says how to fix it`);
        tried += 1;
      };

      for (const name of schema.required ?? []) {
        const { [name]: _dropped, ...body } = valid;
        await expectFault(body, name, `without ${name}`);
      }
      await expectFault({ ...valid, unknown_field: 1 }, 'unknown_field', 'an unknown field');
      for (const { name, schema: s } of properties) {
        if (s.maxLength !== undefined)
          await expectFault({ ...valid, [name]: 'x'.repeat(s.maxLength + 1) }, name, `${name} over ${s.maxLength}`);
        await expectFault({ ...valid, [name]: wrongType(s) }, name, `${name} of a wrong type`);
      }
    }
    assert.ok(tried > 60, `${tried} faults tried`);
  });

  test('without development mode, the document has no /dev paths', async () => {
    const prod = await startTestService({ dev: false });
    try {
      const doc = (await prod.json('/openapi.json')).body;
      const paths = Object.keys(doc.paths);
      assert.ok(paths.length > 10);
      assert.deepEqual(
        paths.filter((p) => p.startsWith('/dev/')),
        [],
      );
      assert.deepEqual(
        Object.keys(doc.components.schemas).filter((name) => name.startsWith('Dev')),
        [],
      );
      assert.ok(!JSON.stringify(doc).includes('_demo_'), 'no example names a demo key or secret');
    } finally {
      await prod.close();
    }
  });
});
