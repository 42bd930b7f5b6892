/**
 * The emails' words as a participant reads them, in English and German: times in the venue's zone,
 * named as the widgets name it (by its offset), and no raw timestamp anywhere.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cancelledEmail, confirmAddressEmail, registrationEmail, signInEmail, type MailLocale } from '../domain/emails.ts';

const LOCALES: MailLocale[] = ['en', 'de'];
/** An ISO time as the service keeps it ("2026-11-24T17:17:18.639Z"): no person's way of writing a time. */
const RAW_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d/;
// A Tuesday in winter (Berlin is GMT+1) and one in summer (GMT+2), at 18:00 in Berlin.
const WINTER = Date.parse('2026-12-01T17:00:00Z');
const SUMMER = Date.parse('2026-07-07T16:00:00Z');

describe('emails', () => {
  test('the sign-in email says how long its PIN and link are valid, in words of its language, with no raw time', () => {
    for (const locale of LOCALES) {
      for (const link of ['https://shop.example/account?key=ptok_x', null]) {
        const { text } = signInEmail(locale, {
          email: 'ada@example.org',
          first_name: 'Ada',
          name: 'Acme Academy',
          place: 'your account at Acme Academy',
          link,
          pin: '123456',
        });
        assert.doesNotMatch(text, RAW_TIME, text);
        assert.match(text, locale === 'de' ? /Sie gilt 5 Minuten/ : /valid for 5 minutes/, text);
      }
      const { text } = confirmAddressEmail(locale, {
        to: 'new@example.org',
        first_name: 'Ada',
        company: 'Acme Academy',
        link: null,
        pin: '123456',
      });
      assert.doesNotMatch(text, RAW_TIME, text);
    }
  });

  test('a class’s time is in its venue’s zone, named by its offset in English and German, winter and summer', () => {
    const cls = (starts_at: number) => ({
      starts_at,
      timezone: 'Europe/Berlin',
      location: 'Berlin, Torstraße 1',
      price_amount: 0,
      currency: 'EUR',
    });
    const person = {
      id: 'reg_1',
      first_name: 'Ada',
      email: 'ada@example.org',
      status: 'confirmed' as const,
      course: 'Open day',
      company: 'Acme Academy',
    };
    const expected = {
      en: ['When:  Tuesday, 1 December 2026 at 18:00 GMT+1', 'When:  Tuesday, 7 July 2026 at 18:00 GMT+2'],
      de: ['Wann: Dienstag, 1. Dezember 2026 um 18:00 GMT+1', 'Wann: Dienstag, 7. Juli 2026 um 18:00 GMT+2'],
    };
    for (const locale of LOCALES) {
      const [winter, summer] = [WINTER, SUMMER].map((at) => registrationEmail(locale, { ...person, cls: cls(at) }).text);
      assert.ok(winter!.includes(expected[locale][0]!), winter);
      assert.ok(summer!.includes(expected[locale][1]!), summer);
      assert.doesNotMatch(winter!, /Europe\/Berlin|MEZ|CET/);
      const cancelled = cancelledEmail(locale, {
        id: 'reg_1',
        first_name: 'Ada',
        email: 'ada@example.org',
        title: 'Open day',
        company: 'Acme Academy',
        waitlisted: false,
        cls: cls(WINTER),
      }).text;
      assert.ok(cancelled.includes(expected[locale][0]!), cancelled);
    }
  });
});
