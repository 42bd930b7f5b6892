import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { openTestCompany, otherPin, rawRequest, startTestService, useTestService, type Json } from './helpers.ts';

const API_KEY = 'rk_demo_acme';
const SECRET = 'cs_demo_acme_secret';
const OWNER = 'olivia.owner@acme.example';
const MEMBER = 'max.member@acme.example';
const LECTURER = 'lena.lecturer@acme.example';

const svc = useTestService();

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  svc.postJson(path, body, { 'X-SERVICE-API-KEY': API_KEY, ...headers });
const get = (path: string, headers: Record<string, string>) => svc.json(path, { headers });

async function tokenFor(email: string, apiKey = API_KEY, secret = SECRET): Promise<string> {
  const res = await post(
    '/v1/login',
    { login: email, verification_method: 'client_secret', client_secret: secret },
    { 'X-SERVICE-API-KEY': apiKey },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.token;
}
const auth = (token: string, company?: number | string): Record<string, string> => ({
  'X-SERVICE-API-KEY': API_KEY,
  'X-SERVICE-TOKEN': token,
  ...(company !== undefined ? { 'X-SERVICE-COMPANY': String(company) } : {}),
});

describe('POST /v1/login', () => {
  test('client_secret: the token in the answer, and GET /v1/user answers the exact shape', async () => {
    const token = await tokenFor(OWNER);
    assert.match(token, /^tok_[A-Za-z0-9_-]{43}$/, '256 random bits');
    const { status, body } = await get('/v1/user', auth(token));
    assert.equal(status, 200);
    assert.deepEqual(body, {
      user_valid: true,
      user: {
        id: 101,
        first_name: 'Olivia',
        last_name: 'Owner',
        email: OWNER,
        companies: [
          { id: 1, name: 'Acme Academy', role: 'owner' },
          { id: 2, name: 'Globex Institute', role: 'member' },
        ],
      },
      app: { application_id: 201, company_id: 1, type: 'application' },
    });
  });

  test('tokens are stored only as a hash', async () => {
    const token = await tokenFor(OWNER);
    const hash = createHash('sha256').update(token).digest('hex');
    assert.equal(await svc.count("SELECT count(*) FROM sign_in_tokens WHERE audience = 'user' AND hash = ?", hash), 1);
    assert.equal(
      await svc.count("SELECT count(*) FROM sign_in_tokens WHERE hash = ? OR email LIKE '%' || ? || '%'", token, token),
      0,
    );
  });

  test('email: one email with a link whose key is a working token, and a 6-digit PIN that gives another', async () => {
    const res = await post('/v1/login', { login: MEMBER, verification_method: 'email' });
    assert.equal(res.status, 200);
    assert.match(res.body.message, /PIN/);
    assert.equal(res.body.token, undefined);

    const emails = await svc.outbox(MEMBER);
    assert.equal(emails.length, 1);
    const mail = emails[0];
    assert.match(mail.pin, /^\d{6}$/);
    const link = new URL(mail.link);
    assert.equal(link.origin, svc.publicUrl);
    assert.equal(link.pathname, '/demo/login.html');
    const linkToken = link.searchParams.get('key')!;
    assert.ok(mail.text.includes(mail.link) && mail.text.includes(mail.pin));

    const viaLink = await get('/v1/user', auth(linkToken));
    assert.equal(viaLink.status, 200);
    assert.equal(viaLink.body.user.email, MEMBER);

    const verified = await post('/v1/verify', { action: 'validate_pin', email: MEMBER, pin: mail.pin });
    assert.equal(verified.status, 200);
    assert.equal(typeof verified.body.message, 'string');
    assert.notEqual(verified.body.token, linkToken);
    assert.equal((await get('/v1/user', auth(verified.body.token))).body.user.id, 102);
  });

  test('the emailed link is built from the configured public URL, never from the Host header', async () => {
    // In production, which answers any Host (a development service answers its own names only).
    const prod = await startTestService({ dev: false, publicUrl: 'https://booking.example.com' });
    try {
      // A company whose application's sign-in page is a path of the service's own address.
      const company = await openTestCompany(prod, { types: [] });
      await prod.exec("UPDATE applications SET login_link = '/login' WHERE id = ?", company.application_id);
      for (const host of ['attacker.example', 'attacker.example:8443', 'localhost:1']) {
        const res = await rawRequest(prod.url, {
          method: 'POST',
          path: '/v1/login',
          headers: { Host: host, 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': company.api_key },
          chunks: [JSON.stringify({ login: company.owner_email, verification_method: 'email' })],
        });
        assert.equal(res.status, 200, host);
        await prod.jobs.idle();
        const [mail] = await prod.rows<{ link: string }>(
          'SELECT link FROM outbox WHERE to_addr = ? ORDER BY id DESC LIMIT 1',
          company.owner_email,
        );
        assert.equal(new URL(mail!.link).origin, 'https://booking.example.com', host);
      }
      // The OpenAPI document's server too.
      const doc = await rawRequest(prod.url, { path: '/openapi.json', headers: { Host: 'attacker.example' } });
      assert.equal(JSON.parse(doc.body).servers[0].url, 'https://booking.example.com');
    } finally {
      await prod.close();
    }
  });

  test('with a configured public URL (behind a proxy, under a path), links start there', async () => {
    const behind = await startTestService({ publicUrl: 'https://booking.example.com/eu/' });
    try {
      await behind.json('/v1/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': API_KEY },
        body: JSON.stringify({ login: OWNER, verification_method: 'email' }),
      });
      const [mail] = await behind.outbox(OWNER);
      assert.match(mail.link, /^https:\/\/booking\.example\.com\/eu\/demo\/login\.html\?key=tok_/);
    } finally {
      await behind.close();
    }
  });

  test('an emailed link never used dies after an hour; used within the hour, it lives on', async () => {
    await post('/v1/login', { login: MEMBER, verification_method: 'email' });
    const unused = new URL((await svc.outbox(MEMBER))[0].link).searchParams.get('key')!;
    await post('/v1/login', { login: MEMBER, verification_method: 'email' });
    const used = new URL((await svc.outbox(MEMBER))[0].link).searchParams.get('key')!;
    await svc.advance(59 * 60);
    assert.equal((await get('/v1/user', auth(used))).status, 200);
    await svc.advance(2 * 60);
    const dead = await get('/v1/user', auth(unused));
    assert.equal(dead.status, 401);
    assert.equal(dead.body.error.code, 'invalid-token');
    await svc.advance(397 * 24 * 3600);
    assert.equal((await get('/v1/user', auth(used))).status, 200, 'long-lived once used');
    assert.equal((await get('/v1/user', auth(unused))).status, 401);
  });

  test('the answer goes out before the email work is done, for a user and a stranger alike', async () => {
    svc.jobs.hold();
    try {
      const before = await svc.count('SELECT count(*) FROM outbox');
      const user = await post('/v1/login', { login: OWNER, verification_method: 'email' });
      const stranger = await post('/v1/login', { login: 'nobody@acme.example', verification_method: 'email' });
      assert.deepEqual(user.body, stranger.body);
      assert.equal(await svc.count('SELECT count(*) FROM outbox'), before, 'nothing sent yet');
      assert.equal(await svc.count("SELECT count(*) FROM sign_in_tokens WHERE audience = 'user'"), 0, 'no token issued yet');
      assert.equal(svc.jobs.pending, 2);
    } finally {
      await svc.jobs.release();
    }
    assert.ok((await svc.outbox(OWNER))[0]);
  });

  test("the emailed link opens the application's own page", async () => {
    const res = await post(
      '/v1/login',
      { login: 'gina.owner@globex.example', verification_method: 'email' },
      { 'X-SERVICE-API-KEY': 'rk_demo_globex' },
    );
    assert.equal(res.status, 200);
    const link = new URL((await svc.outbox('gina.owner@globex.example'))[0].link);
    assert.equal(link.pathname, '/demo/login.html');
    assert.equal(link.searchParams.get('app'), '202');
    const viaLink = await svc.json('/v1/user', {
      headers: { 'X-SERVICE-API-KEY': 'rk_demo_globex', 'X-SERVICE-TOKEN': link.searchParams.get('key')! },
    });
    assert.equal(viaLink.body.user.id, 105);
    assert.deepEqual(viaLink.body.app, { application_id: 202, company_id: 2, type: 'application' });
  });

  test('an email that is not a valid user of the application gets the same answer, and no email', async () => {
    const known = await post('/v1/login', { login: OWNER, verification_method: 'email' });
    for (const [login, apiKey] of [
      ['nobody@acme.example', API_KEY],
      ['victor.disabled@acme.example', API_KEY], // disabled
      [LECTURER, 'rk_demo_globex'], // no role in a company of that application
    ]) {
      const res = await post('/v1/login', { login, verification_method: 'email' }, { 'X-SERVICE-API-KEY': apiKey! });
      assert.equal(res.status, 200, login);
      assert.deepEqual(res.body, known.body, login);
      assert.equal((await svc.outbox(login!))[0], undefined, login);
    }
  });

  test('client_secret: a wrong secret, or a login that is no valid user, is 401 invalid-credentials', async () => {
    for (const [login, secret] of [
      [OWNER, 'wrong'],
      [OWNER, 'cs_demo_globex_secret'],
      ['nobody@acme.example', SECRET],
      ['victor.disabled@acme.example', SECRET],
    ]) {
      const res = await post('/v1/login', { login, verification_method: 'client_secret', client_secret: secret });
      assert.equal(res.status, 401, `${login} ${secret}`);
      assert.equal(res.body.error.code, 'invalid-credentials');
      assert.equal(res.body.error.message, 'The login or the client secret is not valid.');
    }
  });

  test('bad bodies: malformed JSON 400, wrong type 415, over 16 KiB 413, wrong or unknown fields 422', async () => {
    assert.equal((await post('/v1/login', '{"login":')).body.error.code, 'bad-json');
    assert.equal((await post('/v1/login', '[1]')).status, 400);
    const form = await post('/v1/login', 'login=x', { 'Content-Type': 'application/x-www-form-urlencoded' });
    assert.equal(form.status, 415);
    assert.equal(form.body.error.code, 'unsupported-media-type');
    const big = await post('/v1/login', { login: OWNER, verification_method: 'email', pad: 'x'.repeat(17000) });
    assert.equal(big.status, 413);
    const chunked = await rawRequest(svc.url, {
      method: 'POST',
      path: '/v1/login',
      headers: { 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': API_KEY },
      chunks: ['{"login":"', 'x'.repeat(9000), 'x'.repeat(9000), '"}'],
    });
    assert.equal(chunked.status, 413);

    const cases: [Json, string[]][] = [
      [{}, ['login', 'verification_method']],
      [{ login: 42, verification_method: 'email' }, ['login']],
      [{ login: 'not-an-email', verification_method: 'email' }, ['login']],
      [{ login: OWNER, verification_method: 'sms' }, ['verification_method']],
      [{ login: OWNER, verification_method: 'client_secret' }, ['client_secret']],
      [{ login: OWNER, verification_method: 'client_secret', client_secret: 7 }, ['client_secret']],
      [{ login: OWNER, verification_method: 'email', client_secret: SECRET }, ['client_secret']],
      [{ login: OWNER, verification_method: 'email', remember: true }, ['remember']],
      [JSON.parse(`{"login":"${OWNER}","verification_method":"email","__proto__":{"isAdmin":true}}`), ['__proto__']],
    ];
    for (const [body, fields] of cases) {
      const res = await post('/v1/login', body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.error.code, 'validation');
      assert.deepEqual(Object.keys(res.body.error.fields).sort(), fields, JSON.stringify(body));
    }
  });
});

describe('POST /v1/verify: the PIN', () => {
  const loginByEmail = async (email = OWNER) => {
    assert.equal((await post('/v1/login', { login: email, verification_method: 'email' })).status, 200);
    return svc.lastPin(email);
  };
  const verify = (pin: string, email = OWNER) => post('/v1/verify', { action: 'validate_pin', email, pin });

  test('is valid for 5 minutes of the service clock', async () => {
    const early = await loginByEmail();
    await svc.advance(299);
    assert.equal((await verify(early)).status, 200);

    const late = await loginByEmail();
    await svc.advance(301);
    const res = await verify(late);
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'invalid-pin');
  });

  test('works once', async () => {
    const pin = await loginByEmail();
    assert.equal((await verify(pin)).status, 200);
    assert.equal((await verify(pin)).status, 401);
  });

  test('dies after 5 wrong tries', async () => {
    const pin = await loginByEmail();
    for (let i = 0; i < 5; i++) assert.equal((await verify(otherPin(pin))).body.error.code, 'invalid-pin');
    const res = await verify(pin);
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'invalid-pin');
  });

  test('four wrong tries still leave the right PIN working', async () => {
    const pin = await loginByEmail();
    for (let i = 0; i < 4; i++) await verify(otherPin(pin));
    assert.equal((await verify(pin)).status, 200);
  });

  test('a new login replaces the old PIN', async () => {
    const first = await loginByEmail();
    const second = await loginByEmail();
    if (first !== second) assert.equal((await verify(first)).status, 401);
    assert.equal((await verify(second)).status, 200);
  });

  test('belongs to the application that sent it', async () => {
    const pin = await loginByEmail();
    const other = await post(
      '/v1/verify',
      { action: 'validate_pin', email: OWNER, pin },
      { 'X-SERVICE-API-KEY': 'rk_demo_globex' },
    );
    assert.equal(other.status, 401);
    assert.equal((await verify(pin)).status, 200);
  });

  test('an unknown email is the same 401 as a wrong PIN', async () => {
    const res = await verify('123456', 'nobody@acme.example');
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'invalid-pin');
  });

  test('bad bodies are 422 with fields', async () => {
    const cases: [Json, string[]][] = [
      [{}, ['action', 'email', 'pin']],
      [{ action: 'validate_pin', email: OWNER, pin: 123456 }, ['pin']],
      [{ action: 'validate_pin', email: OWNER, pin: '12345' }, ['pin']],
      [{ action: 'validate_token', email: OWNER, pin: '123456' }, ['action']],
      [{ action: 'validate_pin', email: OWNER, pin: '123456', token: 'x' }, ['token']],
    ];
    for (const [body, fields] of cases) {
      const res = await post('/v1/verify', body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.deepEqual(Object.keys(res.body.error.fields).sort(), fields);
    }
    assert.equal((await post('/v1/verify', 'nope')).status, 400);
  });
});

