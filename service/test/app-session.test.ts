/**
 * The service's own app (`/app/`) in the REST API: a first-party application of no company that every
 * user with a role signs in to, by the emailed PIN or link, into a session kept in an HttpOnly,
 * SameSite=Strict cookie; every change carries the CSRF cookie's value. Its snippet check answers
 * with the widget API's own checks, and every key serves the service's own pages (its preview).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useTestService, type Json, type TestService } from './helpers.ts';

const svc = useTestService();
const OWNER = 'olivia.owner@acme.example';
const MEMBER = 'max.member@acme.example';
const APP = { 'X-SERVICE-API-KEY': 'service-app' };

/** The cookies of a browser that has signed in to the app: their header, and the CSRF value a page reads. */
interface Session {
  cookie: string;
  csrf: string;
  setCookies: string[];
}

const sessionOf = (res: Response): Session => {
  const setCookies = res.headers.getSetCookie();
  const pairs = setCookies.map((line) => line.split(';')[0]!);
  const csrf = pairs.find((p) => p.startsWith('service_app_csrf='))?.split('=')[1] ?? '';
  return { cookie: pairs.join('; '), csrf, setCookies };
};

/** The app's sign-in link in an email of the outbox. */
const appLink = (email: Json) => new URL(/https?:\/\/\S+\/app\/\?key=\S+/.exec(email.text)![0]);

const login = (service: TestService, email: string) =>
  service.postJson('/v1/login', { login: email, verification_method: 'email' }, APP);

