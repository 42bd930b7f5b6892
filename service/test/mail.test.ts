/**
 * Real email: the service's mail worker hands every message to a real SMTP server on loopback, in
 * the visitor's language, as text and HTML, from the company's name; a slow or failing server never
 * slows or fails a request and loses nothing.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, beforeEach, describe, test } from 'node:test';
import { MAX_ATTEMPTS, retryWait } from '../core/mail.ts';
import { LOCAL_PAGE, registrationBody, startTestService, uniqueKey, writeHeaders, type TestService } from './helpers.ts';
import { recipient, startSmtp, type TestSmtp } from './smtp.ts';

const FROM = 'bookings@service.example';
let smtp: TestSmtp;
let svc: TestService;
let log = '';

before(async () => {
  smtp = await startSmtp();
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  svc = await startTestService({ smtp: { url: smtp.url, from: FROM }, logDestination: destination });
});
after(async () => {
  await svc.close();
  await smtp.close();
});
beforeEach(async () => {
  smtp.mode = 'accept';
  smtp.skip();
  assert.equal((await svc.postJson('/dev/reset')).status, 200);
});

const register = (email: string, headers: Record<string, string> = {}) =>
  svc.postJson('/widget-api/v1/registrations?key=wk_demo_registration', registrationBody({ email }), {
    ...writeHeaders(uniqueKey()),
    ...headers,
  });

/** The outbox row of the newest email to an address, as the development outbox shows it. */
const queued = async (to: string) => (await svc.outbox(to))[0];