describe('API keys and tokens', () => {
  test('a missing, wrong or widget key is 401 on every call; a widget key is told so', async () => {
    const token = await tokenFor(OWNER);
    for (const name of ['login', 'verify', 'user', 'courses']) {
      for (const [key, code, message] of [
        [undefined, 'missing-api-key', /X-SERVICE-API-KEY/],
        ['rk_wrong', 'invalid-api-key', /does not know this API key/],
        ['wk_demo_registration', 'invalid-api-key', /widget keys work only for the widgets/],
      ] as const) {
        const headers: Record<string, string> = {
          'Content-Type': 'application/json',
          'X-SERVICE-TOKEN': token,
          'X-SERVICE-COMPANY': '1',
        };
        if (key) headers['X-SERVICE-API-KEY'] = key;
        const isPost = name === 'login' || name === 'verify';
        const res = await svc.json(`/v1/${name}`, {
          method: isPost ? 'POST' : 'GET',
          headers,
          ...(isPost ? { body: JSON.stringify({ login: OWNER, verification_method: 'email' }) } : {}),
        });
        assert.equal(res.status, 401, `${name} with ${key}`);
        assert.equal(res.body.error.code, code);
        assert.match(res.body.error.message, message);
      }
    }
  });

  test('a missing or unknown token is 401', async () => {
    const missing = await get('/v1/user', { 'X-SERVICE-API-KEY': API_KEY });
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.code, 'missing-token');
    const unknown = await get('/v1/courses', auth('tok_nope', 1));
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.error.code, 'invalid-token');
  });

  test('a token works only with the API key of its application', async () => {
    const token = await tokenFor(OWNER);
    const res = await get('/v1/user', { ...auth(token), 'X-SERVICE-API-KEY': 'rk_demo_globex' });
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'invalid-token');
  });

  test('an invalidated token (by token or by email) is 401 on every call, and a new login works', async () => {
    const [a, b, other] = [await tokenFor(OWNER), await tokenFor(OWNER), await tokenFor(MEMBER)];
    const invalidate = (body: Json) =>
      svc.json('/dev/tokens/invalidate', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });

    assert.equal((await invalidate({ token: a })).body.invalidated, 1);
    for (const res of [await get('/v1/user', auth(a)), await get('/v1/courses', auth(a, 1))]) {
      assert.equal(res.status, 401);
      assert.equal(res.body.error.code, 'invalid-token');
    }
    assert.equal((await get('/v1/user', auth(b))).status, 200, 'other tokens of the user still work');

    assert.equal((await invalidate({ email: OWNER })).body.invalidated, 1);
    assert.equal((await get('/v1/user', auth(b))).status, 401);
    assert.equal((await get('/v1/courses', auth(b, 1))).status, 401);
    assert.equal((await get('/v1/user', auth(other))).status, 200, "another user's token still works");

    const fresh = await tokenFor(OWNER);
    assert.equal((await get('/v1/user', auth(fresh))).status, 200);
  });
});