async function signIn(email = OWNER, service: TestService = svc): Promise<Session> {
  assert.equal((await login(service, email)).status, 200);
  const pin = await service.lastPin(email);
  const res = await service.fetch('/v1/session', {
    method: 'POST',
    headers: { ...APP, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, pin }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return sessionOf(res);
}

/** A call of the app's page: its key, its cookies, the company, and on a change the CSRF header unless `csrf` says otherwise. */
const call = (
  session: Session,
  path: string,
  init: { method?: string; body?: Json; csrf?: string | null; company?: string } = {},
) =>
  svc.json(path, {
    method: init.method ?? 'GET',
    headers: {
      ...APP,
      Cookie: session.cookie,
      'X-SERVICE-COMPANY': init.company ?? '1',
      ...(init.body ? { 'Content-Type': 'application/json' } : {}),
      ...(init.csrf === null ? {} : { 'X-CSRF-Token': init.csrf ?? session.csrf }),
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });

describe('the service app’s sign-in', () => {
  test('the PIN gives a session cookie: HttpOnly, SameSite=Strict, for the whole site; the token is never in the answer', async () => {
    await login(svc, OWNER);
    const pin = await svc.lastPin(OWNER);
    const res = await svc.postJson('/v1/session', { email: OWNER, pin }, APP);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { message: 'Signed in.' });
    const [session, csrf] = res.headers.getSetCookie();
    assert.match(session!, /^service_app_session=tok_[^;]+; Path=\/; Max-Age=604800; SameSite=Strict; HttpOnly$/);
    // The page reads the CSRF value; over plain http on this machine the cookies are not Secure.
    assert.match(csrf!, /^service_app_csrf=[0-9a-f]{64}; Path=\/; Max-Age=604800; SameSite=Strict$/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  test('GET /v1/user: the app is application 0 of no company, and the user’s companies are all of theirs', async () => {
    const session = await signIn();
    const res = await call(session, '/v1/user');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.app, { application_id: 0, company_id: null, type: 'application' });
    assert.deepEqual(
      res.body.user.companies.map((c: Json) => [c.name, c.role]),
      [
        ['Acme Academy', 'owner'],
        ['Globex Institute', 'member'],
      ],
    );
  });

  test('the emailed link opens the app, and its key gives a session once; the link’s own token never signs in', async () => {
    await login(svc, OWNER);
    const [email] = await svc.outbox(OWNER);
    const link = appLink(email);
    assert.equal(link.origin + link.pathname, `${svc.publicUrl}/app/`);
    const key = link.searchParams.get('key')!;

    // The link's token is no session: a page that set it as its cookie is not signed in.
    const asCookie = await svc.json('/v1/user', { headers: { ...APP, Cookie: `service_app_session=${key}` } });
    assert.equal(asCookie.status, 401);
    const first = await svc.fetch('/v1/session', {
      method: 'POST',
      headers: { ...APP, 'Content-Type': 'application/json' },
      body: JSON.stringify({ key }),
    });
    assert.equal(first.status, 200);
    const session = sessionOf(first);
    assert.ok(!session.cookie.includes(key), 'the session is a new token, not the one of the address bar');
    assert.equal((await call(session, '/v1/user')).status, 200);

    const again = await svc.postJson('/v1/session', { key }, APP);
    assert.equal(again.status, 401);
    assert.equal(again.body.error.code, 'invalid-link');
  });

  test('the email is in the language the app asks in, from the service, with the app’s link and the PIN', async () => {
    assert.equal(
      (await svc.postJson('/v1/login', { login: OWNER, verification_method: 'email' }, { ...APP, 'Accept-Language': 'de' }))
        .status,
      200,
    );
    const [email] = await svc.outbox(OWNER);
    assert.equal(email.subject, 'Anmelden bei Service widgets');
    assert.match(
      email.text,
      /melden Sie sich mit diesem Link bei Service widgets an:\nhttp:\/\/\S+\/app\/\?key=tok_\S+\n\noder geben Sie diese PIN ein: \d{6}/,
    );
  });

  test('a link left unused for an hour of the service clock no longer signs in', async () => {
    await login(svc, OWNER);
    const [email] = await svc.outbox(OWNER);
    const key = appLink(email).searchParams.get('key')!;
    await svc.advance(3601);
    const late = await svc.postJson('/v1/session', { key }, APP);
    assert.equal(late.status, 401);
    assert.equal(late.body.error.code, 'invalid-link');
    assert.deepEqual(late.headers.getSetCookie(), []);
  });

  test('a wrong PIN is invalid-pin; a body with neither the PIN nor the key names what to send', async () => {
    await login(svc, OWNER);
    const pin = await svc.lastPin(OWNER);
    const wrong = await svc.postJson('/v1/session', { email: OWNER, pin: pin === '000000' ? '000001' : '000000' }, APP);
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'invalid-pin');
    const empty = await svc.postJson('/v1/session', {}, APP);
    assert.equal(empty.status, 422);
    assert.deepEqual(Object.keys(empty.body.error.fields).sort(), ['email', 'pin']);
  });

  test('the app never gets a token in an answer: /v1/verify and a client secret are refused; another application gets no cookie', async () => {
    await login(svc, OWNER);
    const pin = await svc.lastPin(OWNER);
    const verify = await svc.postJson('/v1/verify', { action: 'validate_pin', email: OWNER, pin }, APP);
    assert.equal(verify.status, 403);
    assert.equal(verify.body.error.code, 'app-only');
    const secret = await svc.postJson(
      '/v1/login',
      { login: OWNER, verification_method: 'client_secret', client_secret: 'cs_demo_acme_secret' },
      APP,
    );
    assert.equal(secret.status, 401);
    assert.equal(secret.body.error.code, 'invalid-credentials');
    const other = await svc.postJson('/v1/session', { email: OWNER, pin }, { 'X-SERVICE-API-KEY': 'rk_demo_acme' });
    assert.equal(other.status, 403);
    assert.equal(other.body.error.code, 'app-only');
    assert.deepEqual(other.headers.getSetCookie(), []);
  });

  test('a change without the session’s CSRF value is refused (403 csrf-failed) and changes nothing; with it, it is made', async () => {
    const session = await signIn();
    const body = { type: 'calendar', name: 'Calendar of the app', origins: ['https://www.acme.example'] };
    for (const csrf of [null, 'x'.repeat(64)]) {
      const refused = await call(session, '/v1/widgets', { method: 'POST', body, csrf });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, 'csrf-failed');
    }
    assert.equal(await svc.count("SELECT count(*) FROM widget_keys WHERE name = 'Calendar of the app'"), 0);
    const made = await call(session, '/v1/widgets', { method: 'POST', body });
    assert.equal(made.status, 201);
    // Reads need none.
    assert.equal((await call(session, '/v1/widgets', { csrf: null })).status, 200);
  });

  test('a member’s session reads and changes nothing: 403 role-not-allowed', async () => {
    const session = await signIn(MEMBER);
    assert.equal((await call(session, '/v1/widgets')).status, 200);
    const change = await call(session, '/v1/widgets/1', { method: 'PATCH', body: { enabled: false } });
    assert.equal(change.status, 403);
    assert.equal(change.body.error.code, 'role-not-allowed');
  });

  test('sign-out ends the token and clears the cookies; the session also ends after 7 days of the service clock', async () => {
    const session = await signIn();
    const refused = await call(session, '/v1/session', { method: 'DELETE', csrf: null });
    assert.equal(refused.status, 403);
    const out = await call(session, '/v1/session', { method: 'DELETE' });
    assert.equal(out.status, 200);
    assert.deepEqual(
      out.headers.getSetCookie().map((line) => line.split(';').slice(0, 3).join(';')),
      ['service_app_session=; Path=/; Max-Age=0', 'service_app_csrf=; Path=/; Max-Age=0'],
    );
    const after = await call(session, '/v1/user');
    assert.equal(after.status, 401);
    assert.equal(after.body.error.code, 'invalid-token');

    const next = await signIn();
    await svc.advance(7 * 24 * 3600 - 60);
    assert.equal((await call(next, '/v1/user')).status, 200);
    await svc.advance(120);
    assert.equal((await call(next, '/v1/user')).status, 401);
  });
});

describe('the app’s snippet check and preview', () => {
  test('GET /v1/widgets/check answers as the widget API would, for the company’s own keys only', async () => {
    const session = await signIn();
    const check = async (query: string, company = '1') => (await call(session, `/v1/widgets/check?${query}`, { company })).body;
    assert.deepEqual(await check('key=wk_demo_calendar&type=calendar&origin=http://localhost:5173'), { ok: true, error: null });
    assert.equal(
      (await check('key=wk_demo_calendar&type=calendar&origin=https://evil.example')).error.code,
      'origin-not-allowed',
    );
    assert.equal((await check('key=wk_demo_calendar&type=map')).error.code, 'type-mismatch');
    assert.equal((await check('key=wk_nope')).error.code, 'invalid-key');
    // Globex's key, asked as Acme: a key the company does not have.
    const globex = await svc.rows<{ key: string }>('SELECT key FROM widget_keys WHERE company_id = 2 LIMIT 1');
    assert.equal((await check(`key=${globex[0]!.key}`)).error.code, 'invalid-key');
    const wrong = await call(session, '/v1/widgets/check?key=wk_demo_calendar&type=calender&origin=nope');
    assert.equal(wrong.status, 422);
    assert.deepEqual(Object.keys(wrong.body.error.fields).sort(), ['origin', 'type']);
  });

  test('every key serves the service’s own pages (the app’s live preview), and only those besides its origins', async () => {
    const made = await svc.json('/widget-api/v1/widget?key=wk_demo_calendar&type=calendar', {
      headers: { Origin: svc.publicUrl },
    });
    assert.equal(made.status, 200);
    assert.equal(made.headers.get('access-control-allow-origin'), svc.publicUrl);
    const foreign = await svc.json('/widget-api/v1/widget?key=wk_demo_calendar&type=calendar', {
      headers: { Origin: 'https://evil.example' },
    });
    assert.equal(foreign.status, 403);
  });

  test('a widget’s theme is kept with its options, each a colour; anything that could end a CSS declaration is refused', async () => {
    const session = await signIn();
    const base = { type: 'calendar', origins: ['https://www.acme.example'] };
    const made = await call(session, '/v1/widgets', {
      method: 'POST',
      body: { ...base, options: { theme: { '--service-accent': '#0b5fff' } } },
    });
    assert.equal(made.status, 201);
    assert.deepEqual(made.body.options, { theme: { '--service-accent': '#0b5fff' } });
    for (const theme of [{ '--service-accent': 'red; } body { display: none' }, { color: 'red' }, ['red']]) {
      const refused = await call(session, '/v1/widgets', { method: 'POST', body: { ...base, options: { theme } } });
      assert.equal(refused.status, 422);
      assert.match(refused.body.error.fields.options, /options\.theme/);
    }
  });
});
