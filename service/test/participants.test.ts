import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  FOREIGN_PAGE,
  LOCAL_PAGE,
  otherPin,
  participantToken,
  registrationBody,
  useTestService,
  uniqueKey,
  writeHeaders,
  type Json,
} from './helpers.ts';

const PROFILE_KEY = 'wk_demo_profile';
const VIDEO_KEY = 'wk_demo_video';
const RETURN_URL = `${LOCAL_PAGE}/account?tab=bookings#top`;
const ADA = 'ada@example.org';
const GRACE = 'grace@example.org';
const STRANGER = 'nobody@example.org';

const svc = useTestService();

interface CallOptions {
  body?: unknown;
  token?: string;
  idem?: string;
  key?: string;
  origin?: string;
}

/** A participant API call as the profile widget makes it: POST, JSON, the token in a header. */
function call(path: string, { body, token, idem, key = PROFILE_KEY, origin = LOCAL_PAGE }: CallOptions = {}) {
  const headers: Record<string, string> = { Origin: origin };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token !== undefined) headers['X-Service-Token'] = token;
  if (idem !== undefined) headers['Idempotency-Key'] = idem;
  return svc.json(`/widget-api/v1/participant/${path}?key=${encodeURIComponent(key)}`, {
    method: 'POST',
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A login, and the work the service does after answering it (the email, the PIN). */
const login = async (email: string, opts: CallOptions = {}) => {
  const answer = await call('login', { body: { email, return_url: RETURN_URL }, ...opts });
  await svc.jobs.idle();
  return answer;
};
const verify = (email: string, pin: unknown, opts: CallOptions = {}) => call('verify', { body: { email, pin }, ...opts });

const signIn = (email = ADA, key = PROFILE_KEY) => participantToken(svc, email, key);

describe('POST /participant/login', () => {
  test('emails a participant a 6-digit PIN and a link to return_url with key=<token>', async () => {
    const res = await login('Ada@Example.org');
    assert.equal(res.status, 202);
    assert.equal(typeof res.body.message, 'string');
    assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);

    const emails = await svc.outbox(ADA);
    assert.equal(emails.length, 1);
    const [email] = emails;
    assert.match(email.subject, /Acme Academy/);
    assert.match(email.pin, /^\d{6}$/);
    assert.ok(email.text.includes(email.pin));
    assert.ok(email.text.includes(email.link));
    const link = new URL(email.link);
    assert.equal(link.origin, LOCAL_PAGE);
    assert.equal(link.pathname, '/account');
    assert.equal(link.searchParams.get('tab'), 'bookings');
    assert.equal(link.hash, '#top');
    assert.match(link.searchParams.get('key') ?? '', /^ptok_/);
  });

  test('answers a stranger exactly as a participant, and emails nobody', async () => {
    const known = await login(ADA);
    const before = await svc.count('SELECT count(*) FROM outbox');
    const unknown = await login(STRANGER);
    assert.equal(unknown.status, known.status);
    assert.deepEqual(unknown.body, known.body);
    assert.equal(await svc.count('SELECT count(*) FROM outbox'), before);
    assert.equal((await svc.outbox(STRANGER)).length, 0);
    // A participant of another company is a stranger to this key.
    await login('katherine@example.net');
    assert.equal((await svc.outbox('katherine@example.net')).length, 0);
  });

  test('refuses a return_url that is not an absolute http(s) page the key serves', async () => {
    for (const returnUrl of [
      undefined,
      '',
      42,
      '/account',
      'ftp://localhost:5173/account',
      'javascript:alert(1)',
      'https://evil.example/account',
      `${FOREIGN_PAGE}/?next=${LOCAL_PAGE}`,
      'http://user:pw@localhost:5173/account',
    ]) {
      const res = await call('login', { body: { email: ADA, ...(returnUrl === undefined ? {} : { return_url: returnUrl }) } });
      assert.equal(res.status, 422, String(returnUrl));
      assert.equal(res.body.error.code, 'validation');
      assert.ok(res.body.error.fields.return_url, String(returnUrl));
    }
    assert.equal((await svc.outbox(ADA)).length, 0);
    // Any page of an allowed origin will do (seeded keys serve localhost on any port).
    const ok = await call('login', { body: { email: ADA, return_url: 'https://127.0.0.1:8443/me' } });
    assert.equal(ok.status, 202);
  });

  test('validates the email and refuses unknown fields', async () => {
    for (const [body, field] of [
      [{ return_url: RETURN_URL }, 'email'],
      [{ email: 'not-an-email', return_url: RETURN_URL }, 'email'],
      [{ email: ADA, return_url: RETURN_URL, name: 'Ada' }, 'name'],
    ] as const) {
      const res = await call('login', { body });
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.ok(res.body.error.fields[field], JSON.stringify(body));
    }
  });

  test('takes profile and video keys only, from the pages they serve', async () => {
    const cases: [CallOptions, number, string][] = [
      [{ key: 'wk_demo_registration' }, 403, 'type-mismatch'],
      [{ key: 'wk_demo_checkout' }, 403, 'type-mismatch'],
      [{ origin: FOREIGN_PAGE }, 403, 'origin-not-allowed'],
      [{ key: VIDEO_KEY, origin: FOREIGN_PAGE }, 403, 'origin-not-allowed'],
      [{ key: 'wk_nope' }, 401, 'invalid-key'],
    ];
    for (const [opts, status, code] of cases) {
      const res = await login(ADA, opts);
      assert.equal(res.status, status, JSON.stringify(opts));
      assert.equal(res.body.error.code, code);
    }
    const mismatch = await login(ADA, { key: 'wk_demo_registration' });
    assert.match(mismatch.body.error.message, /not a profile or video widget/);
    assert.equal((await svc.outbox(ADA)).length, 0);
    const map = await verify(ADA, '123456', { key: 'wk_demo_map' });
    assert.equal(map.status, 403);
    assert.equal(map.body.error.code, 'type-mismatch');
  });

  test('a video key signs a participant in where the video is: the PIN, and the link back to its page', async () => {
    // A participants-only video on a page without a profile widget asks for the PIN itself.
    const page = `${LOCAL_PAGE}/recordings?service-video=vid_ts_session_1`;
    const res = await call('login', { key: VIDEO_KEY, body: { email: 'alan@example.org', return_url: page } });
    assert.equal(res.status, 202);
    await svc.jobs.idle();
    const [email] = await svc.outbox('alan@example.org');
    const link = new URL(email.link);
    assert.equal(`${link.origin}${link.pathname}`, `${LOCAL_PAGE}/recordings`);
    assert.equal(link.searchParams.get('service-video'), 'vid_ts_session_1');
    assert.match(link.searchParams.get('key') ?? '', /^ptok_/);
    const verified = await verify('alan@example.org', email.pin, { key: VIDEO_KEY });
    assert.equal(verified.status, 200);
    assert.equal(verified.body.participant.id, 'p_alan');
    // The token is the participant's, for every widget of the company: the video's files, the profile.
    const media = await svc.json(`/widget-api/v1/videos/vid_ts_session_1/media?key=${VIDEO_KEY}`, {
      method: 'POST',
      headers: { Origin: LOCAL_PAGE, 'X-Service-Token': verified.body.token },
    });
    assert.equal(media.status, 200);
    assert.equal((await call('me', { token: verified.body.token })).body.participant.id, 'p_alan');
    // So does the link's token.
    assert.equal((await call('me', { key: VIDEO_KEY, token: link.searchParams.get('key')! })).status, 200);

    // The link comes back to a page the video key serves, and no other.
    const foreign = await call('login', { key: VIDEO_KEY, body: { email: 'alan@example.org', return_url: `${FOREIGN_PAGE}/` } });
    assert.equal(foreign.status, 422);
    assert.ok(foreign.body.error.fields.return_url);
  });

  test('rate limit: 5 logins per email in 10 minutes, whichever widget asks', async () => {
    for (const key of [PROFILE_KEY, VIDEO_KEY, PROFILE_KEY, VIDEO_KEY, VIDEO_KEY])
      assert.equal((await login(GRACE, { key })).status, 202);
    for (const key of [VIDEO_KEY, PROFILE_KEY]) {
      const refused = await login(GRACE, { key });
      assert.equal(refused.status, 429, key);
      assert.equal(refused.body.error.code, 'rate-limited');
    }
    assert.equal((await svc.outbox(GRACE)).length, 5);
  });

  test('rate limit: 5 logins per email in 10 minutes, the same for a stranger', async () => {
    for (const email of [ADA, STRANGER]) {
      for (let i = 0; i < 5; i++) assert.equal((await login(email)).status, 202);
      const refused = await login(email);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, 'rate-limited');
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.match(refused.headers.get('access-control-expose-headers') ?? '', /Retry-After/);
    }
    assert.equal((await svc.outbox(ADA)).length, 5);
    await svc.advance(10 * 60 + 1);
    assert.equal((await login(ADA)).status, 202);
  });
});

