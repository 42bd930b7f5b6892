/**
 * The widget API says what a visitor can fix in a form in the widget's language (`Accept-Language`,
 * which the widgets send with every write); a developer's faults and the REST API stay English.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  LOCAL_PAGE,
  participantToken,
  registrationBody,
  uniqueKey,
  useTestService,
  visitorAddress,
  writeHeaders,
  type Json,
} from './helpers.ts';

// This machine stands for a proxy, so that each write comes from a visitor of its own.
const svc = useTestService({ trustProxy: ['127.0.0.1'] });

/** A widget API write as a widget in `language` sends it. */
const write = (path: string, body: unknown, language: string | undefined, headers: Record<string, string> = {}) =>
  svc.json(`/widget-api/v1/${path}`, {
    method: 'POST',
    headers: {
      ...writeHeaders(uniqueKey()),
      'X-Forwarded-For': visitorAddress(),
      ...(language ? { 'Accept-Language': language } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });

const fieldsOf = (res: { status: number; body: Json }) => {
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.equal(res.body.error.code, 'validation');
  return res.body.error.fields as Record<string, string>;
};

/** A registration a visitor got wrong in every field they fill in. */
const WRONG = registrationBody({ first_name: '42', last_name: ' ', email: 'ada@', phone: 'call me', consent: false });

describe('a form’s faults in the widget’s language', () => {
  test('a German widget’s registration: every field’s fault in German, at once', async () => {
    assert.deepEqual(fieldsOf(await write('registrations?key=wk_demo_registration', WRONG, 'de')), {
      first_name: '„Vorname“ braucht mindestens einen Buchstaben.',
      last_name: 'Geben Sie Ihren Nachnamen ein.',
      email: 'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.org.',
      phone: 'Die Telefonnummer darf nur Ziffern, Leerzeichen und + ( ) - . / enthalten.',
      consent: 'Stimmen Sie den Bedingungen zu, um sich anzumelden.',
    });
  });

  test('English for an English widget, a browser’s other language, or none', async () => {
    const english = {
      first_name: 'First name needs at least one letter.',
      last_name: 'Enter your last name.',
      email: 'Enter a valid email address, like name@example.org.',
      phone: 'Use digits, spaces and + ( ) - . / only in the phone number.',
      consent: 'Agree to the terms to register.',
    };
    for (const language of ['en', 'fr-FR,fr;q=0.9', undefined])
      assert.deepEqual(fieldsOf(await write('registrations?key=wk_demo_registration', WRONG, language)), english, language);
    // A browser's list names German first: German.
    const browser = fieldsOf(await write('registrations?key=wk_demo_registration', WRONG, 'de-DE,de;q=0.9,en;q=0.8'));
    assert.equal(browser.last_name, 'Geben Sie Ihren Nachnamen ein.');
  });

  test('one fault: the message is the field’s, in German too', async () => {
    const res = await write('registrations?key=wk_demo_registration', registrationBody({ last_name: 'Hopper\u202e' }), 'de');
    assert.deepEqual(fieldsOf(res), {
      last_name: 'Entfernen Sie aus „Nachname“ die unsichtbaren Zeichen, die die Schreibrichtung ändern.',
    });
    assert.equal(res.body.error.message, res.body.error.fields.last_name);
  });

  test('a class refused (started) is German too', async () => {
    const seed = (await svc.json('/dev/seed')).body;
    const res = await write('registrations?key=wk_demo_registration', registrationBody({ class_id: seed.classes.past }), 'de');
    assert.equal(fieldsOf(res).class_id, 'Dieser Termin hat schon begonnen. Wählen Sie einen kommenden Termin.');
  });

  test('a developer’s faults stay English: a wrong type, an unknown field', async () => {
    const fields = fieldsOf(
      await write('registrations?key=wk_demo_registration', registrationBody({ first_name: 42, price: 0 }), 'de'),
    );
    assert.equal(fields.first_name, 'First name must be text (a JSON string).');
    assert.match(fields.price!, /^Unknown field "price": remove it\./);
  });

  test('the contact form in German: name, subject, a short message, consent', async () => {
    const { body } = await svc.firstRender('wk_demo_contact', 'contact');
    const fields = fieldsOf(
      await write(
        'contact-messages?key=wk_demo_contact',
        { name: '', email: 'ada@example.org', subject: '', message: 'Hallo', consent: false, form_token: body.form.token },
        'de',
      ),
    );
    assert.deepEqual(fields, {
      name: 'Geben Sie Ihren Namen ein.',
      subject: 'Geben Sie einen Betreff ein: Worum geht es in Ihrer Nachricht?',
      message: 'Schreiben Sie mindestens 10 Zeichen in Ihre Nachricht.',
      consent: 'Stimmen Sie zu, dass wir Ihre Nachricht speichern, um sie zu beantworten.',
    });
  });

  test('the checkout’s details in German: an attendee, the buyer, the billing address, consent', async () => {
    const fields = fieldsOf(
      await write(
        'orders?key=wk_demo_checkout',
        {
          items: [{ class_id: 'cls_web_2', seats: 1, attendees: [{ first_name: 'Grace', last_name: '' }] }],
          buyer: {
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: 'ada.example.org',
            phone: '+49 (30) 1234-567 ext. 8',
            organisation: 'x'.repeat(201),
            address: { line1: '', postal_code: '', city: '', country: undefined },
          },
          payment_method: 'invoice',
          consent: false,
          return_url: `${LOCAL_PAGE}/checkout`,
        },
        'de',
      ),
    );
    assert.deepEqual(fields, {
      'items.0.attendees.0.last_name': 'Geben Sie Ihren Nachnamen ein.',
      'buyer.email': 'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.org.',
      'buyer.phone': 'Die Telefonnummer darf nur Ziffern, Leerzeichen und + ( ) - . / enthalten.',
      'buyer.organisation': 'Kürzen Sie „Organisation“ auf höchstens 200 Zeichen.',
      'buyer.address.line1': 'Geben Sie Straße und Hausnummer ein.',
      'buyer.address.postal_code': 'Geben Sie die Postleitzahl ein.',
      'buyer.address.city': 'Geben Sie den Ort ein.',
      'buyer.address.country': 'Wählen Sie das Land.',
      consent: 'Stimmen Sie den Bedingungen zu, um die Bestellung aufzugeben.',
    });
  });

  test('the profile in German: the sign-in’s email and PIN, the details’ name', async () => {
    const login = { email: 'ada@', return_url: `${LOCAL_PAGE}/account` };
    const headers = { Origin: LOCAL_PAGE };
    assert.deepEqual(fieldsOf(await write('participant/login?key=wk_demo_profile', login, 'de', headers)), {
      email: 'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.org.',
    });
    assert.deepEqual(
      fieldsOf(await write('participant/verify?key=wk_demo_profile', { email: 'ada@example.org', pin: '12' }, 'de')),
      {
        pin: 'Geben Sie die 6 Ziffern der PIN aus der E-Mail ein.',
      },
    );
    const token = await participantToken(svc, 'ada@example.org');
    const details = { first_name: '!', last_name: 'Lovelace', email: 'ada@example.org', phone: '' };
    assert.deepEqual(
      fieldsOf(await write('participant/profile?key=wk_demo_profile', details, 'de', { 'X-Service-Token': token })),
      { first_name: '„Vorname“ braucht mindestens einen Buchstaben.' },
    );
  });

  test('the REST API answers English, whatever the caller’s language', async () => {
    const res = await svc.postJson(
      '/v1/login',
      { login: 'olivia@', verification_method: 'email' },
      { 'X-SERVICE-API-KEY': 'rk_demo_acme', 'Accept-Language': 'de' },
    );
    assert.deepEqual(fieldsOf(res), { login: 'Enter a valid email address, like name@example.org.' });
  });

  test('/openapi.json names the header on the widget API’s writes, and says which messages follow it', async () => {
    const doc = (await svc.json('/openapi.json')).body;
    assert.equal(doc.components.parameters.AcceptLanguage.name, 'Accept-Language');
    for (const [path, operation] of [
      ['/widget-api/v1/registrations', 'post'],
      ['/widget-api/v1/contact-messages', 'post'],
      ['/widget-api/v1/orders', 'post'],
      ['/widget-api/v1/participant/login', 'post'],
      ['/widget-api/v1/participant/profile', 'post'],
    ] as const)
      assert.ok(
        doc.paths[path][operation].parameters.some((p: Json) => p.$ref === '#/components/parameters/AcceptLanguage'),
        path,
      );
    assert.match(doc.info.description, /The REST API says them in English\. The widget API says what a visitor can fix/);
  });
});
