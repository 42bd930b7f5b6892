import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { readSession, writeSession } from '../shared/session.ts';
import {
  darkPage,
  dev,
  expectFaults,
  failOnWarnings,
  FORM_WORDS,
  keyOf,
  ownMethods,
  placeOrder,
  service,
  settled,
  textOf,
  until,
} from '../../test/browser/support.ts';
// The page-wide journey needs a registration widget beside the profile, as on a customer's page.
import '../registration/registration.ts';
import type { ServiceRegistration } from '../registration/registration.ts';
import './profile.ts';
import type { ServiceProfile } from './profile.ts';

failOnWarnings();

const COMPANY = 'c_acme';
const ADA = 'ada@example.org';
const GRACE = 'grace@example.org';

const mount = (attrs: { locale?: string; fetch?: typeof fetch } = {}) =>
  fixture<ServiceProfile>(
    html`<service-profile key=${keyOf('profile')} base-url=${service.url} locale=${attrs.locale ?? 'en'} .fetch=${attrs.fetch}></service-profile>`,
  );

type Root = ServiceProfile | ServiceRegistration;
const $ = <T extends Element = HTMLElement>(el: Root, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const $$ = <T extends Element = HTMLElement>(el: Root, selector: string) => [...el.shadowRoot!.querySelectorAll<T>(selector)];
const has = (el: Root, selector: string) => !!el.shadowRoot!.querySelector(selector);
const buttonNamed = (el: Root, name: string) => $$<HTMLButtonElement>(el, 'button').find((b) => b.textContent!.trim() === name);
const click = (el: Root, name: string) => {
  const button = buttonNamed(el, name);
  if (!button) throw new Error(`No button “${name}” in: ${textOf(el)}`);
  button.click();
};
/** What has the focus in the widget: `#id` of a field, else its text (a failed check prints a string, not a DOM node). */
const focused = (el: Root) => {
  const active = el.shadowRoot!.activeElement;
  return active && (active.id ? `#${active.id}` : active.textContent!.trim());
};

const untilText = (el: Root, text: string) => until(() => textOf(el).includes(text), `“${text}” in: ${textOf(el)}`);

/** Types into a field as a person would (an `input` event). */
const type = async (el: Root, id: string, value: string) => {
  const input = $<HTMLInputElement>(el, `#${id}`);
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await el.updateComplete;
};
const submit = (el: Root) => $<HTMLButtonElement>(el, 'form button:not([type=button])').click();

interface Email {
  to: string;
  subject: string;
  text: string;
  link: string | null;
  pin: string | null;
}
const emailsTo = async (to: string) => (await dev<{ emails: Email[] }>(`outbox?to=${encodeURIComponent(to)}`)).emails;
const lastSignInEmail = async (to: string) => (await emailsTo(to)).find((e) => e.pin)!;
const otherPin = (pin: string) => String((Number(pin) + 1) % 1_000_000).padStart(6, '0');

let n = 0;
/**
 * A participant of Acme of this test alone (a registration makes one), so that tests neither share
 * PINs nor meet the service's 5 sign-ins per email in 10 minutes. They register for cls_data_3 (30
 * places), which no other widget's tests book: in cls_data_2 they filled the class that the
 * checkout's tests buy, when this file ran first.
 */
const newParticipant = async (first = 'Mary', email = `profile-${Date.now()}-${n++}@example.org`) => {
  const answer = await fetch(`${service.url}widget-api/v1/registrations?key=${keyOf('registration')}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({ class_id: 'cls_data_3', first_name: first, last_name: 'Jackson', email, consent: true }),
  });
  expect(answer.status).to.equal(201);
  return email;
};

/**
 * An order of `seats` seats of a class by `email` through the checkout's widget API (by invoice, or
 * by card: then it waits for its payment).
 */
const orderFor = async (email: string, classId: string, seats: number, paymentMethod: 'invoice' | 'card' = 'invoice') =>
  (
    await placeOrder(classId, seats, {
      buyer: { first_name: 'Kay', last_name: 'Jackson', email },
      attendees: [
        { first_name: 'Kay', last_name: 'Jackson' },
        { first_name: 'Lee', last_name: 'Jackson' },
      ].slice(0, seats),
      paymentMethod,
    })
  ).order;

/** Asks for a PIN: the email step, then the PIN step with the focus in the PIN field. */
const requestPin = async (el: ServiceProfile, email: string) => {
  await type(el, 'email', email);
  submit(el);
  await until(() => has(el, '#pin'), 'the PIN step');
  await el.updateComplete;
};

const enterPin = async (el: ServiceProfile, pin: string) => {
  await type(el, 'pin', pin);
  submit(el);
};

/** Signs in through the widget with the emailed PIN; resolves with the login event. */
const signIn = async (el: ServiceProfile, email: string) => {
  await requestPin(el, email);
  const login = oneEvent(el, 'service-profile-login');
  await enterPin(el, (await lastSignInEmail(email)).pin!);
  const event = await login;
  await el.updateComplete;
  return event;
};

/** Calls the participant API as the widget does, to see what the service thinks of a token. */
const me = (token: string) =>
  fetch(`${service.url}widget-api/v1/participant/me?key=${keyOf('profile')}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Service-Token': token },
    body: '{}',
  });

/** Records the events of one type that reach the element's listeners. */
const spyEvents = (el: Element, type: string) => {
  const seen: Event[] = [];
  el.addEventListener(type, (e) => seen.push(e));
  return seen;
};

const storedToken = () => readSession(service.url, COMPANY)?.token;

describe('service-profile', () => {
  afterEach(() => {
    writeSession(service.url, COMPANY, undefined);
    const url = new URL(location.href);
    if (url.searchParams.has('key')) {
      url.searchParams.delete('key');
      history.replaceState(history.state, '', url);
    }
  });

  it('asks for an email first, without taking the focus from the page, and is accessible', async () => {
    const el = await settled(await mount());
    expect(textOf(el)).to.contain('Your account at Acme Academy');
    expect(textOf(el)).to.contain('we will send you a PIN');
    const email = $<HTMLInputElement>(el, '#email');
    expect($(el, 'label[for=email]').textContent).to.equal('Email');
    expect(email.type).to.equal('email');
    expect(email.autocomplete).to.equal('email');
    expect(email.required).to.equal(true);
    // A wide page does not stretch the button across it.
    const button = $<HTMLButtonElement>(el, 'form > button');
    expect(button.getBoundingClientRect().width).to.be.below(el.getBoundingClientRect().width / 2);
    expect(buttonNamed(el, 'Send PIN')).not.to.equal(undefined);
    expect(focused(el)).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('signs Ada in with the emailed PIN, fires service-profile-login, and shows her details and classes', async () => {
    const el = await settled(await mount());
    await requestPin(el, ADA);
    expect(textOf(el)).to.contain('Check your email');
    expect(textOf(el)).to.contain(`If ${ADA} belongs to an account, we have sent it a 6-digit PIN`);
    const pin = $<HTMLInputElement>(el, '#pin');
    expect(focused(el)).to.equal('#pin');
    expect($(el, 'label[for=pin]').textContent).to.equal('PIN');
    expect(pin.autocomplete).to.equal('one-time-code');
    expect(pin.inputMode).to.equal('numeric');
    await expect(el).to.be.accessible();

    const email = await lastSignInEmail(ADA);
    expect(email.pin).to.match(/^\d{6}$/);
    // The emailed link leads back to this page.
    expect(email.link!.startsWith(location.origin + location.pathname)).to.equal(true);
    const login = oneEvent(el, 'service-profile-login');
    // Pasted with a space in the middle, as some mail programs show it.
    await enterPin(el, `${email.pin!.slice(0, 3)} ${email.pin!.slice(3)}`);
    const event = await login;
    expect(event.detail).to.deep.equal({ id: 'p_ada' });
    expect(event.bubbles && event.composed).to.equal(true);
    await el.updateComplete;

    const text = textOf(el);
    expect(text).to.contain('Hello Ada');
    expect(focused(el)).to.equal('Hello Ada');
    expect(text).to.contain('Ada Lovelace');
    expect(text).to.contain(ADA);
    expect(text).to.contain('+44 20 7946 0001');
    const [upcoming, past] = $$(el, 'ul');
    expect(upcoming!.textContent).to.contain('TypeScript for teams');
    expect(upcoming!.textContent).to.contain('Hamburg, Am Sandtorkai 4');
    expect(past!.textContent).to.contain('Web accessibility in practice');
    expect(past!.textContent).to.contain('Berlin');
    // Dates with the weekday and year, in the venue's time zone.
    expect(upcoming!.textContent).to.match(/\d{4}/);
    // Only the upcoming class can be cancelled.
    expect(upcoming!.querySelectorAll('button')).to.have.length(1);
    expect(past!.querySelectorAll('button')).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('sends one PIN however often “Send PIN” is clicked, and goes back to another email', async () => {
    const email = await newParticipant();
    const el = await settled(await mount());
    await type(el, 'email', email);
    submit(el);
    submit(el); // a double click
    await el.updateComplete;
    expect($<HTMLButtonElement>(el, 'form button').disabled).to.equal(true);
    await until(() => has(el, '#pin'), 'the PIN step');
    expect((await emailsTo(email)).filter((e) => e.pin)).to.have.length(1);

    click(el, 'Use another email');
    await el.updateComplete;
    expect(focused(el)).to.equal('Your account at Acme Academy');
    expect($<HTMLInputElement>(el, '#email').value).to.equal(email);
    await expect(el).to.be.accessible();
  });

  it('says a wrong PIN is wrong with the tries left, counting down, keeps the PIN step, and then takes the right one', async () => {
    const email = await newParticipant();
    const el = await settled(await mount());
    await requestPin(el, email);
    const { pin } = await lastSignInEmail(email);
    for (const left of [4, 3]) {
      await enterPin(el, otherPin(pin!));
      await untilText(el, `That PIN is not right. Tries left: ${left}.`);
      // Said once, above the button (announced), with the field marked and focused.
      expect($(el, '#form-error').textContent!.trim()).to.equal(`That PIN is not right. Tries left: ${left}.`);
      expect(textOf(el).split('That PIN').length).to.equal(2);
      expect($(el, '#pin').getAttribute('aria-invalid')).to.equal('true');
      // ... and described by it: a screen reader on the field hears why.
      expect($(el, '#pin').getAttribute('aria-describedby')).to.equal('form-error');
      expect(focused(el)).to.equal('#pin');
      expect(buttonNamed(el, 'Send a new PIN')).not.to.equal(undefined);
      await expect(el).to.be.accessible();
    }
    const login = oneEvent(el, 'service-profile-login');
    await enterPin(el, pin!);
    await login;
    await el.updateComplete;
    expect(textOf(el)).to.contain('Hello Mary');
  });

  it('says when a PIN is from an earlier email, and the latest one works', async () => {
    const email = await newParticipant();
    const el = await settled(await mount());
    await requestPin(el, email);
    const first = (await lastSignInEmail(email)).pin!;
    click(el, 'Send a new PIN');
    await untilText(el, 'A new PIN is on its way.');
    const latest = (await lastSignInEmail(email)).pin!;
    if (first !== latest) {
      await enterPin(el, first);
      await untilText(el, 'This is not the PIN of the latest email we sent. Enter that one, or send a new one.');
      expect($(el, '#pin').getAttribute('aria-invalid')).to.equal('true');
      await expect(el).to.be.accessible();
    }
    const login = oneEvent(el, 'service-profile-login');
    await enterPin(el, latest);
    await login;
  });

  it('says when there were too many wrong tries, and a new PIN works', async () => {
    const email = await newParticipant();
    const el = await settled(await mount());
    await requestPin(el, email);
    const { pin } = await lastSignInEmail(email);
    for (let i = 0; i < 4; i++) {
      await enterPin(el, otherPin(pin!));
      await untilText(el, `Tries left: ${4 - i}.`);
    }
    await enterPin(el, otherPin(pin!));
    await untilText(el, 'Too many wrong tries: this PIN no longer works. Send a new one.');
    await expect(el).to.be.accessible();
    // Even the right PIN is dead now.
    await enterPin(el, pin!);
    await until(() => !$<HTMLButtonElement>(el, 'form button').disabled);
    expect(textOf(el)).to.contain('Too many wrong tries');

    click(el, 'Send a new PIN');
    await untilText(el, 'A new PIN is on its way.');
    expect(textOf(el)).not.to.contain('Too many wrong tries');
    expect($<HTMLInputElement>(el, '#pin').value).to.equal('');
    expect($(el, '#pin').getAttribute('aria-invalid')).to.equal('false');
    expect(focused(el)).to.equal('#pin');
    await expect(el).to.be.accessible();
    const fresh = await lastSignInEmail(email);
    expect(fresh.pin).to.match(/^\d{6}$/);
    const login = oneEvent(el, 'service-profile-login');
    await enterPin(el, fresh.pin!);
    await login;
  });

  it('says when a PIN has expired (5 minutes on the service clock), and a new PIN works', async () => {
    // On the strict service, whose clock this moves: on the shared one it would expire the PINs of
    // another file's test running beside (the video's sign-in). Nobody else signs Grace in there.
    const strict = { strict: true };
    const signInEmails = async () =>
      (await dev<{ emails: Email[] }>(`outbox?to=${encodeURIComponent(GRACE)}`, undefined, strict)).emails.filter((e) => e.pin);
    const el = await settled(
      await fixture<ServiceProfile>(
        html`<service-profile key=${keyOf('profile')} base-url=${service.strict} locale="en"></service-profile>`,
      ),
    );
    try {
      await requestPin(el, GRACE);
      const [{ pin }] = await signInEmails();
      await dev('clock', { advance_s: 301 }, strict);
      await enterPin(el, pin!);
      await untilText(el, 'This PIN has expired. Send a new one.');
      expect($(el, '#pin').getAttribute('aria-invalid')).to.equal('true');
      await expect(el).to.be.accessible();

      const before = (await signInEmails()).length;
      click(el, 'Send a new PIN');
      await untilText(el, 'A new PIN is on its way.');
      const emails = await signInEmails();
      expect(emails.length).to.equal(before + 1);
      const login = oneEvent(el, 'service-profile-login');
      await enterPin(el, emails[0]!.pin!);
      await login;
    } finally {
      writeSession(service.strict, COMPANY, undefined);
    }
  });

  it('says when a PIN was used already (in another tab), and a new PIN works', async () => {
    const email = await newParticipant();
    const second = await settled(await mount());
    await requestPin(second, email);
    const { pin } = await lastSignInEmail(email);
    // Another tab (its own sessionStorage) signed in with this PIN.
    const elsewhere = await fetch(`${service.url}widget-api/v1/participant/verify?key=${keyOf('profile')}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, pin }),
    });
    expect(elsewhere.status).to.equal(200);

    await enterPin(second, pin!);
    await untilText(second, 'This PIN has been used already. Send a new one.');
    await expect(second).to.be.accessible();
    click(second, 'Send a new PIN');
    await untilText(second, 'A new PIN is on its way.');
    const again = oneEvent(second, 'service-profile-login');
    await enterPin(second, (await lastSignInEmail(email)).pin!);
    await again;
  });

  it('shows a stranger the same “check your email” step, and emails nobody', async () => {
    const stranger = `stranger-${Date.now()}@example.org`;
    const known = await newParticipant();
    const a = await settled(await mount());
    const b = await settled(await mount());
    await requestPin(a, stranger);
    await requestPin(b, known);
    expect(textOf(a).replace(stranger, 'X')).to.equal(textOf(b).replace(known, 'X'));
    expect(await emailsTo(stranger)).to.have.length(0);
    await expect(a).to.be.accessible();
  });

  it('signs in through the emailed link and takes the key out of the address bar', async () => {
    const email = await newParticipant('Katherine');
    const asking = await settled(await mount());
    await requestPin(asking, email);
    const link = new URL((await lastSignInEmail(email)).link!);
    const token = link.searchParams.get('key')!;
    expect(token).to.match(/^ptok_/);
    asking.remove();

    const page = new URL(location.href);
    page.searchParams.set('key', token);
    history.replaceState(history.state, '', page);
    const el = await mount();
    const login = oneEvent(el, 'service-profile-login');
    await settled(el);
    expect((await login).detail.id).to.match(/^p_/);
    expect(new URL(location.href).searchParams.has('key')).to.equal(false);
    expect(location.href).not.to.contain(token);
    // Other parameters of the page stay.
    for (const [name, value] of new URL(link).searchParams)
      if (name !== 'key') expect(new URL(location.href).searchParams.get(name)).to.equal(value);
    expect(textOf(el)).to.contain('Hello Katherine');
    expect(storedToken()).to.equal(token);
    await expect(el).to.be.accessible();
  });

  it('keeps the token in sessionStorage only, and a widget mounted later is signed in without asking', async () => {
    const email = await newParticipant('Dorothy');
    const el = await settled(await mount());
    await signIn(el, email);
    const token = storedToken()!;
    expect(token).to.match(/^ptok_/);
    expect(JSON.stringify(readSession(service.url, COMPANY)!.participant)).to.contain(email);
    for (let i = 0; i < localStorage.length; i++) expect(localStorage.getItem(localStorage.key(i)!)).not.to.contain(token);
    expect(location.href).not.to.contain(token);

    const calls: string[] = [];
    const later = await mount({ fetch: (input, init) => (calls.push(String(input)), fetch(input, init)) });
    await settled(later);
    expect(textOf(later)).to.contain('Hello Dorothy');
    expect(has(later, '#email')).to.equal(false);
    // One request: the signed-in first render.
    expect(calls).to.have.length(1);
    expect(calls[0]).to.contain('participant/me');
    expect(focused(later)).to.equal(null);

    // Signing out in one signs out both; the focus stays in the one that was used.
    const logout = oneEvent(el, 'service-profile-logout');
    click(el, 'Sign out');
    await logout;
    await until(() => has(later, '#email'), 'the second widget signed out');
    await el.updateComplete;
    expect(focused(el)).to.equal('Your account at Acme Academy');
    expect(focused(later)).to.equal(null);
  });

  it('follows a sign-in made in another profile widget on the page, without taking the focus', async () => {
    const email = await newParticipant('Hedy');
    const [el, other] = [await settled(await mount()), await settled(await mount())];
    await signIn(el, email);
    await untilText(other, 'Hello Hedy');
    expect(focused(other)).to.equal(null);
    expect(has(other, '#email')).to.equal(false);
    await expect(other).to.be.accessible();
  });

  it('follows a sign-out made in another widget on the page (a video’s), and tells the page as its own sign-out does', async () => {
    const email = await newParticipant('Grete');
    const el = await settled(await mount());
    await signIn(el, email);
    const out = oneEvent(el, 'service-profile-logout');
    writeSession(service.url, COMPANY, undefined);
    expect((await out).detail).to.deep.equal({});
    await until(() => has(el, '#email'), 'the email step');
    expect(textOf(el)).not.to.contain('Hello Grete');
    await expect(el).to.be.accessible();
  });

  it('keeps a session that works when the page is opened again through an old emailed link', async () => {
    const email = await newParticipant('Joan');
    const first = await settled(await mount());
    await signIn(first, email);
    const token = storedToken()!;
    first.remove();
    const page = new URL(location.href);
    page.searchParams.set('key', 'ptok_an_old_link_logged_out_long_ago');
    history.replaceState(history.state, '', page);
    const el = await settled(await mount());
    expect(textOf(el)).to.contain('Hello Joan');
    expect(textOf(el)).not.to.contain('signed out');
    expect(storedToken()).to.equal(token);
    expect(new URL(location.href).searchParams.has('key')).to.equal(false);
  });

  it('keeps the PIN’s sign-in when the account cannot be fetched right after it, and finishes it on the next try', async () => {
    const email = await newParticipant('Radia');
    let down = false;
    const calls: string[] = [];
    const fetcher: typeof fetch = (input, init) => {
      calls.push(String(input).replace(/\?.*/, '').split('/').pop()!);
      return down && String(input).includes('participant/me')
        ? Promise.reject(new TypeError('Failed to fetch'))
        : fetch(input, init);
    };
    const el = await settled(await mount({ fetch: fetcher }));
    await requestPin(el, email);
    const { pin } = await lastSignInEmail(email);
    down = true;
    await enterPin(el, pin!);
    await untilText(el, 'could not be reached');
    expect(has(el, '#pin')).to.equal(true);
    await expect(el).to.be.accessible();
    down = false;
    const login = oneEvent(el, 'service-profile-login');
    submit(el);
    await login;
    await el.updateComplete;
    expect(textOf(el)).to.contain('Hello Radia');
    // The PIN was spent once: the second try used its token.
    expect(calls.filter((c) => c === 'verify')).to.have.length(1);
  });

  for (const locale of ['en', 'de'] as const)
    it(`checks its sign-in itself (${locale}): an email or a PIN left empty says what to do in the widget’s words, and nothing is sent`, async () => {
      const { fillIn, line } = FORM_WORDS[locale];
      const posts: string[] = [];
      const counting: typeof fetch = (input, init) => {
        if (init?.method === 'POST') posts.push(new URL(String(input)).pathname.split('/').pop()!);
        return fetch(input, init);
      };
      const el = await settled(await mount({ locale, fetch: counting }));
      await type(el, 'email', '   ');
      submit(el);
      await expectFaults(el, { email: fillIn }, line);
      expect(posts).to.deep.equal([]);
      await expect(el).to.be.accessible();
      // Anyone's email takes the PIN step.
      await requestPin(el, `profile-${Date.now()}-${n++}@example.org`);
      submit(el);
      await expectFaults(el, { pin: fillIn }, line);
      expect(posts).to.deep.equal(['login']);
      await expect(el).to.be.accessible();
    });

  it('checks its details form itself, in English and German: what is left empty says what to do, nothing is sent, nothing typed is lost', async () => {
    const email = await newParticipant();
    const posts: string[] = [];
    const counting: typeof fetch = (input, init) => {
      if (init?.method === 'POST') posts.push(new URL(String(input)).pathname.split('/').pop()!);
      return fetch(input, init);
    };
    const el = await settled(await mount({ fetch: counting }));
    await signIn(el, email);
    for (const [locale, edit, cancel] of [
      ['en', 'Edit details', 'Cancel'],
      ['de', 'Angaben ändern', 'Abbrechen'],
    ] as const) {
      // The page's language changes: the widget follows, still signed in.
      el.locale = locale;
      await until(() => !!buttonNamed(el, edit), `the signed-in view (${locale})`);
      click(el, edit);
      await el.updateComplete;
      await type(el, 'first_name', '');
      await type(el, 'email', ' ');
      await type(el, 'phone', '+49 30 1234567');
      const sent = posts.length;
      submit(el);
      const { fillIn, line } = FORM_WORDS[locale];
      await expectFaults(el, { first_name: fillIn, email: fillIn }, line);
      expect(posts).to.have.length(sent);
      expect($<HTMLInputElement>(el, '#last_name').value).to.equal('Jackson');
      expect($<HTMLInputElement>(el, '#phone').value).to.equal('+49 30 1234567');
      await expect(el).to.be.accessible();
      click(el, cancel);
      await el.updateComplete;
    }
  });

  it('a German profile shows the service’s faults in German beside their fields: the email, the PIN', async () => {
    // Anyone's email takes the PIN step; a PIN of the wrong form is refused before it is looked up.
    const email = `profile-${Date.now()}-${n++}@example.org`;
    const el = await settled(await mount({ locale: 'de' }));
    await type(el, 'email', 'mary@example');
    submit(el);
    await until(() => has(el, '#email-error'), 'the email’s fault');
    await expectFaults(el, { email: 'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.org.' }, FORM_WORDS.de.line);
    expect($<HTMLInputElement>(el, '#email').value).to.equal('mary@example');
    await expect(el).to.be.accessible();
    await requestPin(el, email);
    await enterPin(el, '12');
    await until(() => has(el, '#pin-error'), 'the PIN’s fault');
    await expectFaults(el, { pin: 'Geben Sie die 6 Ziffern der PIN aus der E-Mail ein.' }, FORM_WORDS.de.line);
    await expect(el).to.be.accessible();
  });

  it('clears a field’s error as soon as it is being corrected', async () => {
    const email = await newParticipant();
    const el = await settled(await mount());
    await requestPin(el, email);
    await enterPin(el, otherPin((await lastSignInEmail(email)).pin!));
    await until(() => $(el, '#pin').getAttribute('aria-invalid') === 'true', 'the PIN marked wrong');
    await type(el, 'pin', '1');
    expect($(el, '#pin').getAttribute('aria-invalid')).to.equal('false');
    // The message stays until the next try: it says how many tries are left.
    expect(textOf(el)).to.contain('Tries left: 4.');
  });

  it('returns to the email step with a message when the service invalidated the token, and fires service-profile-logout', async () => {
    const email = await newParticipant();
    const el = await settled(await mount());
    await signIn(el, email);
    await dev('tokens/invalidate', { email });
    click(el, 'Edit details');
    await el.updateComplete;
    await type(el, 'phone', '+49 40 123456');
    const logout = oneEvent(el, 'service-profile-logout');
    submit(el);
    await logout;
    await el.updateComplete;
    expect(textOf(el)).to.contain('You have been signed out. Sign in again to see your account.');
    expect(has(el, '#email')).to.equal(true);
    expect(focused(el)).to.equal('Your account at Acme Academy');
    expect(storedToken()).to.equal(undefined);
    await expect(el).to.be.accessible();
  });

  it('finds a stored token invalidated at the first render, and asks to sign in again', async () => {
    const email = await newParticipant();
    const first = await settled(await mount());
    await signIn(first, email);
    first.remove();
    await dev('tokens/invalidate', { email });
    const el = await mount();
    const logout = oneEvent(el, 'service-profile-logout');
    await settled(el);
    await logout;
    expect(textOf(el)).to.contain('You have been signed out.');
    expect(storedToken()).to.equal(undefined);
    await expect(el).to.be.accessible();
  });

  it('edits the details: the service’s field errors beside their fields, contents kept, then saved', async () => {
    const email = await newParticipant();
    const el = await settled(await mount());
    await signIn(el, email);
    click(el, 'Edit details');
    await el.updateComplete;
    for (const [id, label] of [
      ['first_name', 'First name'],
      ['last_name', 'Last name'],
      ['email', 'Email'],
      // Optional, and said so, as in every form of the widgets.
      ['phone', 'Phone (optional)'],
    ]) {
      expect($(el, `label[for=${id}]`).textContent).to.equal(label);
    }
    expect($<HTMLInputElement>(el, '#email').value).to.equal(email);
    await until(() => focused(el) === '#first_name', 'the focus in the form');
    await expect(el).to.be.accessible();

    await type(el, 'first_name', 'Mary W.');
    await type(el, 'phone', 'call me maybe');
    submit(el);
    await until(() => has(el, '#phone-error'), 'the phone error');
    const phone = $<HTMLInputElement>(el, '#phone');
    expect(phone.getAttribute('aria-invalid')).to.equal('true');
    expect(phone.getAttribute('aria-describedby')).to.equal('phone-error');
    expect($(el, '#phone-error').textContent).to.contain('digits');
    expect(focused(el)).to.equal('#phone');
    expect(textOf(el)).to.contain('Please correct the highlighted fields.');
    expect(phone.value).to.equal('call me maybe');
    expect($<HTMLInputElement>(el, '#first_name').value).to.equal('Mary W.');
    await expect(el).to.be.accessible();

    // A name that would turn the text around it is refused beside its field.
    await type(el, 'phone', '+1 (555) 010-0100');
    await type(el, 'last_name', 'Jackson\u202e');
    submit(el);
    await until(() => has(el, '#last_name-error'), 'the last name error');
    expect($(el, '#last_name-error').textContent).to.contain('text direction');
    await expect(el).to.be.accessible();
    expect(has(el, '#phone-error')).to.equal(false);
    expect($<HTMLInputElement>(el, '#phone').value).to.equal('+1 (555) 010-0100');

    await type(el, 'last_name', 'Jackson');
    submit(el);
    await untilText(el, 'Your details are saved.');
    const text = textOf(el);
    expect(text).to.contain('Mary W. Jackson');
    expect(text).to.contain('+1 (555) 010-0100');
    expect(has(el, 'form')).to.equal(false);
    expect(focused(el)).to.equal('#details');
    expect(readSession(service.url, COMPANY)!.participant!.first_name).to.equal('Mary W.');
    await expect(el).to.be.accessible();

    // The service has them.
    const answer = await (await me(storedToken()!)).json();
    expect(answer.participant).to.include({ first_name: 'Mary W.', phone: '+1 (555) 010-0100' });
  });

  /** Signs a new participant in and asks for a new email (`prefix` + the old one); resolves with both and the widget. */
  const askForNewEmail = async (prefix: string) => {
    const email = await newParticipant();
    const el = await settled(await mount());
    await signIn(el, email);
    click(el, 'Edit details');
    await el.updateComplete;
    const newEmail = `${prefix}${email}`;
    await type(el, 'email', newEmail);
    submit(el);
    await untilText(el, 'Your details are saved.');
    return { el, email, newEmail };
  };

  it('changes the email only when the PIN sent to the new address confirms it', async () => {
    const { el, email, newEmail } = await askForNewEmail('new-');
    expect(textOf(el)).to.contain(`To change your email to ${newEmail}, enter the PIN we have sent there`);
    expect(textOf(el)).to.contain(`Until then your email stays ${email}.`);
    expect($(el, 'dl').textContent).to.contain(email);
    await until(() => focused(el) === '#pin', 'the focus in the PIN field');
    await expect(el).to.be.accessible();
    // The old address is told; the new one has the PIN.
    expect((await emailsTo(email))[0]!.subject).to.contain('A change of your email address');
    const { pin } = (await emailsTo(newEmail))[0]!;

    await type(el, 'pin', otherPin(pin!));
    submit(el);
    await untilText(el, 'That PIN is not right. Tries left: 4.');
    await expect(el).to.be.accessible();

    await type(el, 'pin', pin!);
    submit(el);
    await untilText(el, `Your email is now ${newEmail}.`);
    expect($(el, 'dl').textContent).to.contain(newEmail);
    expect(has(el, '#pin')).to.equal(false);
    expect(focused(el)).to.equal('#details');
    expect(readSession(service.url, COMPANY)!.participant!.email).to.equal(newEmail);
    await expect(el).to.be.accessible();

    // Signed out, the sign-in begins with the new address (it held the one typed before, which no
    // longer signs in: "Send PIN" sent nothing).
    const logout = oneEvent(el, 'service-profile-logout');
    click(el, 'Sign out');
    await logout;
    await until(() => has(el, '#email'), 'the email step');
    expect($<HTMLInputElement>(el, '#email').value).to.equal(newEmail);
  });

  it('opened through the link sent to a new address, confirms it and signs in', async () => {
    const { el, newEmail } = await askForNewEmail('link-');
    const link = new URL((await emailsTo(newEmail))[0]!.link!);
    expect(link.pathname).to.equal(location.pathname);
    // Another device: nobody signed in, the page opened through the link.
    el.remove();
    writeSession(service.url, COMPANY, undefined);
    history.replaceState(history.state, '', `${location.pathname}?key=${link.searchParams.get('key')}`);
    const other = await settled(await mount());
    expect(new URL(location.href).searchParams.has('key')).to.equal(false);
    expect($(other, 'dl').textContent).to.contain(newEmail);
    await expect(other).to.be.accessible();
  });

  it('isolates a name’s writing direction, so that it cannot turn the sentence around it', async () => {
    const email = await newParticipant('Adam');
    const el = await settled(await mount());
    await signIn(el, email);
    const heading = $(el, 'h2');
    expect(heading.querySelector('bdi')!.textContent).to.equal('Adam');
    expect([...$(el, 'dd').querySelectorAll('bdi')].map((b) => b.textContent)).to.deep.equal(['Adam', 'Jackson']);
  });

  it('shows the service’s check of every detail beside its field, whatever got past the form’s own', async () => {
    const email = await newParticipant();
    const el = await settled(await mount());
    await signIn(el, email);
    click(el, 'Edit details');
    await el.updateComplete;
    for (const [field, value, says] of [
      ['first_name', '7', /needs at least one letter/],
      ['last_name', 'J'.repeat(101), /at most 100/],
      ['email', 'mary@localhost', /valid email address/],
    ] as const) {
      await type(el, field, value);
      submit(el);
      await until(() => has(el, `#${field}-error`), `the ${field} error`);
      expect($(el, `#${field}-error`).textContent, field).to.match(says);
      expect(focused(el)).to.equal(`#${field}`);
      expect($<HTMLInputElement>(el, `#${field}`).value).to.equal(value);
      await expect(el).to.be.accessible();
      await type(el, field, field === 'email' ? email : 'Jackson');
    }
  });

  it('keeps the edited details when the service cannot be reached', async () => {
    let down = false;
    const keys: string[] = [];
    const fetcher: typeof fetch = (input, init) => {
      if (!String(input).includes('participant/profile')) return fetch(input, init);
      keys.push(new Headers(init!.headers).get('Idempotency-Key')!);
      return down ? Promise.reject(new TypeError('Failed to fetch')) : fetch(input, init);
    };
    const email = await newParticipant();
    const el = await settled(await mount({ fetch: fetcher }));
    await signIn(el, email);
    click(el, 'Edit details');
    await el.updateComplete;
    await type(el, 'last_name', 'Jackson-Smith');
    down = true;
    submit(el);
    await untilText(el, 'Your entries are kept.');
    expect(textOf(el)).to.contain('could not be reached');
    expect($<HTMLInputElement>(el, '#last_name').value).to.equal('Jackson-Smith');
    await expect(el).to.be.accessible();
    expect(keys).to.have.length(3); // three attempts of one submission
    down = false;
    submit(el);
    await untilText(el, 'Your details are saved.');
    expect(textOf(el)).to.contain('Mary Jackson-Smith');
    // The same submission again, under the same idempotency key.
    expect(new Set(keys)).to.have.property('size', 1);
  });

  it('offers no cancelling once the class no longer allows it, says whom to ask, and lists a class past by the service’s clock', async () => {
    const email = await newParticipant('Evelyn');
    // The service's answer as it is after cancel_until, and then after the start (its clock, not the visitor's).
    let moment: 'closed' | 'started' = 'closed';
    const fetcher: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (!String(input).includes('participant/me')) return answer;
      const body = await answer.json();
      for (const r of body.registrations) Object.assign(r, { cancellable: false, past: moment === 'started' });
      return Response.json(body, { status: answer.status });
    };
    const el = await settled(await mount({ fetch: fetcher }));
    await signIn(el, email);
    const [upcoming, past] = $$(el, 'ul');
    expect(upcoming!.textContent).to.contain('Data literacy basics');
    expect(upcoming!.textContent).to.contain('It is too late to cancel here: please contact Acme Academy.');
    expect(buttonNamed(el, 'Cancel my place')).to.equal(undefined);
    expect(past).to.equal(undefined);
    expect(textOf(el)).to.contain('No past classes.');
    await expect(el).to.be.accessible();

    moment = 'started';
    el.remove();
    const later = await settled(await mount({ fetch: fetcher }));
    expect(textOf(later)).to.contain('No upcoming classes.');
    expect($$(later, 'ul')[0]!.textContent).to.contain('Data literacy basics');
    expect(textOf(later)).not.to.contain('too late to cancel');
  });

  it('keeps the place and says why when the service refuses the cancelling (too late by its clock)', async () => {
    const email = await newParticipant('Frances');
    // The page still offers cancelling, but by the service's clock the deadline has just passed.
    const fetcher: typeof fetch = (input, init) =>
      String(input).includes('/cancel')
        ? Promise.resolve(
            Response.json(
              {
                error: {
                  code: 'not-cancellable',
                  message: 'This registration can no longer be cancelled here: contact Acme Academy.',
                },
              },
              { status: 409 },
            ),
          )
        : fetch(input, init);
    const el = await settled(await mount({ fetch: fetcher }));
    await signIn(el, email);
    click(el, 'Cancel my place');
    await el.updateComplete;
    const cancelled = spyEvents(el, 'service-registration-cancelled');
    click(el, 'Yes, cancel');
    await untilText(el, 'can no longer be cancelled here');
    expect(cancelled).to.have.length(0);
    expect($$(el, 'ul')[0]!.textContent).to.contain('Data literacy basics');
    expect(has(el, '[role=group]')).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it('cancels an upcoming registration after a confirmation step; the seat goes to the waitlist', async () => {
    const el = await settled(await mount());
    await signIn(el, ADA);
    click(el, 'Cancel my place');
    await el.updateComplete;
    const group = $(el, '[role=group]');
    expect(group.getAttribute('aria-label')).to.equal('Cancel your place in TypeScript for teams?');
    // The safe answer has the focus: a second Enter keeps the place.
    expect(focused(el)).to.equal('Keep my place');
    // The question, then its two answers together (not spread across the row); the one that cancels
    // in the danger colour, not the accent of every other button.
    const [yes, keep] = [buttonNamed(el, 'Yes, cancel')!, buttonNamed(el, 'Keep my place')!].map((b) =>
      b.getBoundingClientRect(),
    );
    expect(yes!.top, 'side by side').to.equal(keep!.top);
    expect(keep!.left - yes!.right, 'together').to.be.within(0, 16);
    expect(getComputedStyle(buttonNamed(el, 'Yes, cancel')!).backgroundColor).to.equal('rgb(179, 38, 30)');
    await expect(el).to.be.accessible();

    // Keeping it changes nothing, and the focus goes back to its button.
    click(el, 'Keep my place');
    await until(() => focused(el) === 'Cancel my place', 'the focus back on the button');
    expect(has(el, '[role=group]')).to.equal(false);
    expect($$(el, 'ul')[0]!.textContent).to.contain('TypeScript for teams');
    // By keyboard: Enter asks, a second Enter (a double press) keeps; Escape keeps too.
    await sendKeys({ press: 'Enter' });
    await until(() => focused(el) === 'Keep my place', 'the question, its safe answer focused');
    await sendKeys({ press: 'Enter' });
    await until(() => focused(el) === 'Cancel my place', 'kept by the second Enter');
    await sendKeys({ press: 'Enter' });
    await until(() => has(el, '[role=group]'), 'the question again');
    await sendKeys({ press: 'Escape' });
    await until(() => focused(el) === 'Cancel my place', 'kept by Escape');
    expect(has(el, '[role=group]')).to.equal(false);
    expect($$(el, 'ul')[0]!.textContent).to.contain('TypeScript for teams');

    click(el, 'Cancel my place');
    await el.updateComplete;
    const cancelled = oneEvent(el, 'service-registration-cancelled');
    click(el, 'Yes, cancel');
    const { detail } = await cancelled;
    expect(detail).to.deep.equal({ id: 'reg_seed_ada_ts_1', course: 'crs_ts', class: 'cls_ts_1' });
    await el.updateComplete;
    expect(textOf(el)).to.contain('Your place in TypeScript for teams is cancelled.');
    expect(textOf(el)).to.contain('No upcoming classes.');
    expect(focused(el)).to.equal('#upcoming');
    expect(textOf(el)).to.contain('Web accessibility in practice');
    await expect(el).to.be.accessible();

    // The seat went to Grace, first on the waitlist, and she was told.
    const [promoted] = await emailsTo(GRACE);
    expect(promoted!.subject).to.equal('Registration confirmed: TypeScript for teams');
    const [told] = await emailsTo(ADA);
    expect(told!.subject).to.equal('Registration cancelled: TypeScript for teams');
    // And the service no longer lists it.
    const answer = await (await me(storedToken()!)).json();
    expect(answer.registrations.map((r: { id: string }) => r.id)).not.to.include('reg_seed_ada_ts_1');
  });

  it('shows a registration made in a registration widget on the same page without a reload', async () => {
    const email = await newParticipant('Annie');
    const wrapper = await fixture(html`<div>
      <service-profile key=${keyOf('profile')} base-url=${service.url} locale="en"></service-profile>
      <service-registration key=${keyOf('registration')} base-url=${service.url} locale="en" course="crs_open"></service-registration>
    </div>`);
    const profile = wrapper.querySelector('service-profile')!;
    const registration = wrapper.querySelector('service-registration')!;
    await settled(profile);
    await settled(registration);
    await signIn(profile, email);
    expect(textOf(profile)).not.to.contain('Open day: meet the trainers');

    click(registration, 'Register');
    await registration.updateComplete;
    // One sign-in for the page: the registration form knows who is signed in.
    await until(
      () => registration.shadowRoot!.querySelector<HTMLInputElement>('#first_name')?.value === 'Annie',
      'the form prefilled',
    );
    expect($<HTMLInputElement>(registration, '#email').value).to.equal(email);
    const consent = $<HTMLInputElement>(registration, '#consent');
    consent.checked = true;
    consent.dispatchEvent(new Event('input', { bubbles: true }));
    await registration.updateComplete;
    const created = oneEvent(registration, 'service-registration-created');
    $<HTMLButtonElement>(registration, 'form > button[part=button]').click();
    await Promise.race([
      created,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`Not registered; the form says: ${textOf(registration)}`)), 5000),
      ),
    ]);
    await untilText(profile, 'Open day: meet the trainers');
    expect($$(profile, 'ul')[0]!.textContent).to.contain('Open day: meet the trainers');
    await expect(profile).to.be.accessible();
  });

  it('lists the participant’s orders, and one placed on the same page without a reload', async () => {
    const email = await newParticipant('Kay');
    const order = (classId: string) => orderFor(email, classId, 2);
    const first = await order('cls_data_2');
    const el = await settled(await mount());
    await signIn(el, email);
    await untilText(el, `Order ${first.number}`);
    expect(textOf(el)).to.contain('Your orders');
    expect(textOf(el)).to.contain('Data literacy basics');
    expect(textOf(el)).to.contain('Seats: 2');
    expect(textOf(el)).to.contain('Confirmed');
    await expect(el).to.be.accessible();
    // A class bought is one of the participant's upcoming classes, with its order: no "No upcoming classes".
    expect(textOf(el)).not.to.contain('No upcoming classes');
    const upcoming = el.shadowRoot!.querySelector('#upcoming')!.nextElementSibling!;
    expect(upcoming.textContent).to.contain('Data literacy basics');
    expect(upcoming.textContent).to.contain(`Order ${first.number}`);
    const bought = [...upcoming.querySelectorAll('li')].find((li) => li.textContent!.includes(`Order ${first.number}`))!;
    expect(bought.textContent).to.contain('Seats: 2');
    expect(bought.querySelectorAll('button').length, 'an order’s class is not cancelled here').to.equal(0);

    // A checkout on the page tells it of a new order: it shows without a reload.
    const second = await order('cls_web_2');
    document.dispatchEvent(new CustomEvent('service-checkout-completed', { bubbles: true, detail: { id: second.id } }));
    await untilText(el, `Order ${second.number}`);
  });

  it('shows a class bought with an order among the upcoming classes (a buyer who never registered), with its order and no cancelling', async () => {
    const email = `profile-buyer-${Date.now()}-${n++}@example.org`;
    const order = await orderFor(email, 'cls_web_2', 1);
    // One paid by card on the provider's page, not yet: its class is listed too, and says so.
    const waiting = await orderFor(email, 'cls_ts_2', 2, 'card');
    const el = await settled(await mount());
    await signIn(el, email);
    await untilText(el, `Order ${order.number}`);
    expect(textOf(el)).not.to.contain('No upcoming classes');
    const upcoming = el.shadowRoot!.querySelector('#upcoming')!.nextElementSibling!;
    expect(upcoming.tagName).to.equal('UL');
    expect(upcoming.textContent).to.contain('Web accessibility in practice');
    expect(upcoming.textContent).to.contain(`Order ${order.number} · Seats: 1`);
    expect(upcoming.textContent).to.contain(`Order ${waiting.number} · Seats: 2 · Waiting for the payment`);
    // By start, whichever order they came from.
    const items = el.data!.orders!.flatMap((o) => o.items).sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at));
    expect([...upcoming.querySelectorAll('li strong')].map((title) => title.textContent)).to.deep.equal(
      items.map((i) => i.course_title),
    );
    expect(upcoming.querySelectorAll('button').length, 'an order’s class is not cancelled here').to.equal(0);
    await expect(el).to.be.accessible();
  });

  it('signs out: fires service-profile-logout, forgets the token, and the service refuses it', async () => {
    const email = await newParticipant();
    const el = await settled(await mount());
    await signIn(el, email);
    const token = storedToken()!;
    expect((await me(token)).status).to.equal(200);
    const logout = oneEvent(el, 'service-profile-logout');
    click(el, 'Sign out');
    await logout;
    await el.updateComplete;
    expect(has(el, '#email')).to.equal(true);
    expect(textOf(el)).to.contain('Your account at Acme Academy');
    expect(focused(el)).to.equal('Your account at Acme Academy');
    expect(storedToken()).to.equal(undefined);
    expect((await me(token)).status).to.equal(401);
    await expect(el).to.be.accessible();
  });

  it('breaks a long email address in the signed-in details at 320 px rather than overflow them', async () => {
    const email = await newParticipant(
      'Lena',
      `a.very.long.address.of.someone.${Date.now()}-${n++}@a-long-company-name.example.org`,
    );
    const el = await settled(await mount());
    el.style.width = '304px';
    await signIn(el, email);
    expect(textOf(el)).to.contain(email);
    expect(el.scrollWidth, 'no wider than the widget').to.be.at.most(el.clientWidth);
    await expect(el).to.be.accessible();
  });

  it('reads well on a dark page: links, errors and the signed-in view keep their contrast', async () => {
    const email = await newParticipant('Ida');
    const page = await darkPage(
      html`<service-profile key=${keyOf('profile')} base-url=${service.url} locale="en"></service-profile>`,
    );
    const el = page.querySelector('service-profile')!;
    await settled(el);
    await requestPin(el, email);
    await enterPin(el, otherPin((await lastSignInEmail(email)).pin!));
    await untilText(el, 'Tries left: 4.');
    await expect(page).to.be.accessible();
    const login = oneEvent(el, 'service-profile-login');
    await enterPin(el, (await lastSignInEmail(email)).pin!);
    await login;
    await el.updateComplete;
    await expect(page).to.be.accessible();
  });

  it('speaks German', async () => {
    const email = await newParticipant('Lise');
    const el = await settled(await mount({ locale: 'de' }));
    expect(textOf(el)).to.contain('Ihr Konto bei Acme Academy');
    expect($(el, 'label[for=email]').textContent).to.equal('E-Mail');
    expect(buttonNamed(el, 'PIN senden')).not.to.equal(undefined);
    await expect(el).to.be.accessible();
    await requestPin(el, email);
    expect(textOf(el)).to.contain('Sehen Sie in Ihre E-Mails');
    const { pin } = await lastSignInEmail(email);
    await enterPin(el, otherPin(pin!));
    await untilText(el, 'Diese PIN stimmt nicht. Verbleibende Versuche: 4.');
    await expect(el).to.be.accessible();
    const login = oneEvent(el, 'service-profile-login');
    await enterPin(el, pin!);
    await login;
    await el.updateComplete;
    const text = textOf(el);
    expect(text).to.contain('Hallo Lise');
    expect(text).to.contain('Ihre Angaben');
    expect(text).to.contain('Kommende Termine');
    expect(text).to.contain('Vergangene Termine');
    expect(buttonNamed(el, 'Abmelden')).not.to.equal(undefined);
    expect(buttonNamed(el, 'Platz stornieren')).not.to.equal(undefined);
    await expect(el).to.be.accessible();
  });

  it('has no public method for its PIN step and signed-in view: only the hooks of Lit and of the base (the chunks get callbacks)', () => {
    expect(ownMethods(customElements.get('service-profile')!)).to.deep.equal([]);
  });
});
