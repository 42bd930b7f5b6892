import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FOREIGN_PAGE, LOCAL_PAGE, useTestService, uniqueKey, writeHeaders, type Json } from './helpers.ts';

const KEY = 'wk_demo_contact';
const PATH = `/widget-api/v1/contact-messages?key=${KEY}`;

const svc = useTestService();

const firstRender = async (key = KEY): Promise<Json> => {
  const res = await svc.firstRender(key, 'contact');
  assert.equal(res.status, 200);
  return res.body;
};
/** A form token shown long enough ago to send. */
const readyToken = async (key = KEY): Promise<string> => {
  const { form } = await firstRender(key);
  await svc.advance(form.min_fill_ms / 1000);
  return form.token;
};
const message = (token: string, overrides: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  subject: 'A question about invoices',
  topic: 'Invoices',
  message: 'Could you send the invoice again, with our VAT number on it?',
  consent: true,
  website: '',
  form_token: token,
  ...overrides,
});
const send = (body: unknown, idem = uniqueKey(), path = PATH, origin = LOCAL_PAGE) =>
  svc.json(path, { method: 'POST', headers: writeHeaders(idem, origin), body: JSON.stringify(body) });
const stored = async (spam?: 0 | 1) =>
  spam === undefined
    ? await svc.count('SELECT count(*) FROM contact_messages')
    : await svc.count('SELECT count(*) FROM contact_messages WHERE spam = ?', spam);
/** A company's notifications of contact messages (Acme's by default). */
const notifications = (to = 'hello@acme.example') => svc.outbox(to);

describe('GET /widget?type=contact', () => {
  test('answers the topics and a signed form token with its minimum fill time', async () => {
    const body = await firstRender();
    assert.deepEqual(body.widget, {
      type: 'contact',
      company: { id: 'c_acme', name: 'Acme Academy' },
      options: { topics: ['Programmes', 'Invoices', 'Something else'] },
    });
    assert.equal(body.form.min_fill_ms, 1500);
    assert.equal(typeof body.form.token, 'string');
    assert.notEqual((await firstRender()).form.token, body.form.token, 'a new token per render');
    assert.equal(body.courses, undefined);
  });

  test('/dev/seed names the topics and where notifications go', async () => {
    const seed = (await svc.json('/dev/seed')).body;
    const key = seed.widget_keys.find((k: Json) => k.key === KEY);
    assert.deepEqual(key.options.topics, (await firstRender()).widget.options.topics);
    assert.equal(seed.companies.find((c: Json) => c.public_id === 'c_acme').contact_email, 'hello@acme.example');
  });

  test('a widget without topics answers an empty list', async () => {
    const body = await firstRender('wk_globex_contact');
    assert.deepEqual(body.widget.options.topics, []);
  });
});