describe('POST /participant/verify', () => {
  test('wrong tries count for the PIN whichever widget sends them: the fifth locks it, for the video and the profile', async () => {
    await login(ADA, { key: VIDEO_KEY });
    const pin = await svc.lastPin(ADA);
    for (const [key, left] of [
      [VIDEO_KEY, 4],
      [PROFILE_KEY, 3],
      [VIDEO_KEY, 2],
      [PROFILE_KEY, 1],
    ] as const) {
      const res = await verify(ADA, otherPin(pin), { key });
      assert.equal(res.body.error.code, 'pin-wrong');
      assert.equal(res.body.error.attempts_left, left);
    }
    assert.equal((await verify(ADA, otherPin(pin), { key: VIDEO_KEY })).body.error.code, 'pin-locked');
    assert.equal((await verify(ADA, pin, { key: PROFILE_KEY })).body.error.code, 'pin-locked');
  });

  test('the right PIN gives a token and the participant', async () => {
    await login(ADA);
    const res = await verify(ADA, await svc.lastPin(ADA));
    assert.equal(res.status, 200);
    assert.match(res.body.token, /^ptok_/);
    assert.deepEqual(res.body.participant, {
      id: 'p_ada',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: ADA,
      phone: '+44 20 7946 0001',
    });
    assert.equal((await call('me', { token: res.body.token })).status, 200);
  });

  test('a wrong PIN counts down attempts_left, then the PIN is locked, even for the right PIN', async () => {
    await login(ADA);
    const pin = await svc.lastPin(ADA);
    const wrong = otherPin(pin);
    for (const left of [4, 3, 2, 1]) {
      const res = await verify(ADA, wrong);
      assert.equal(res.status, 401);
      assert.equal(res.body.error.code, 'pin-wrong');
      assert.equal(res.body.error.attempts_left, left);
      assert.ok(res.body.error.fields.pin);
    }
    const fifth = await verify(ADA, wrong);
    assert.equal(fifth.status, 429);
    assert.equal(fifth.body.error.code, 'pin-locked');
    const right = await verify(ADA, pin);
    assert.equal(right.status, 429);
    assert.equal(right.body.error.code, 'pin-locked');

    await login(ADA);
    assert.equal((await verify(ADA, await svc.lastPin(ADA))).status, 200);
  });

  test('a PIN expires after 5 minutes of the service clock', async () => {
    await login(ADA);
    const pin = await svc.lastPin(ADA);
    await svc.advance(299);
    await login(GRACE);
    assert.equal((await verify(GRACE, await svc.lastPin(GRACE))).status, 200);
    await svc.advance(2);
    const res = await verify(ADA, pin);
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'pin-expired');
  });

  test('a PIN works once', async () => {
    await login(ADA);
    const pin = await svc.lastPin(ADA);
    assert.equal((await verify(ADA, pin)).status, 200);
    const again = await verify(ADA, pin);
    assert.equal(again.status, 401);
    assert.equal(again.body.error.code, 'pin-used');
  });

  test('a new login replaces the PIN: the old one is pin-missing, the new one works', async () => {
    await login(ADA);
    const first = await svc.lastPin(ADA);
    await login(ADA);
    const second = await svc.lastPin(ADA);
    if (first !== second) {
      const old = await verify(ADA, first);
      assert.equal(old.status, 401);
      assert.equal(old.body.error.code, 'pin-missing');
      assert.match(old.body.error.message, /replaced/);
    }
    assert.equal((await verify(ADA, second)).status, 200);
  });

  test('no PIN sent to this email: pin-missing, for a participant and a stranger alike', async () => {
    for (const email of [ADA, STRANGER]) {
      const res = await verify(email, '123456');
      assert.equal(res.status, 401);
      assert.equal(res.body.error.code, 'pin-missing');
    }
  });

  test('after a login, guessing for a stranger answers exactly as for a participant', async () => {
    await login(ADA);
    await login(STRANGER);
    const wrong = otherPin(await svc.lastPin(ADA));
    for (const left of [4, 3, 2, 1]) {
      const [known, unknown] = [await verify(ADA, wrong), await verify(STRANGER, wrong)];
      assert.equal(unknown.status, known.status);
      assert.deepEqual(unknown.body, known.body);
      assert.equal(unknown.body.error.attempts_left, left);
    }
    const [known, unknown] = [await verify(ADA, wrong), await verify(STRANGER, wrong)];
    assert.deepEqual([unknown.status, unknown.body], [known.status, known.body]);
    assert.equal(unknown.body.error.code, 'pin-locked');
    // Expiry too: the stranger's PIN dies on the same clock.
    await login(ADA);
    await login(STRANGER);
    await svc.advance(301);
    const [late, lateUnknown] = [await verify(ADA, wrong), await verify(STRANGER, wrong)];
    assert.deepEqual([lateUnknown.status, lateUnknown.body], [late.status, late.body]);
    assert.equal(lateUnknown.body.error.code, 'pin-expired');
    assert.equal((await svc.outbox(STRANGER)).length, 0);
  });

  test('PIN checks are limited per address (100 in 10 minutes) across emails, as the REST API’s', async () => {
    // 30 logins from one address, then 5 wrong PINs for each: the 101st check is refused.
    const emails = Array.from({ length: 30 }, (_, i) => `guess${i}@example.org`);
    for (const email of emails) assert.equal((await login(email)).status, 202);
    let checks = 0;
    for (const email of emails) {
      for (let i = 0; i < 5 && checks < 100; i++, checks++) {
        const res = await verify(email, '000000');
        assert.ok(['pin-wrong', 'pin-locked'].includes(res.body.error.code), `check ${checks + 1}: ${res.body.error.code}`);
      }
    }
    const refused = await verify(emails[29]!, '000000');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate-limited');
    assert.equal(refused.body.error.message, 'Too many PIN checks from here. Try again in 10 minutes.');
    assert.equal(refused.headers.get('retry-after'), String(refused.body.error.retry_after));
    // Refused before the PIN is looked at: a right one too, from this address, so that nothing is learnt.
    assert.equal((await login(ADA)).status, 202);
    assert.equal((await verify(ADA, await svc.lastPin(ADA))).body.error.code, 'rate-limited');
    await svc.advance(10 * 60);
    assert.equal((await login(ADA)).status, 202);
    assert.equal((await verify(ADA, await svc.lastPin(ADA))).status, 200, 'after the window');
  });

  test('checks for an email with no PIN sent lock nobody out (another person cannot keep a participant from signing in)', async () => {
    for (let i = 0; i < 20; i++) assert.equal((await verify(ADA, '000000')).body.error.code, 'pin-missing');
    assert.equal((await login(ADA)).status, 202);
    assert.equal((await verify(ADA, await svc.lastPin(ADA))).status, 200);
  });

  test('wrong PINs for one email are limited to 10 in 10 minutes, whatever the PINs', async () => {
    for (let round = 0; round < 3; round++) {
      assert.equal((await login(GRACE)).status, 202);
      for (let i = 0; i < (round < 2 ? 4 : 2); i++) assert.equal((await verify(GRACE, '000000')).body.error.code, 'pin-wrong');
    }
    const refused = await verify(GRACE, await svc.lastPin(GRACE));
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate-limited');
    assert.equal(refused.body.error.message, 'Too many wrong PINs for this email. Try again in 10 minutes.');
  });

  test('the PIN must be six digits as a string', async () => {
    for (const pin of ['12345', '1234567', 'abcdef', 123456, null]) {
      const res = await verify(ADA, pin);
      assert.equal(res.status, 422, String(pin));
      assert.ok(res.body.error.fields.pin);
    }
  });

  test('the answer goes out before the email work is done, for a participant and a stranger alike', async () => {
    svc.jobs.hold();
    try {
      const emails = await svc.count('SELECT count(*) FROM outbox');
      const pins = await svc.count("SELECT count(*) FROM sign_in_pins WHERE audience = 'participant'");
      for (const email of [ADA, STRANGER]) {
        assert.equal((await call('login', { body: { email, return_url: RETURN_URL } })).status, 202);
      }
      assert.equal(await svc.count('SELECT count(*) FROM outbox'), emails, 'nothing sent yet');
      assert.equal(
        await svc.count("SELECT count(*) FROM sign_in_pins WHERE audience = 'participant'"),
        pins,
        'nothing stored yet',
      );
      assert.equal(svc.jobs.pending, 2, 'the same work waits for both');
    } finally {
      await svc.jobs.release();
    }
    assert.equal((await svc.outbox(ADA)).length, 1);
    assert.equal((await svc.outbox(STRANGER)).length, 0);
  });

  test('an emailed link never used dies after an hour; used within the hour, it stays a sign-in', async () => {
    await login(ADA);
    const unused = new URL((await svc.outbox(ADA))[0].link).searchParams.get('key')!;
    await login(ADA);
    const used = new URL((await svc.outbox(ADA))[0].link).searchParams.get('key')!;
    await svc.advance(59 * 60);
    assert.equal((await call('me', { token: used })).status, 200);
    await svc.advance(2 * 60);
    assert.equal((await call('me', { token: unused })).status, 401);
    assert.equal((await call('me', { token: used })).status, 200);
    await svc.advance(20 * 24 * 3600);
    assert.equal((await call('me', { token: used })).status, 200);
    // A PIN's token is no link: it lives its 30 days from the start.
    assert.equal((await call('me', { token: await signIn() })).status, 200);
  });

  test('the emailed link’s key is a token', async () => {
    await login(ADA);
    const token = new URL((await svc.outbox(ADA))[0].link).searchParams.get('key')!;
    const me = await call('me', { token });
    assert.equal(me.status, 200);
    assert.equal(me.body.participant.email, ADA);
  });
});