describe('mail through SMTP', () => {
  test('a registration’s confirmation reaches the SMTP server: from the company, text and HTML, and the outbox says sent', async () => {
    const res = await register('ada.smtp@example.org');
    assert.equal(res.status, 201);
    await svc.runMail();
    const mail = await smtp.next();
    assert.deepEqual(mail.from?.value, [{ address: FROM, name: 'Acme Academy' }]);
    assert.equal(recipient(mail), 'ada.smtp@example.org');
    assert.match(mail.subject ?? '', /^Registration confirmed: /);
    assert.match(mail.text ?? '', /^Hello Ada,/);
    // A class that costs money, and nothing paid: who says how to pay.
    assert.match(
      mail.text ?? '',
      /you have a place in "Web accessibility in practice"\. Acme Academy will tell you how to pay for it\./,
    );
    assert.match(mail.text ?? '', new RegExp(`Reference: ${res.body.registration.id}`));
    assert.match(String(mail.html), /<html lang="en">/);
    assert.match(String(mail.html), /<p>Hello Ada,<\/p>/);
    assert.equal(mail.headers.get('content-language'), 'en');
    assert.deepEqual((({ status, attempts }) => ({ status, attempts }))(await queued('ada.smtp@example.org')), {
      status: 'sent',
      attempts: 1,
    });
  });

  test('in the visitor’s language: a German page’s registration and sign-in PIN come in German', async () => {
    assert.equal((await register('ada.de@example.org', { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.5' })).status, 201);
    await svc.runMail();
    const confirmation = await smtp.next();
    assert.match(confirmation.subject ?? '', /^Anmeldung bestätigt: /);
    assert.match(confirmation.text ?? '', /^Hallo Ada,/);
    assert.match(confirmation.text ?? '', /Acme Academy teilt Ihnen mit, wie Sie ihn bezahlen\./);
    assert.match(String(confirmation.html), /<html lang="de">/);

    // The participant's language is kept: the sign-in PIN later, from a page of either language.
    const login = await svc.postJson(
      '/widget-api/v1/participant/login?key=wk_demo_profile',
      { email: 'ada.de@example.org', return_url: `${LOCAL_PAGE}/account` },
      { Origin: LOCAL_PAGE, 'Accept-Language': 'de' },
    );
    assert.equal(login.status, 202);
    await svc.jobs.idle();
    await svc.runMail();
    const pin = await smtp.next();
    assert.match(pin.text ?? '', /Hallo Ada/);
    assert.ok((pin.text ?? '').includes((await queued('ada.de@example.org')).pin), 'the PIN is in the email');
  });

  test('only the service’s own addresses are links in the HTML: a web address typed into a name stays text; the sign-in link is one', async () => {
    const res = await svc.postJson(
      '/widget-api/v1/registrations?key=wk_demo_registration',
      registrationBody({ email: 'prize.victim@example.org', first_name: 'Claim your prize at https://evil.example/win' }),
      writeHeaders(uniqueKey()),
    );
    assert.equal(res.status, 201);
    await svc.runMail();
    const confirmation = await smtp.next();
    assert.match(confirmation.text ?? '', /Hello Claim your prize at https:\/\/evil\.example\/win,/);
    assert.match(String(confirmation.html), /Hello Claim your prize at https:\/\/evil\.example\/win,/);
    assert.doesNotMatch(String(confirmation.html), /<a /);

    const login = await svc.postJson(
      '/widget-api/v1/participant/login?key=wk_demo_profile',
      { email: 'prize.victim@example.org', return_url: `${LOCAL_PAGE}/account` },
      { Origin: LOCAL_PAGE },
    );
    assert.equal(login.status, 202);
    await svc.jobs.idle();
    await svc.runMail();
    const signIn = await smtp.next();
    const link = (await queued('prize.victim@example.org')).link!;
    assert.ok(link.startsWith(`${LOCAL_PAGE}/account`), link);
    assert.ok(String(signIn.html).includes(`<a href="${link.replaceAll('&', '&amp;')}">`), String(signIn.html));
    assert.equal([...String(signIn.html).matchAll(/<a /g)].length, 1);
  });

  test('a slow mail server never holds an answer: the registration is answered while its email waits at the server', async () => {
    smtp.mode = 'hold';
    const first = await register('slow.one@example.org');
    assert.equal(first.status, 201);
    const sending = svc.runMail();
    await smtp.whenHeld();
    // The server holds the first message: the service still answers, and takes the next booking.
    const second = await register('slow.two@example.org');
    assert.equal(second.status, 201);
    assert.equal((await svc.fetch('/readyz')).status, 200);
    assert.equal((await queued('slow.one@example.org')).status, 'queued');
    smtp.mode = 'accept';
    smtp.release();
    await sending;
    await svc.runMail();
    assert.deepEqual((await Promise.all([smtp.next(), smtp.next()])).map(recipient).sort(), [
      'slow.one@example.org',
      'slow.two@example.org',
    ]);
  });

  test('a refusing mail server: retried later and later on the service clock, given up after eight tries and logged; none lost before', async () => {
    smtp.mode = 'refuse';
    assert.equal((await register('refused@example.org')).status, 201);
    await svc.runMail();
    let row = await queued('refused@example.org');
    assert.deepEqual([row.status, row.attempts], ['queued', 1]);
    assert.match(row.last_error, /451 Mailbox busy/);

    // Not tried again before its wait (30 s), then after each doubled wait.
    await svc.runMail();
    assert.equal((await queued('refused@example.org')).attempts, 1);
    for (let attempts = 1; attempts < MAX_ATTEMPTS - 1; attempts++) {
      await svc.advance(retryWait(attempts) / 1000 - 1);
      await svc.runMail();
      assert.equal((await queued('refused@example.org')).attempts, attempts, `not before ${retryWait(attempts) / 1000} s`);
      await svc.advance(1);
      await svc.runMail();
      assert.equal((await queued('refused@example.org')).attempts, attempts + 1);
    }
    // The server takes mail again: the message is delivered at its next try, nothing was lost.
    smtp.mode = 'accept';
    await svc.advance(retryWait(MAX_ATTEMPTS - 1) / 1000);
    await svc.runMail();
    row = await queued('refused@example.org');
    assert.deepEqual([row.status, row.attempts], ['sent', MAX_ATTEMPTS]);
    assert.equal(recipient(await smtp.next()), 'refused@example.org');

    // One that keeps failing is marked failed at its eighth try, and the log says so (not what it said).
    smtp.mode = 'refuse';
    assert.equal((await register('given.up@example.org')).status, 201);
    for (let attempts = 1; attempts <= MAX_ATTEMPTS; attempts++) {
      await svc.runMail();
      await svc.advance(retryWait(attempts) / 1000);
    }
    row = await queued('given.up@example.org');
    assert.deepEqual([row.status, row.attempts], ['failed', MAX_ATTEMPTS]);
    assert.match(log, new RegExp(`email ${row.id} given up after ${MAX_ATTEMPTS} attempts: .*451 Mailbox busy`));
    assert.ok(!log.includes(row.text.split('\n')[0]), 'the log holds no email body');
  });

  test('a mailbox that does not exist (550) is not tried again; the log says so once, without the address', async () => {
    smtp.mode = 'reject';
    assert.equal((await register('nobody.here@example.org')).status, 201);
    await svc.runMail();
    const row = await queued('nobody.here@example.org');
    assert.deepEqual([row.status, row.attempts], ['failed', 1]);
    assert.match(log, new RegExp(`email ${row.id} given up after 1 attempt: .*550 <<address>>: Recipient address rejected`));
    assert.ok(!log.includes('nobody.here@example.org'), 'no email address in the log');
  });

  test('every failed try is logged when it happens, not an hour later', async () => {
    smtp.mode = 'refuse';
    assert.equal((await register('soon.told@example.org')).status, 201);
    await svc.runMail();
    const row = await queued('soon.told@example.org');
    assert.match(
      log,
      new RegExp(`email ${row.id} not sent \\(attempt 1 of ${MAX_ATTEMPTS}, next in 30 s\\): .*451 Mailbox busy`),
    );
  });
});