describe('GET /v1/courses', () => {
  const classIds = (body: Json) => body.courses.flatMap((c: Json) => c.classes.map((cl: Json) => cl.id)).sort();

  test('owner: every programme and class of the company, with who booked them', async () => {
    const res = await get('/v1/courses', auth(await tokenFor(OWNER), 1));
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.company, { id: 1, name: 'Acme Academy', role: 'owner' });
    const ids = res.body.courses.map((c: Json) => c.id).sort();
    assert.deepEqual(ids, ['crs_data', 'crs_lead', 'crs_open', 'crs_sprint', 'crs_ts', 'crs_web']);
    assert.ok(classIds(res.body).includes('cls_web_past'), 'past classes too');
    const web1 = res.body.courses.find((c: Json) => c.id === 'crs_web').classes.find((cl: Json) => cl.id === 'cls_web_1');
    assert.equal(web1.seats_left, 5);
    assert.deepEqual(web1.registrations, { confirmed: 7, waitlisted: 0 });
    assert.equal(web1.participants.length, 7);
    assert.ok(web1.participants.some((p: Json) => p.email === 'grace@example.org'));
    assert.deepEqual(
      web1.lecturers.map((l: Json) => l.id),
      [103],
    );
  });

  test('member: every programme, numbers only (no participants)', async () => {
    const res = await get('/v1/courses', auth(await tokenFor(MEMBER), 1));
    assert.equal(res.status, 200);
    assert.equal(res.body.company.role, 'member');
    assert.equal(res.body.courses.length, 6);
    for (const cl of res.body.courses.flatMap((c: Json) => c.classes)) {
      assert.equal(cl.participants, undefined);
      assert.equal(typeof cl.registrations.confirmed, 'number');
    }
  });

  test('lecturer: only the classes they are assigned to, and only programmes that have one', async () => {
    const lena = await get('/v1/courses', auth(await tokenFor(LECTURER), 1));
    assert.equal(lena.status, 200);
    assert.equal(lena.body.company.role, 'lecturer');
    assert.deepEqual(lena.body.courses.map((c: Json) => c.id).sort(), ['crs_ts', 'crs_web']);
    assert.deepEqual(classIds(lena.body), ['cls_ts_2', 'cls_web_1', 'cls_web_2', 'cls_web_past']);
    assert.ok(lena.body.courses[0].classes[0].participants, 'a lecturer sees who attends their classes');
    assert.equal(lena.body.pagination.total, 2);

    const leo = await get('/v1/courses', auth(await tokenFor('leo.lecturer@acme.example'), 1));
    assert.deepEqual(classIds(leo.body), ['cls_lead_1', 'cls_lead_2', 'cls_lead_3']);
  });

  test('the company: a second one the user has a role in works; another, unknown or missing one does not', async () => {
    const owner = await tokenFor(OWNER);
    const globex = await get('/v1/courses', auth(owner, 2));
    assert.equal(globex.status, 200);
    assert.equal(globex.body.company.role, 'member');
    assert.ok(globex.body.courses.every((c: Json) => c.id.startsWith('crs_gx')));

    const member = await tokenFor(MEMBER);
    for (const company of [2, 999]) {
      const res = await get('/v1/courses', auth(member, company));
      assert.equal(res.status, 403, String(company));
      assert.equal(res.body.error.code, 'company-not-allowed');
    }
    const missing = await get('/v1/courses', auth(member));
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, 'missing-company');
  });

  test('X-SERVICE-COMPANY takes the integer id that GET /v1/user lists; anything else is 400 invalid-company, saying so', async () => {
    const owner = await tokenFor(OWNER);
    const { companies } = (await get('/v1/user', auth(owner))).body.user;
    for (const company of companies) {
      assert.ok(Number.isInteger(company.id));
      const res = await get('/v1/courses', auth(owner, company.id));
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.company, company);
    }
    for (const value of ['c_acme', '1.0', '-1', '0x1', '1 2', '01', '0', '99999999999999999999']) {
      const res = await get('/v1/courses', auth(owner, value));
      assert.equal(res.status, 400, value);
      assert.equal(res.body.error.code, 'invalid-company', value);
      assert.match(res.body.error.message, /X-SERVICE-COMPANY must be the id of a company, a whole number/);
    }
  });

  test('pagination: page and per_page, with totals; bad values are 422', async () => {
    const token = await tokenFor(OWNER);
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const res = await get(`/v1/courses?per_page=2&page=${page}`, auth(token, 1));
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.pagination, { page, per_page: 2, total: 6, total_pages: 3 });
      assert.equal(res.body.courses.length, 2);
      seen.push(...res.body.courses.map((c: Json) => c.id));
    }
    assert.equal(new Set(seen).size, 6, 'pages do not overlap');
    const beyond = await get('/v1/courses?per_page=2&page=4', auth(token, 1));
    assert.deepEqual(beyond.body.courses, []);
    const defaults = await get('/v1/courses', auth(token, 1));
    assert.deepEqual(defaults.body.pagination, { page: 1, per_page: 20, total: 6, total_pages: 1 });

    for (const query of ['page=0', 'page=-1', 'page=abc', 'page=1.5', 'per_page=0', 'per_page=101', 'per_page=']) {
      const res = await get(`/v1/courses?${query}`, auth(token, 1));
      assert.equal(res.status, 422, query);
      assert.equal(res.body.error.code, 'validation');
    }
    assert.equal((await get('/v1/courses?per_page=100', auth(token, 1))).status, 200);
  });
});