describe('POST /participant/me', () => {
  test('the logged-in first render: widget, participant, registrations by start', async () => {
    const token = await signIn();
    const res = await call('me', { token });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(res.body.widget, { type: 'profile', company: { id: 'c_acme', name: 'Acme Academy' }, options: {} });
    assert.equal(res.body.participant.id, 'p_ada');

    const regs = res.body.registrations;
    assert.deepEqual(
      regs.map((r: Json) => r.class.id),
      ['cls_web_past', 'cls_ts_1'],
    );
    const [past, upcoming] = regs;
    assert.equal(past.id, 'reg_seed_ada_web_past');
    assert.equal(past.cancellable, false);
    assert.equal(past.past, true);
    assert.equal(upcoming.past, false);
    assert.deepEqual(upcoming.course, { id: 'crs_ts', title: 'TypeScript for teams' });
    assert.equal(upcoming.status, 'confirmed');
    assert.equal(upcoming.class.timezone, 'Europe/Berlin');
    assert.equal(upcoming.class.location, 'Hamburg, Am Sandtorkai 4');
    assert.ok(Date.parse(upcoming.class.ends_at) > Date.parse(upcoming.class.starts_at));
    assert.equal(upcoming.cancellable, true);
    assert.equal(Date.parse(upcoming.class.starts_at) - Date.parse(upcoming.cancel_until), 24 * 3600 * 1000);
  });

  test('a registration made on the page with the participant’s email appears in it', async () => {
    const token = await signIn();
    const reg = await svc.json('/widget-api/v1/registrations?key=wk_demo_registration', {
      method: 'POST',
      headers: writeHeaders(uniqueKey()),
      body: JSON.stringify(registrationBody({ class_id: 'cls_web_2', email: 'ADA@example.org', first_name: 'Augusta' })),
    });
    assert.equal(reg.status, 201);
    const me = await call('me', { token });
    const found = me.body.registrations.find((r: Json) => r.id === reg.body.registration.id);
    assert.ok(found, 'the new registration is listed');
    assert.equal(found.class.id, 'cls_web_2');
    assert.equal(me.body.participant.first_name, 'Ada', 'the anonymous form did not rename her');
  });

  test('works with any enabled key of the token’s company, never another company’s', async () => {
    const token = await signIn();
    const viaRegistration = await call('me', { token, key: 'wk_demo_registration' });
    assert.equal(viaRegistration.status, 200);
    assert.equal(viaRegistration.body.widget.type, 'registration');
    const other = await call('me', { token, key: 'wk_globex_profile' });
    assert.equal(other.status, 401);
    assert.equal(other.body.error.code, 'invalid-token');

    const katherine = await signIn('katherine@example.net', 'wk_globex_profile');
    const gx = await call('me', { token: katherine, key: 'wk_globex_profile' });
    assert.equal(gx.status, 200);
    assert.deepEqual(
      gx.body.registrations.map((r: Json) => r.class.id),
      ['cls_gx_safety_1'],
    );
    assert.equal((await call('me', { token: katherine })).status, 401);
  });
});