describe('POST /contact-messages', () => {
  test('stores the message and emails the company a plain-text notification', async () => {
    const res = await send(message(await readyToken()));
    assert.equal(res.status, 201);
    assert.match(res.body.message.id, /^msg_/);
    assert.ok(!Number.isNaN(Date.parse(res.body.message.created_at)));
    assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);
    assert.equal(await stored(0), 1);

    const [email] = await notifications();
    assert.equal(email.to, 'hello@acme.example');
    assert.match(email.subject, /A question about invoices/);
    for (const part of [
      'Ada Lovelace',
      'ada@example.org',
      'Invoices',
      'A question about invoices',
      'with our VAT number on it?',
    ]) {
      assert.ok(email.text.includes(part), part);
    }
    assert.ok(email.text.includes(res.body.message.id));
    assert.equal((await svc.outbox('ada@example.org')).length, 0, 'the sender is not emailed');
  });

  test('keeps line breaks, trims, and takes a message without a topic', async () => {
    const token = await readyToken();
    const res = await send(message(token, { topic: undefined, message: '  Line one\nLine two\n\tthree  ' }));
    assert.equal(res.status, 201);
    assert.equal(
      await svc.count('SELECT count(*) FROM contact_messages WHERE message = ? AND topic IS NULL', 'Line one\nLine two\n\tthree'),
      1,
    );
    assert.doesNotMatch((await notifications())[0].text, /Topic:/);
  });

  test('goes to the company of the key', async () => {
    const res = await send(
      message(await readyToken('wk_globex_contact'), { topic: null }),
      uniqueKey(),
      '/widget-api/v1/contact-messages?key=wk_globex_contact',
    );
    assert.equal(res.status, 201);
    assert.equal((await notifications('hello@globex.example')).length, 1);
    assert.equal((await notifications()).length, 0);
  });

  test('validates every field at once, and stores nothing', async () => {
    const token = await readyToken();
    const res = await send({
      name: '',
      email: 'ada@',
      subject: 'x'.repeat(151),
      topic: 'Weather',
      message: 'Too short',
      consent: false,
      form_token: token,
      extra: 1,
    });
    assert.equal(res.status, 422);
    assert.equal(res.body.error.code, 'validation');
    assert.deepEqual(Object.keys(res.body.error.fields).sort(), [
      'consent',
      'email',
      'extra',
      'message',
      'name',
      'subject',
      'topic',
    ]);
    assert.equal(await stored(), 0);
    assert.equal((await notifications()).length, 0);
  });

  test('each field’s own rule', async () => {
    const token = await readyToken();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: undefined }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'Ada\u0007' }, 'name'],
      [{ name: '\u200b'.repeat(20) }, 'name'],
      [{ name: 'Ada\u202egnp.exe' }, 'name'],
      [{ subject: '\u2067' }, 'subject'],
      [{ message: '\u200b'.repeat(20) }, 'message'],
      [{ email: undefined }, 'email'],
      [{ email: 'not an email' }, 'email'],
      [{ email: `${'a'.repeat(250)}@example.org` }, 'email'],
      [{ subject: undefined }, 'subject'],
      [{ subject: '' }, 'subject'],
      [{ subject: 'x'.repeat(151) }, 'subject'],
      [{ subject: 'Two\nlines' }, 'subject'],
      [{ topic: 'invoices' }, 'topic'],
      [{ topic: 3 }, 'topic'],
      [{ message: undefined }, 'message'],
      [{ message: '123456789' }, 'message'],
      [{ message: `         123456789        ` }, 'message'],
      [{ message: 'x'.repeat(5001) }, 'message'],
      [{ message: 'Hello there\u0000!' }, 'message'],
      [{ consent: undefined }, 'consent'],
      [{ consent: 'yes' }, 'consent'],
      [{ form_token: undefined }, 'form_token'],
      [{ form_token: '' }, 'form_token'],
    ];
    for (const [overrides, field] of cases) {
      const body = message(token, overrides);
      const res = await send(body);
      assert.equal(res.status, 422, JSON.stringify(overrides));
      assert.deepEqual(Object.keys(res.body.error.fields), [field], JSON.stringify(overrides));
    }
    // Each message sent hands out the form token of the next.
    let next = token;
    for (const overrides of [
      { name: 'x'.repeat(100) },
      { subject: 'x'.repeat(150) },
      { message: 'x'.repeat(5000) },
      { message: '1234567890' },
    ]) {
      const res = await send(message(next, overrides));
      assert.equal(res.status, 201, JSON.stringify(overrides).slice(0, 40));
      next = res.body.form.token;
      await svc.advance(res.body.form.min_fill_ms / 1000);
    }
    // A widget without topics takes none.
    const gx = await send(
      message(await readyToken('wk_globex_contact')),
      uniqueKey(),
      '/widget-api/v1/contact-messages?key=wk_globex_contact',
    );
    assert.equal(gx.status, 422);
    assert.deepEqual(Object.keys(gx.body.error.fields), ['topic']);
  });

  test('a forged, altered or another widget’s form token is 422 fields.form_token', async () => {
    const token = await readyToken();
    const [prefix, issued, nonce, mac] = token.split('.');
    const earlier = (parseInt(issued!, 36) - 60_000).toString(36);
    const otherWidget = await readyToken('wk_globex_contact');
    for (const forged of [
      'nonsense',
      `${prefix}.${earlier}.${nonce}.${mac}`,
      // Its last two characters changed, whatever they were (one in 256 tokens ends in "AA").
      `${prefix}.${issued}.${nonce}.${mac!.slice(0, -2)}${mac!.endsWith('AA') ? 'BB' : 'AA'}`,
      `${prefix}.${issued}.${nonce}`,
      otherWidget,
      'x'.repeat(300),
    ]) {
      const res = await send(message(token, { form_token: forged }));
      assert.equal(res.status, 422, forged);
      assert.deepEqual(Object.keys(res.body.error.fields), ['form_token']);
    }
    assert.equal(await stored(), 0);
  });

  test('sooner than min_fill_ms after the form was shown is 422 too-fast, saying how long to wait; then the same submission goes', async () => {
    const { form } = await firstRender();
    const idem = uniqueKey();
    const body = message(form.token);
    const fast = await send(body, idem);
    assert.equal(fast.status, 422);
    assert.equal(fast.body.error.code, 'too-fast');
    assert.equal(fast.body.error.fields, undefined);
    assert.ok(
      fast.body.error.retry_after_ms > 1000 && fast.body.error.retry_after_ms <= 1500,
      String(fast.body.error.retry_after_ms),
    );
    await svc.advance(1);
    const still = await send(body, idem);
    assert.equal(still.body.error.code, 'too-fast');
    assert.ok(still.body.error.retry_after_ms <= 500);
    assert.equal(await stored(), 0);
    assert.equal((await notifications()).length, 0);
    await svc.advance(still.body.error.retry_after_ms / 1000);
    assert.equal((await send(body, idem)).status, 201);
    assert.equal(await stored(), 1);
  });

  test('a form token sends one message; the answer carries the token of the next', async () => {
    const token = await readyToken();
    const first = await send(message(token));
    assert.equal(first.status, 201);
    assert.equal(typeof first.body.form.token, 'string');
    assert.equal(first.body.form.min_fill_ms, 1500);
    const again = await send(message(token, { subject: 'Once more' }));
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'form-token-used');
    assert.match(again.body.error.fields.form_token, /already sent a message/);
    // The honeypot does not get around it either.
    assert.equal((await send(message(token, { website: 'x' }))).status, 409);
    assert.equal(await stored(), 1);
    await svc.advance(2);
    assert.equal((await send(message(first.body.form.token, { subject: 'Once more' }))).status, 201);
    assert.equal(await stored(), 2);
  });

  test('a honeypot nested 5,000 levels deep is 400 bad-json, not a 500', async () => {
    const token = await readyToken();
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const body = JSON.stringify(message(token, { website: 'HOLE' })).replace('"HOLE"', deep);
    const res = await svc.json(PATH, { method: 'POST', headers: writeHeaders(uniqueKey()), body });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'bad-json');
    assert.equal(await stored(), 0);
  });

  test('rate limits: 5 messages per client address in 10 minutes, then 429 with Retry-After', async () => {
    let token = await readyToken();
    for (let i = 0; i < 5; i++) {
      const res = await send(message(token));
      assert.equal(res.status, 201, `message ${i + 1}`);
      token = res.body.form.token;
      await svc.advance(2);
    }
    const refused = await send(message(token));
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate-limited');
    assert.match(refused.body.error.message, /^Too many messages from here\. Try again in \d+ minutes?\.$/);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal(refused.body.error.retry_after, Number(refused.headers.get('retry-after')));
    assert.equal(await stored(), 5);
    await svc.advance(10 * 60);
    assert.equal((await send(message(token))).status, 201, 'the same form goes once the window has passed');
  });

  test('a filled honeypot answers 201 like any message, is kept as spam, and notifies nobody', async () => {
    const token = await readyToken();
    const res = await send(message(token, { website: 'https://cheap-pills.example' }));
    assert.equal(res.status, 201);
    assert.match(res.body.message.id, /^msg_/);
    assert.equal(await stored(1), 1);
    assert.equal(await stored(0), 0);
    assert.equal((await svc.outbox()).length, 0);
    // A robot that fills every field at once is not told about the fill time either.
    const { form } = await firstRender();
    assert.equal((await send(message(form.token, { website: 'x' }))).status, 201);
    assert.equal(await stored(1), 2);
  });

  test('idempotent: a retry answers the first message; another body under the key is 409', async () => {
    const token = await readyToken();
    const idem = uniqueKey();
    const first = await send(message(token), idem);
    assert.equal(first.status, 201);
    const retry = await send(message(token), idem);
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(retry.body, first.body);
    const reused = await send(message(token, { subject: 'Another one' }), idem);
    assert.equal(reused.status, 409);
    assert.equal(reused.body.error.code, 'idempotency-key-reused');
    assert.equal(await stored(), 1);
    assert.equal((await notifications()).length, 1);

    // A second message (a new submission) needs the new form token the first answer carried.
    await svc.advance(2);
    assert.equal((await send(message(first.body.form.token, { subject: 'Another one' }))).status, 201);
    assert.equal(await stored(), 2);

    const missing = await svc.json(PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: LOCAL_PAGE },
      body: JSON.stringify(message(token)),
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, 'missing-idempotency-key');
  });

  test('contact keys only, from the pages they serve', async () => {
    const token = await readyToken();
    const cases: [string, string, number, string][] = [
      ['/widget-api/v1/contact-messages', LOCAL_PAGE, 400, 'missing-key'],
      ['/widget-api/v1/contact-messages?key=wk_demo_profile', LOCAL_PAGE, 403, 'type-mismatch'],
      ['/widget-api/v1/contact-messages?key=wk_nope', LOCAL_PAGE, 401, 'invalid-key'],
      [PATH, FOREIGN_PAGE, 403, 'origin-not-allowed'],
    ];
    for (const [path, origin, status, code] of cases) {
      const res = await send(message(token), uniqueKey(), path, origin);
      assert.equal(res.status, status, `${path} ${origin}`);
      assert.equal(res.body.error.code, code);
    }
    assert.equal(await stored(), 0);
    const get = await svc.json(PATH);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST, OPTIONS');
  });

  test('the form token outlives a reset of the data (its secret is kept)', async () => {
    const token = await readyToken();
    await svc.fetch('/dev/reset', { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    await svc.advance(3);
    assert.equal((await send(message(token))).status, 201);
  });
});