describe('rate limits', () => {
  test('login: 5 per email in 10 minutes, then 429 with Retry-After; the clock frees it', async () => {
    const body = { login: OWNER, verification_method: 'email' };
    for (let i = 0; i < 5; i++) assert.equal((await post('/v1/login', body)).status, 200);
    const limited = await post('/v1/login', body);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, 'rate-limited');
    const retry = Number(limited.headers.get('retry-after'));
    assert.ok(retry > 0 && retry <= 600, String(retry));
    assert.equal((await post('/v1/login', { ...body, login: MEMBER })).status, 200, 'another email is not limited');
    await svc.advance(retry);
    assert.equal((await post('/v1/login', body)).status, 200);
  });

  test('login: 50 per client address in 10 minutes, whatever the emails', async () => {
    for (let i = 0; i < 50; i++) {
      const res = await post('/v1/login', { login: `someone${i}@example.org`, verification_method: 'email' });
      assert.equal(res.status, 200);
    }
    const res = await post('/v1/login', { login: 'one-more@example.org', verification_method: 'email' });
    assert.equal(res.status, 429);
    assert.ok(res.headers.get('retry-after'));
  });

  test('verify: 10 wrong PINs per email in 10 minutes; checks with no PIN to judge lock nobody out', async () => {
    const check = (pin: string) => post('/v1/verify', { action: 'validate_pin', email: OWNER, pin });
    // Anyone may send checks for an email that has no PIN: they are no guesses and count nothing for it.
    for (let i = 0; i < 20; i++) assert.equal((await check('000000')).status, 401);
    const login = () => post('/v1/login', { login: OWNER, verification_method: 'email' });
    for (let round = 0; round < 2; round++) {
      assert.equal((await login()).status, 200);
      const pin = await svc.lastPin(OWNER);
      const wrong = pin === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) assert.equal((await check(wrong)).status, 401, `round ${round + 1}, try ${i + 1}`);
    }
    assert.equal((await login()).status, 200);
    const res = await check(await svc.lastPin(OWNER));
    assert.equal(res.status, 429, 'ten wrong PINs: even the right one waits');
    assert.equal(res.body.error.code, 'rate-limited');
    assert.equal(res.body.error.message, 'Too many wrong PINs for this email. Try again in 10 minutes.');
  });

  test('verify: 100 per client address in 10 minutes, whatever the emails; the clock frees it', async () => {
    const verify = (email: string) => post('/v1/verify', { action: 'validate_pin', email, pin: '000000' });
    for (let i = 0; i < 100; i++) assert.equal((await verify(`someone${i}@example.org`)).status, 401, `try ${i + 1}`);
    const limited = await verify('one-more@example.org');
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, 'rate-limited');
    const retry = Number(limited.headers.get('retry-after'));
    assert.ok(retry > 0 && retry <= 600, String(retry));
    await svc.advance(retry);
    assert.equal((await verify('one-more@example.org')).status, 401, 'a wrong PIN again, no longer limited');
  });

  test('/dev/reset forgets the limits', async () => {
    const body = { login: OWNER, verification_method: 'email' };
    for (let i = 0; i < 5; i++) await post('/v1/login', body);
    assert.equal((await post('/v1/login', body)).status, 429);
    await svc.fetch('/dev/reset', { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    assert.equal((await post('/v1/login', body)).status, 200);
  });
});