describe('invalid tokens', () => {
  test('no token, an unknown one: 401 invalid-token, readable by the page', async () => {
    for (const token of [undefined, '', 'ptok_unknown']) {
      const res = await call('me', token === undefined ? {} : { token });
      assert.equal(res.status, 401, String(token));
      assert.equal(res.body.error.code, 'invalid-token');
      assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);
    }
  });

  test('logout answers 204 and invalidates the token', async () => {
    const token = await signIn();
    const other = await signIn();
    const res = await svc.fetch(`/widget-api/v1/participant/logout?key=${PROFILE_KEY}`, {
      method: 'POST',
      headers: { Origin: LOCAL_PAGE, 'X-Service-Token': token },
    });
    assert.equal(res.status, 204);
    assert.equal(await res.text(), '');
    assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);
    for (const path of ['me', 'logout']) {
      const after = await call(path, { token });
      assert.equal(after.status, 401, path);
      assert.equal(after.body.error.code, 'invalid-token');
    }
    assert.equal((await call('me', { token: other })).status, 200, 'another sign-in stays');
  });

  test('/dev/tokens/invalidate by email or by token ends participant tokens', async () => {
    const byEmail = await signIn();
    const linkToken = new URL((await svc.outbox(ADA))[0].link).searchParams.get('key')!;
    const grace = await signIn(GRACE);
    const post = (body: unknown) =>
      svc.json('/dev/tokens/invalidate', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const res = await post({ email: ADA });
    assert.equal(res.status, 200);
    assert.equal(res.body.invalidated, 2, 'the verified token and the link token');
    for (const token of [byEmail, linkToken]) {
      const me = await call('me', { token });
      assert.equal(me.status, 401);
      assert.equal(me.body.error.code, 'invalid-token');
    }
    assert.equal((await call('me', { token: grace })).status, 200);
    assert.equal((await post({ token: grace })).body.invalidated, 1);
    assert.equal((await call('me', { token: grace })).status, 401);
  });

  test('every token call checks it: profile, cancel, logout', async () => {
    for (const [path, idem] of [
      ['profile', uniqueKey()],
      ['registrations/reg_seed_ada_ts_1/cancel', uniqueKey()],
      ['logout', undefined],
    ] as const) {
      const res = await call(path, {
        token: 'ptok_unknown',
        ...(idem ? { idem } : {}),
        ...(path === 'profile' ? { body: { first_name: 'X' } } : {}),
      });
      assert.equal(res.status, 401, path);
      assert.equal(res.body.error.code, 'invalid-token');
    }
    assert.equal(await svc.count("SELECT count(*) FROM participants WHERE first_name = 'X'"), 0);
  });
});

describe('POST /participant/profile', () => {
  const update = (token: string, body: unknown, idem = uniqueKey()) => call('profile', { token, body, idem });

  test('changes the fields sent, keeps the others, and the upcoming registrations follow', async () => {
    const token = await signIn();
    const res = await update(token, { first_name: ' Augusta Ada ', phone: '+44 20 0000 0000' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.participant, {
      id: 'p_ada',
      first_name: 'Augusta Ada',
      last_name: 'Lovelace',
      email: ADA,
      phone: '+44 20 0000 0000',
    });
    const me = await call('me', { token });
    assert.deepEqual(me.body.participant, res.body.participant);
    assert.equal(
      await svc.count("SELECT count(*) FROM registrations WHERE id = 'reg_seed_ada_ts_1' AND first_name = 'Augusta Ada'"),
      1,
    );
    assert.equal(
      await svc.count("SELECT count(*) FROM registrations WHERE id = 'reg_seed_ada_web_past' AND first_name = 'Ada'"),
      1,
      'the past stays',
    );

    for (const phone of ['', null]) {
      const cleared = await update(token, { phone });
      assert.equal(cleared.status, 200);
      assert.equal(cleared.body.participant.phone, null);
    }
  });

  test('validates like the registration form, every field at once', async () => {
    const token = await signIn();
    const res = await update(token, {
      first_name: '  ',
      last_name: 'x'.repeat(101),
      email: 'ada@',
      phone: 'call me',
      nickname: 'Ada',
    });
    assert.equal(res.status, 422);
    assert.equal(res.body.error.code, 'validation');
    assert.deepEqual(Object.keys(res.body.error.fields).sort(), ['email', 'first_name', 'last_name', 'nickname', 'phone']);
    for (const [body, field] of [
      [{ first_name: null }, 'first_name'],
      [{ last_name: 7 }, 'last_name'],
      [{ email: '' }, 'email'],
      [{ phone: 'x'.repeat(41) }, 'phone'],
      [{ first_name: 'Ada\u0000' }, 'first_name'],
      [{ first_name: '\u202e'.repeat(100) }, 'first_name'],
      [{ last_name: 'Ada\u202egnp.exe' }, 'last_name'],
      [JSON.parse('{"__proto__":{"isAdmin":true}}'), '__proto__'],
    ] as const) {
      const one = await update(token, body);
      assert.equal(one.status, 422, JSON.stringify(body));
      assert.deepEqual(Object.keys(one.body.error.fields), [field]);
    }
    assert.equal((await call('me', { token })).body.participant.first_name, 'Ada');
  });

  test('a new email does not take effect when asked for: a PIN and a link go to it, and the old address is told', async () => {
    const token = await signIn();
    const res = await update(token, { email: 'Countess@Example.org', first_name: 'Augusta', return_url: RETURN_URL });
    assert.equal(res.status, 200);
    assert.equal(res.body.participant.email, ADA, 'the email is still the old one');
    assert.equal(res.body.participant.first_name, 'Augusta', 'the name changes at once');
    assert.equal(res.body.email_change.email, 'countess@example.org');
    assert.ok(Date.parse(res.body.email_change.expires_at) > Date.now() + 55 * 60_000);
    const me = await call('me', { token });
    assert.equal(me.body.participant.email, ADA);
    assert.deepEqual(me.body.email_change, res.body.email_change);

    const [confirm] = await svc.outbox('countess@example.org');
    assert.match(confirm.subject, /^Confirm your new email address at Acme Academy/);
    assert.match(confirm.pin, /^\d{6}$/);
    const link = new URL(confirm.link);
    assert.equal(`${link.origin}${link.pathname}`, `${LOCAL_PAGE}/account`);
    assert.match(link.searchParams.get('key')!, /^ptok_/);
    const [told] = await svc.outbox(ADA);
    assert.match(told.subject, /A change of your email address at Acme Academy was asked for/);
    assert.match(told.text, /countess@example\.org/);
    assert.match(told.text, /Nothing changes until/);
    assert.equal(told.pin, null);
    assert.equal(told.link, null);
  });

  test('another person’s address cannot be taken: the answer is the same, their bookings stay theirs, and only their mailbox learns it', async () => {
    const token = await signIn();
    const free = await update(token, { email: 'someone.new@example.org' });
    const taken = await update(token, { email: 'GRACE@example.org' });
    assert.equal(taken.status, free.status);
    assert.deepEqual(Object.keys(taken.body).sort(), Object.keys(free.body).sort());
    assert.equal(taken.body.email_change.email, GRACE);
    const me = await call('me', { token });
    assert.equal(me.body.participant.email, ADA);
    assert.ok(!me.body.registrations.some((r: Json) => r.class.id === 'cls_web_1'), 'Grace’s booking is not in Ada’s account');
    // A registration made later with that address stays out of Ada's account too.
    assert.equal(
      (
        await svc.json('/widget-api/v1/registrations?key=wk_demo_registration', {
          method: 'POST',
          headers: writeHeaders(uniqueKey()),
          body: JSON.stringify(registrationBody({ class_id: 'cls_web_2', email: GRACE })),
        })
      ).status,
      201,
    );
    assert.ok(!(await call('me', { token })).body.registrations.some((r: Json) => r.class.id === 'cls_web_2'));

    const toGrace = (await svc.outbox(GRACE)).find((e) => /Someone asked to use this address/.test(e.subject));
    assert.ok(toGrace, 'Grace is told');
    assert.equal(toGrace.pin, null);
    // No PIN can confirm it (and guessing counts down like any PIN).
    const guess = await call('email/confirm', { token, body: { pin: '123456' } });
    assert.equal(guess.status, 401);
    assert.equal(guess.body.error.code, 'pin-wrong');
    assert.equal((await call('me', { token })).body.participant.email, ADA);
  });

  test('the PIN sent to the new address confirms it: tokens, upcoming registrations and sign-ins follow; the old address is told', async () => {
    const token = await signIn();
    await login(ADA);
    const loginPinToOld = await svc.lastPin(ADA);
    await update(token, { email: 'countess@example.org' });
    const pin = await svc.lastPin('countess@example.org');
    const wrong = await call('email/confirm', { token, body: { pin: otherPin(pin) } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'pin-wrong');
    assert.equal(wrong.body.error.attempts_left, 4);
    assert.equal((await call('email/confirm', { token, body: { pin: 12 } })).status, 422);

    const ok = await call('email/confirm', { token, body: { pin } });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.participant.email, 'countess@example.org');
    assert.equal(ok.body.email_change, null);
    const me = await call('me', { token });
    assert.equal(me.body.participant.email, 'countess@example.org');
    assert.equal(me.body.email_change, null);
    assert.equal(
      await svc.count("SELECT count(*) FROM registrations WHERE id = 'reg_seed_ada_ts_1' AND email = 'countess@example.org'"),
      1,
    );
    assert.equal(
      await svc.count("SELECT count(*) FROM registrations WHERE id = 'reg_seed_ada_web_past' AND email = ?", ADA),
      1,
      'the past stays',
    );
    assert.match((await svc.outbox(ADA))[0].subject, /Your email address at Acme Academy has changed/);
    assert.equal((await call('email/confirm', { token, body: { pin } })).body.error.code, 'pin-used');

    assert.equal((await verify(ADA, loginPinToOld)).status, 401, 'a sign-in PIN sent to the old address is dead');
    const sentToOld = (await svc.outbox(ADA)).length;
    assert.equal((await login(ADA)).status, 202);
    assert.equal((await svc.outbox(ADA)).length, sentToOld, 'the old address is a stranger now');
    const fresh = await signIn('countess@example.org');
    await svc.fetch('/dev/tokens/invalidate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'countess@example.org' }),
    });
    assert.equal((await call('me', { token })).status, 401);
    assert.equal((await call('me', { token: fresh })).status, 401);
  });

  test('the link sent to the new address confirms it and signs in, on any device; without return_url the email holds the PIN only', async () => {
    const token = await signIn();
    await update(token, { email: 'countess@example.org' });
    assert.equal((await svc.outbox('countess@example.org'))[0].link, null);

    await update(token, { email: 'countess@example.org', return_url: RETURN_URL });
    const linkToken = new URL((await svc.outbox('countess@example.org'))[0].link).searchParams.get('key')!;
    const me = await call('me', { token: linkToken });
    assert.equal(me.status, 200);
    assert.equal(me.body.participant.email, 'countess@example.org');
    assert.equal(me.body.email_change, null);
    assert.equal((await call('me', { token })).body.participant.email, 'countess@example.org');
    assert.equal((await call('me', { token: linkToken })).status, 200, 'once used, the link’s token is a sign-in');
  });

  test('a newer request replaces the older; PIN and link work for an hour; 5 requests an hour', async () => {
    const token = await signIn();
    await update(token, { email: 'first@example.org', return_url: RETURN_URL });
    const [first] = await svc.outbox('first@example.org');
    await update(token, { email: 'second@example.org', return_url: RETURN_URL });
    assert.equal((await call('email/confirm', { token, body: { pin: first.pin } })).body.error.code, 'pin-missing');
    assert.equal((await call('me', { token: new URL(first.link).searchParams.get('key')! })).status, 401);
    assert.equal((await call('me', { token })).body.email_change.email, 'second@example.org');

    const [second] = await svc.outbox('second@example.org');
    await svc.advance(3601);
    assert.equal((await call('email/confirm', { token, body: { pin: second.pin } })).body.error.code, 'pin-expired');
    assert.equal((await call('me', { token: new URL(second.link).searchParams.get('key')! })).status, 401);
    assert.equal((await call('me', { token })).body.email_change, null);
    assert.equal((await call('me', { token })).body.participant.email, ADA);

    for (let i = 0; i < 5; i++) assert.equal((await update(token, { email: `try${i}@example.org` })).status, 200);
    const refused = await update(token, { email: 'try5@example.org' });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate-limited');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
  });

  test('idempotent: a retry answers the first result; another body under the key is 409', async () => {
    const token = await signIn();
    const idem = uniqueKey();
    const first = await update(token, { last_name: 'Byron' }, idem);
    assert.equal(first.status, 200);
    await update(token, { last_name: 'King' });
    const retry = await update(token, { last_name: 'Byron' }, idem);
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(retry.body, first.body);
    assert.equal((await call('me', { token })).body.participant.last_name, 'King', 'the retry changed nothing');
    const reused = await update(token, { last_name: 'Other' }, idem);
    assert.equal(reused.status, 409);
    assert.equal(reused.body.error.code, 'idempotency-key-reused');

    const missing = await call('profile', { token, body: { last_name: 'X' } });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, 'missing-idempotency-key');
  });
});