describe('routes', () => {
  test('wrong methods are 405 with Allow; unknown /v1 paths are 404 not-found', async () => {
    const res = await svc.json('/v1/login', { headers: { 'X-SERVICE-API-KEY': API_KEY } });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    assert.equal((await svc.json('/v1/courses', { method: 'POST' })).status, 405);
    const unknown = await svc.json('/v1/refresh', { method: 'POST' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'not-found');
  });

  test('no CORS: for servers and same-origin pages, so another origin gets no Access-Control header, and its preflight 405 says why', async () => {
    const page = { Origin: 'https://admin.example' };
    const token = await tokenFor(OWNER);
    for (const res of [
      await post('/v1/login', { login: OWNER, verification_method: 'email' }, page),
      await post('/v1/verify', { action: 'validate_pin', email: OWNER, pin: '000000' }, page),
      await get('/v1/user', { ...auth(token), ...page }),
      await get('/v1/courses', { ...auth(token, 1), ...page }),
      await get('/v1/user', { 'X-SERVICE-API-KEY': 'rk_wrong', ...page }),
    ]) {
      assert.equal(res.headers.get('access-control-allow-origin'), null);
    }
    for (const [path, method, allow] of [
      ['/v1/login', 'POST', 'POST'],
      ['/v1/verify', 'POST', 'POST'],
      ['/v1/user', 'GET', 'GET, HEAD'],
      ['/v1/courses', 'GET', 'GET, HEAD'],
    ] as const) {
      const preflight = await svc.json(path, {
        method: 'OPTIONS',
        headers: { ...page, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'x-service-api-key' },
      });
      assert.equal(preflight.status, 405, path);
      assert.equal(preflight.headers.get('allow'), allow);
      assert.equal(preflight.headers.get('access-control-allow-origin'), null);
      assert.equal(preflight.headers.get('access-control-allow-headers'), null);
      assert.equal(preflight.body.error.code, 'method-not-allowed');
      assert.match(preflight.body.error.message, /no CORS.*servers.*never be shipped to a browser/);
    }
  });

  test('answers are never cached', async () => {
    const res = await svc.fetch('/v1/user', { headers: { 'X-SERVICE-API-KEY': API_KEY } });
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });
});