describe('POST /participant/registrations/{id}/cancel', () => {
  const cancel = (token: string, id: string, idem = uniqueKey()) =>
    call(`registrations/${encodeURIComponent(id)}/cancel`, { token, idem });
  const statusOf = async (id: string) => {
    for (const s of ['confirmed', 'waitlisted', 'cancelled']) {
      if ((await svc.count('SELECT count(*) FROM registrations WHERE id = ? AND status = ?', id, s)) === 1) return s;
    }
    return undefined;
  };

  test('frees the seat: the first on the waitlist is confirmed and emailed', async () => {
    const token = await signIn();
    const waitlistBefore = await svc.count(
      "SELECT count(*) FROM registrations WHERE class_id = 'cls_ts_1' AND status = 'waitlisted'",
    );
    const idem = uniqueKey();
    const res = await cancel(token, 'reg_seed_ada_ts_1', idem);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { registration: { id: 'reg_seed_ada_ts_1', status: 'cancelled' } });
    assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);

    assert.equal(await statusOf('reg_seed_ada_ts_1'), 'cancelled');
    assert.equal(await statusOf('reg_seed_grace_ts_1'), 'confirmed');
    assert.equal(
      await svc.count("SELECT count(*) FROM registrations WHERE class_id = 'cls_ts_1' AND status = 'waitlisted'"),
      waitlistBefore - 1,
    );
    assert.equal(await svc.count("SELECT count(*) FROM registrations WHERE class_id = 'cls_ts_1' AND status = 'confirmed'"), 8);
    const [promoted] = await svc.outbox(GRACE);
    assert.match(promoted.subject, /^Registration confirmed: TypeScript for teams/);
    assert.match(promoted.text, /freed up/);
    assert.match((await svc.outbox(ADA))[0].subject, /^Registration cancelled/);

    const me = await call('me', { token });
    assert.deepEqual(
      me.body.registrations.map((r: Json) => r.id),
      ['reg_seed_ada_web_past'],
    );

    const outbox = await svc.count('SELECT count(*) FROM outbox');
    const retry = await cancel(token, 'reg_seed_ada_ts_1', idem);
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(retry.body, res.body);
    const again = await cancel(token, 'reg_seed_ada_ts_1');
    assert.equal(again.status, 200, 'cancelling a cancelled registration is not an error');
    assert.deepEqual(again.body, res.body);
    assert.equal(await svc.count('SELECT count(*) FROM outbox'), outbox, 'nobody is emailed twice');
    assert.equal(await statusOf('reg_seed_grace_ts_1'), 'confirmed');
  });

  test('a seat freed in an open class is simply free again; a waitlisted place frees no seat', async () => {
    const grace = await signIn(GRACE);
    const confirmedBefore = await svc.count(
      "SELECT count(*) FROM registrations WHERE class_id = 'cls_ts_1' AND status = 'confirmed'",
    );
    assert.equal((await cancel(grace, 'reg_seed_grace_ts_1')).status, 200);
    assert.equal(
      await svc.count("SELECT count(*) FROM registrations WHERE class_id = 'cls_ts_1' AND status = 'confirmed'"),
      confirmedBefore,
    );
    assert.equal((await cancel(grace, 'reg_seed_grace_web_1')).status, 200);
    const widget = (await svc.json('/widget-api/v1/widget?key=wk_demo_registration&type=registration')).body;
    const web1 = widget.courses.flatMap((c: Json) => c.classes).find((cl: Json) => cl.id === 'cls_web_1');
    assert.equal(web1.seats_left, 6);
  });

  test('not-cancellable after cancel_until and for a past class', async () => {
    const token = await signIn();
    const past = await cancel(token, 'reg_seed_ada_web_past');
    assert.equal(past.status, 409);
    assert.equal(past.body.error.code, 'not-cancellable');

    const me = (await call('me', { token })).body;
    const ts = me.registrations.find((r: Json) => r.id === 'reg_seed_ada_ts_1');
    const now = (await svc.json('/dev/clock')).body.now;
    await svc.advance((Date.parse(ts.cancel_until) - Date.parse(now)) / 1000 + 1);
    const late = await cancel(token, 'reg_seed_ada_ts_1');
    assert.equal(late.status, 409);
    assert.equal(late.body.error.code, 'not-cancellable');
    assert.equal(await statusOf('reg_seed_ada_ts_1'), 'confirmed');
    const after = (await call('me', { token })).body;
    const closed = after.registrations.find((r: Json) => r.id === 'reg_seed_ada_ts_1');
    assert.deepEqual([closed.cancellable, closed.past], [false, false]);
    // Once it starts by the service clock, the class is past.
    await svc.advance(24 * 3600);
    const started = (await call('me', { token })).body.registrations.find((r: Json) => r.id === 'reg_seed_ada_ts_1');
    assert.deepEqual([started.cancellable, started.past], [false, true]);
  });

  test('someone else’s registration, or an unknown one, is 404', async () => {
    const token = await signIn();
    for (const id of ['reg_seed_grace_web_1', 'reg_nope', 'reg_seed_katherine_gx_safety_1']) {
      const res = await cancel(token, id);
      assert.equal(res.status, 404, id);
      assert.equal(res.body.error.code, 'not-found');
    }
    assert.equal(await statusOf('reg_seed_grace_web_1'), 'confirmed');
  });

  test('needs an Idempotency-Key', async () => {
    const token = await signIn();
    const res = await call('registrations/reg_seed_ada_ts_1/cancel', { token });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'missing-idempotency-key');
    assert.equal(await statusOf('reg_seed_ada_ts_1'), 'confirmed');
  });
});

describe('CORS and routes', () => {
  test('the preflight allows the token header for the key’s pages only', async () => {
    const preflight = (origin: string) =>
      svc.fetch(`/widget-api/v1/participant/me?key=${PROFILE_KEY}`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type,idempotency-key,x-service-token',
        },
      });
    const ok = await preflight(LOCAL_PAGE);
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get('access-control-allow-origin'), LOCAL_PAGE);
    assert.equal(ok.headers.get('access-control-allow-headers'), 'Content-Type, Idempotency-Key, X-Service-Token, X-Order-Token');
    assert.match(ok.headers.get('access-control-allow-methods') ?? '', /POST/);
    const refused = await preflight(FOREIGN_PAGE);
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('access-control-allow-headers'), null);
  });

  test('a GET never carries the token: the participant paths answer 405', async () => {
    for (const path of ['login', 'verify', 'me', 'profile', 'registrations/reg_seed_ada_ts_1/cancel', 'logout']) {
      const res = await svc.json(`/widget-api/v1/participant/${path}?key=${PROFILE_KEY}`);
      assert.equal(res.status, 405, path);
      assert.equal(res.headers.get('allow'), 'POST, OPTIONS');
    }
  });
});

describe('/dev/seed', () => {
  test('lists each participant’s profile key and seeded registrations', async () => {
    const { participants } = (await svc.json('/dev/seed')).body;
    const ada = participants.find((p: Json) => p.email === ADA);
    assert.equal(ada.profile_key, PROFILE_KEY);
    assert.deepEqual(ada.registrations.map((r: Json) => r.id).sort(), ['reg_seed_ada_ts_1', 'reg_seed_ada_web_past']);
    assert.match(ada.note, /cancellable/);
    const katherine = participants.find((p: Json) => p.company_id === 2);
    assert.equal(katherine.profile_key, 'wk_globex_profile');
    // Every listed profile key really signs its participant in.
    for (const p of participants) {
      assert.equal((await login(p.email, { key: p.profile_key })).status, 202);
      assert.equal((await svc.outbox(p.email)).length, 1, p.email);
    }
  });
});
