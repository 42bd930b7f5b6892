import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import {
  darkPage,
  dev,
  expectFaults,
  expectMinutesUntil,
  FORM_WORDS,
  failOnWarnings,
  expectWholeItems,
  fitted,
  holdSeats,
  keyOf,
  ownMethods,
  reserve,
  service,
  settled,
  textOf,
  until,
} from '../../test/browser/support.ts';
import './registration.ts';
import '../checkout/checkout.ts';
import '../profile/profile.ts';
import { formatDateRange } from '../shared/format.ts';
import type { ServiceRegistration } from './registration.ts';
import type { RegistrationCreatedEvent } from './registration-form.ts';
import { writeSession } from '../shared/session.ts';
import { readState, writeState } from '../shared/page-state.ts';
import type { Cart } from '../shared/cart.ts';

failOnWarnings();

const mount = async (key = keyOf('registration'), extra: Partial<ServiceRegistration> = {}) => {
  const el = await fixture<ServiceRegistration>(
    html`<service-registration key=${key} base-url=${service.url} locale=${extra.locale ?? 'en'} .fetch=${extra.fetch} course=${extra.course ?? ''}></service-registration>`,
  );
  return el;
};

const $ = <T extends Element = HTMLElement>(el: ServiceRegistration, selector: string) =>
  el.shadowRoot!.querySelector<T>(selector)!;
const $$ = <T extends Element = HTMLElement>(el: ServiceRegistration, selector: string) => [
  ...el.shadowRoot!.querySelectorAll<T>(selector),
];
const buttonNamed = (el: ServiceRegistration, name: string) =>
  $$<HTMLButtonElement>(el, 'button').filter((b) => b.textContent!.trim() === name);

/** Opens the form for the first bookable class of a programme (its code comes on demand). */
const choose = async (el: ServiceRegistration, courseTitle: string, button = 'Register') => {
  const card = $$(el, '.course').find((c) => c.querySelector('h3')!.textContent === courseTitle)!;
  const target = [...card.querySelectorAll('button')].find((b) => b.textContent!.trim() === button)!;
  target.click();
  await until(() => !!el.shadowRoot!.querySelector('form'));
  await el.updateComplete;
};

const fill = async (el: ServiceRegistration, values: Record<string, string | boolean>) => {
  for (const [name, value] of Object.entries(values)) {
    const input = $<HTMLInputElement>(el, `#${name}`);
    if (typeof value === 'boolean') {
      input.checked = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    } else {
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }
  await el.updateComplete;
};

const submit = (el: ServiceRegistration) => $<HTMLButtonElement>(el, 'form > button[part=button]').click();

/** Registers a new person for the open day, and goes back to the list for the next one. */
const registerForOpenDay = async (el: ServiceRegistration, afterwards: () => Promise<unknown> = async () => {}) => {
  await choose(el, 'Open day: meet the trainers');
  await fill(el, { first_name: 'Grace', last_name: 'Hopper', email: uniqueEmail(), consent: true });
  const created = oneEvent(el, 'service-registration-created');
  submit(el);
  await created;
  await el.updateComplete;
  await afterwards();
  buttonNamed(el, 'Back to all programmes')[0]!.click();
  await el.updateComplete;
};

let n = 0;
const uniqueEmail = () => `browser-${Date.now()}-${n++}@example.org`;

describe('service-registration', () => {
  it('lists the programmes with dates, places, prices and seats, formatted for the locale', async () => {
    const el = await settled(await mount());
    const text = textOf(el);
    expect(text).to.contain('Programmes at Acme Academy');
    expect(text).to.contain('Web accessibility in practice');
    expect(text).to.contain('€490.00');
    expect(text).to.contain('Free'); // the open day costs nothing
    expect(text).to.contain('Full – waitlist open');
    expect(text).to.contain('Berlin, Torstraße 1');
    expect(text).to.match(/Seats left: \d+/);
    // Past classes never show; a programme without upcoming dates says so.
    expect(text).to.contain('No upcoming dates yet.');
    // A full class without waitlist offers no button.
    const lead = $$(el, '.course').find((c) => c.textContent!.includes('Leading remote teams'))!;
    expect(lead.textContent).to.contain('Full');
    await expect(el).to.be.accessible();
  });

  it('a class whose last seats are held by unpaid orders says for how long, in English and German, and offers no booking; accessible', async () => {
    const hold = await holdSeats('cls_lead_2', 6);
    try {
      for (const [locale, pattern] of [
        ['en', /^Last seats held for unpaid orders – try again in (\d+) min$/],
        ['de', /^Letzte Plätze für unbezahlte Bestellungen reserviert – in (\d+) Min\. erneut versuchen$/],
      ] as const) {
        const el = await settled(
          await fixture<ServiceRegistration>(
            html`<service-registration key=${keyOf('registration')} base-url=${service.url} locale=${locale} course="crs_lead"></service-registration>`,
          ),
        );
        const held = el.data!.courses.flatMap((c) => c.classes).find((c) => c.id === 'cls_lead_2')!;
        const line = $$(el, '.class .seats').find((s) => pattern.test(s.textContent!.trim()))!;
        expect(line, textOf(el)).not.to.equal(undefined);
        expectMinutesUntil(Number(pattern.exec(line.textContent!.trim())![1]), held.held_until!);
        expect(line.closest('.class')!.querySelector('button'), 'no booking while the seats are held').to.equal(null);
        await expect(el).to.be.accessible();
      }
    } finally {
      await hold.release();
    }
  });

  it('speaks German with German formats', async () => {
    const el = await fixture<ServiceRegistration>(
      html`<service-registration key=${keyOf('registration')} base-url=${service.url} locale="de"></service-registration>`,
    );
    await settled(el);
    const text = textOf(el);
    expect(text).to.contain('Programme von Acme Academy');
    expect(text).to.contain('490,00 €');
    expect(text).to.contain('Kostenlos');
    expect(buttonNamed(el, 'Anmelden').length).to.be.greaterThan(0);
    await expect(el).to.be.accessible();
  });

  it('asks for its emails in its own language, whatever the browser’s', async () => {
    const el = await fixture<ServiceRegistration>(
      html`<service-registration key=${keyOf('registration')} base-url=${service.url} locale="de" course="crs_open"></service-registration>`,
    );
    await settled(el);
    await choose(el, 'Open day: meet the trainers', 'Anmelden');
    const email = uniqueEmail();
    await fill(el, { first_name: 'Ada', last_name: 'Lovelace', email, consent: true });
    const created = oneEvent(el, 'service-registration-created');
    submit(el);
    await created;
    const { emails } = await dev<{ emails: { subject: string; locale: string }[] }>(`outbox?to=${encodeURIComponent(email)}`);
    expect(emails.map((m) => [m.locale, m.subject.split(':')[0]])).to.deep.equal([['de', 'Anmeldung bestätigt']]);
  });

  it('takes its locale from the page language when it has none', async () => {
    const wrapper = await fixture(
      html`<div lang="de-AT"><service-registration key=${keyOf('registration')} base-url=${service.url}></service-registration></div>`,
    );
    const el = wrapper.querySelector('service-registration')!;
    await settled(el);
    expect(textOf(el)).to.contain('Programme von Acme Academy');
  });

  it('shows one programme with course, and follows a changed course without remounting', async () => {
    const el = await settled(await mount(keyOf('registration'), { course: 'crs_ts' }));
    expect($$(el, '.course h3').map((h) => h.textContent)).to.deep.equal(['TypeScript for teams']);
    el.setAttribute('course', 'crs_open');
    await el.updateComplete; // the change starts a new load
    expect(el.loadState).to.equal('loading');
    await settled(el);
    expect($$(el, '.course h3').map((h) => h.textContent)).to.deep.equal(['Open day: meet the trainers']);
  });

  it('says so when the course does not exist (not-available for the loader contract)', async () => {
    const el = await mount(keyOf('registration'), { course: 'crs_nope' });
    await settled(el, 'error');
    expect(el.errorCode).to.equal('not-available');
    expect($(el, '[role=alert]').textContent).to.contain('crs_nope');
    await expect(el).to.be.accessible();
  });

  it('filters many programmes by a search, and says when nothing matches', async () => {
    const el = await settled(await mount());
    const search = $<HTMLInputElement>(el, 'input[type=search]');
    expect(el.shadowRoot!.querySelector('label[for=search]')!.textContent).to.equal('Search programmes');
    search.value = 'hamburg';
    search.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect($$(el, '.course h3').map((h) => h.textContent)).to.deep.equal(['TypeScript for teams']);
    expect(textOf(el)).to.contain('1 programme shown');
    search.value = 'underwater basket weaving';
    search.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect($$(el, '.course')).to.have.length(0);
    expect(textOf(el)).to.contain('No programme matches “underwater basket weaving”.');
    await expect(el).to.be.accessible();
    buttonNamed(el, 'Clear search')[0]!.click();
    await until(() => el.shadowRoot!.activeElement === search);
    expect($$(el, '.course').length).to.be.greaterThan(4);
  });

  it('a company with more programmes than a page: the first page, more on request, and a search that asks the service', async () => {
    const real = await (
      await fetch(new URL(`widget-api/v1/widget?key=${keyOf('registration')}&type=registration`, service.url))
    ).json();
    const template = real.courses.find((c: { classes: unknown[] }) => c.classes.length);
    const all = Array.from({ length: 24 }, (_, i) => ({
      ...template,
      id: `crs_many_${i}`,
      title: `Programme ${i + 1}`,
      classes: template.classes.map((c: { id: string }) => ({ ...c, id: `${c.id}_${i}` })),
    }));
    const asked: string[] = [];
    // The service's pages of 20, as `GET /courses` answers them (service/test/widget-api.test.ts).
    const pages = async (input: RequestInfo | URL) => {
      const url = new URL(String(input));
      const path = url.pathname.split('/').pop()!;
      url.searchParams.delete('key');
      asked.push(`${path}?${url.searchParams}`);
      if (path === 'widget') return Response.json({ widget: real.widget, courses: all.slice(0, 20), courses_total: all.length });
      const q = url.searchParams.get('q') ?? '';
      const page = Number(url.searchParams.get('page'));
      const matching = all.filter((c) => c.title.toLowerCase().includes(q));
      return Response.json({ courses: matching.slice((page - 1) * 20, page * 20), courses_total: matching.length, page });
    };
    const el = await settled(await mount(keyOf('registration'), { fetch: pages as typeof fetch }));
    expect($$(el, '.course')).to.have.length(20);
    await expect(el).to.be.accessible();

    // Held to a reservation, the first view's own "Show all" shows what is cut, and "Show more" comes
    // at the end of the list, once it is all there.
    el.style.minHeight = '20rem';
    el.requestUpdate();
    await el.updateComplete;
    await fitted(el);
    expect($(el, 'p.more').hidden).to.equal(false);
    expect(buttonNamed(el, 'Show all 20 programmes')).to.have.length(1);
    buttonNamed(el, 'Show all 20 programmes')[0]!.click();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('p.more')).to.equal(null);

    // A search while not every programme is here asks the service: programmes 21 to 24 are found too.
    const search = $<HTMLInputElement>(el, 'input[type=search]');
    search.value = 'Programme 2';
    search.dispatchEvent(new Event('input'));
    await until(() => $$(el, '.course').length === 6);
    expect($$(el, '.course h3').map((h) => h.textContent)).to.deep.equal([2, 20, 21, 22, 23, 24].map((n) => `Programme ${n}`));
    expect(asked).to.include('courses?q=programme+2&page=1');
    expect(textOf(el)).to.contain('6 programmes shown');
    search.value = '';
    search.dispatchEvent(new Event('input'));
    await until(() => $$(el, '.course').length === 20);

    // More on request: the next page joins the list, and then there is no more to ask for.
    buttonNamed(el, 'Show more programmes (20 of 24)')[0]!.click();
    await until(() => $$(el, '.course').length === 24);
    expect(asked.at(-1)).to.equal('courses?page=2');
    expect($$(el, 'button').some((b) => b.textContent!.includes('Show more programmes'))).to.equal(false);
    await expect(el).to.be.accessible();

    // Every programme here now: a search filters them at once, without asking.
    const before = asked.length;
    search.value = 'Programme 24';
    search.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect($$(el, '.course h3').map((h) => h.textContent)).to.deep.equal(['Programme 24']);
    expect(asked).to.have.length(before);
  });

  it('says so in the visitor’s words when more programmes cannot be loaded, keeps those shown, and loads them when asked again', async () => {
    const real = await (
      await fetch(new URL(`widget-api/v1/widget?key=${keyOf('registration')}&type=registration`, service.url))
    ).json();
    const more = real.courses.map((c: { id: string }) => ({ ...c, id: `${c.id}_more` }));
    let down = true;
    const failing = async (input: RequestInfo | URL) =>
      !String(input).includes('/courses?')
        ? Response.json({ ...real, courses_total: real.courses.length + more.length })
        : down
          ? Response.json({ error: { code: 'internal', message: 'Internal error 7f3a.' } }, { status: 500 })
          : Response.json({ courses: more, courses_total: real.courses.length + more.length, page: 2 });
    const el = await settled(await mount(keyOf('registration'), { fetch: failing as typeof fetch }));
    const shown = $$(el, '.course').length;
    const showMore = () =>
      $$<HTMLButtonElement>(el, 'button')
        .find((b) => b.textContent!.includes('Show more programmes'))!
        .click();
    showMore();
    await until(() => textOf(el).includes('More programmes could not be loaded'));
    expect($(el, '[role=alert]').textContent!.trim()).to.equal(
      'More programmes could not be loaded: The booking service had a problem. Try again in a moment.',
    );
    expect($$(el, '.course')).to.have.length(shown);
    await expect(el).to.be.accessible();

    down = false;
    showMore();
    await until(() => $$(el, '.course').length === 2 * shown);
    expect(el.shadowRoot!.querySelector('[role=alert]')).to.equal(null);
  });

  for (const [locale, showAll] of [
    ['en', 'Show all 6 programmes'],
    ['de', 'Alle 6 Programme zeigen'],
  ] as const) {
    it(`at 375 px (${locale}), held to its 420 px, the first view shows whole programmes, a booking button among them, and the rest on asking`, async () => {
      const el = await reserve(await settled(await mount(keyOf('registration'), { locale })), 375, 420);
      const shown = await expectWholeItems(el);
      // The widget kept its space (nothing below it moved), and a class can be booked from it.
      expect(el.getBoundingClientRect().height).to.equal(420);
      expect(shown.filter((li) => li.matches('.course')).length).to.be.within(1, 5);
      const booking = shown.flatMap((li) => [...li.querySelectorAll<HTMLButtonElement>(':scope > button')]);
      expect(booking.length, 'a booking button in the first view').to.be.above(0);
      expect(booking[0]!.getBoundingClientRect().bottom).to.be.at.most(el.getBoundingClientRect().bottom);
      expect(buttonNamed(el, showAll)).to.have.length(1);
      await expect(el).to.be.accessible();

      // The visitor's act lets the view grow (what was held back stays back until asked for).
      const search = $<HTMLInputElement>(el, 'input[type=search]');
      search.value = 'e';
      search.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      await el.updateComplete;
      expect($(el, '.view').classList.contains('first')).to.equal(false);
      buttonNamed(el, showAll.replace('6', String($$(el, '.course').length)))[0]?.click();
      // The view is fitted again before the next frame is painted.
      await until(() => $$(el, '.course').every((c) => c.getClientRects().length), 'every programme shown');
    });
  }

  it('held to a space too small for even its first programme (a narrow page), it grows by what that lacks and holds back the rest', async () => {
    const el = await reserve(await settled(await mount(keyOf('registration'))), 343, 200);
    const shown = (selector: string) => $$(el, selector).filter((e) => e.getClientRects().length);
    // One whole programme with its first class, never half of one, and the way to the rest.
    expect(shown('.course')).to.have.length(1);
    expect(shown('.course .class').length).to.be.at.least(1);
    expect(buttonNamed(el, 'Show all 6 programmes')).to.have.length(1);
    const card = shown('.course')[0]!.getBoundingClientRect();
    expect(card.bottom).to.be.at.most(el.getBoundingClientRect().bottom);
    expect(el.getBoundingClientRect().height).to.be.above(200);
    await expect(el).to.be.accessible();
  });

  it('shows an empty state when the company offers nothing', async () => {
    const empty = { widget: { type: 'registration', company: { id: 'c_x', name: 'Quiet Co' } }, courses: [] };
    const el = await settled(await mount(keyOf('registration'), { fetch: async () => Response.json(empty) }));
    expect(textOf(el)).to.contain('No programmes are open for registration right now.');
    expect(el.shadowRoot!.querySelector('input[type=search]')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('registers for a class: form, its own check, one record however often it is clicked, event', async () => {
    const posts: string[] = [];
    const counting: typeof fetch = (input, init) => {
      if (init?.method === 'POST') posts.push(String(input));
      return fetch(input, init);
    };
    const el = await settled(await mount(keyOf('registration'), { fetch: counting, course: 'crs_web' }));
    const seatsBefore = Number(/Seats left: (\d+)/.exec(textOf(el))![1]);
    await choose(el, 'Web accessibility in practice');
    // The form's heading takes the focus.
    expect(el.shadowRoot!.activeElement?.textContent).to.equal('Register for Web accessibility in practice');
    await expect(el).to.be.accessible();

    // The form's own check stops an incomplete form: nothing is sent.
    submit(el);
    await expectFaults(
      el,
      {
        first_name: 'Fill in this field.',
        last_name: 'Fill in this field.',
        email: 'Fill in this field.',
        consent: 'Tick the box to agree.',
      },
      'Please correct the highlighted fields.',
    );
    expect(posts).to.have.length(0);

    const email = uniqueEmail();
    await fill(el, { first_name: 'Ada', last_name: 'Lovelace', email, phone: '+49 30 1234567', consent: true });
    const created = oneEvent(el, 'service-registration-created') as Promise<RegistrationCreatedEvent>;
    submit(el);
    submit(el); // a double click
    await el.updateComplete;
    expect($<HTMLButtonElement>(el, 'form > button[part=button]').disabled).to.equal(true);
    const { detail } = await created;
    expect(detail.course).to.equal('crs_web');
    expect(detail.status).to.equal('confirmed');
    expect(detail.id).to.be.a('string').and.not.equal('');
    await el.updateComplete;
    expect(posts).to.have.length(1);
    expect(textOf(el)).to.contain('You are registered');
    expect(textOf(el)).to.contain(`We have sent a confirmation to ${email}.`);
    // A paid class, and nothing paid here: the visitor is told who says how.
    expect($(el, '.done .card').textContent).to.contain('Acme Academy will tell you how to pay.');
    expect(el.shadowRoot!.activeElement?.textContent).to.equal('You are registered');
    await expect(el).to.be.accessible();

    // The service holds exactly one more registration.
    const fresh = await settled(await mount(keyOf('registration'), { course: 'crs_web' }));
    expect(Number(/Seats left: (\d+)/.exec(textOf(fresh))![1])).to.equal(seatsBefore - 1);
  });

  for (const locale of ['en', 'de'] as const)
    it(`checks the form itself (${locale}): every field left empty says what to do, at once, in the widget’s words; nothing is sent, nothing typed is lost`, async () => {
      const posts: string[] = [];
      const counting: typeof fetch = (input, init) => {
        if (init?.method === 'POST') posts.push(String(input));
        return fetch(input, init);
      };
      const el = await settled(await mount(keyOf('registration'), { locale, fetch: counting, course: 'crs_open' }));
      await choose(el, 'Open day: meet the trainers', locale === 'de' ? 'Anmelden' : 'Register');
      // Blanks are no name; the phone is optional.
      await fill(el, { first_name: 'Ada', last_name: '   ', phone: '+49 30 1234567' });
      submit(el);
      const words = FORM_WORDS[locale];
      await expectFaults(el, { last_name: words.fillIn, email: words.fillIn, consent: words.tickBox }, words.line);
      expect(posts).to.have.length(0);
      expect($<HTMLInputElement>(el, '#first_name').value).to.equal('Ada');
      expect($<HTMLInputElement>(el, '#phone').value).to.equal('+49 30 1234567');
      expect($<HTMLInputElement>(el, '#phone').getAttribute('aria-invalid')).to.equal('false');
      await expect(el).to.be.accessible();
      // Typing into a field takes its fault away; the others stay until the next send.
      await fill(el, { last_name: 'Lovelace' });
      expect(el.shadowRoot!.querySelector('#last_name-error')).to.equal(null);
      expect($(el, '#email-error').textContent).to.equal(words.fillIn);
    });

  it('a German widget shows the service’s faults in German, every one at once beside its field, and keeps what was typed', async () => {
    const el = await settled(await mount(keyOf('registration'), { locale: 'de', course: 'crs_open' }));
    await choose(el, 'Open day: meet the trainers', 'Anmelden');
    // What the form's own check lets pass, and the service's rules do not.
    await fill(el, { first_name: '42', last_name: 'Lovelace', email: 'ada@example', phone: 'ruf mich an', consent: true });
    submit(el);
    await until(() => !!el.shadowRoot!.querySelector('#first_name-error'), 'the service’s faults');
    await expectFaults(
      el,
      {
        first_name: '„Vorname“ braucht mindestens einen Buchstaben.',
        email: 'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.org.',
        phone: 'Die Telefonnummer darf nur Ziffern, Leerzeichen und + ( ) - . / enthalten.',
      },
      'Bitte korrigieren Sie die markierten Felder.',
    );
    expect($<HTMLInputElement>(el, '#first_name').value).to.equal('42');
    expect($<HTMLInputElement>(el, '#email').value).to.equal('ada@example');
    expect($<HTMLInputElement>(el, '#consent').checked).to.equal(true);
    await expect(el).to.be.accessible();
  });

  for (const [locale, button, line] of [
    ['en', 'Register', 'Shorten first name to at most 100 characters.'],
    ['de', 'Anmelden', 'Kürzen Sie „Vorname“ auf höchstens 100 Zeichen.'],
  ]) {
    it(`(${locale}) a pasted name longer than the service takes is kept whole, and the service says how long it may be (the browser would cut it without a word)`, async () => {
      const el = await settled(await mount(keyOf('registration'), { locale, course: 'crs_open' }));
      await choose(el, 'Open day: meet the trainers', button);
      await fill(el, { last_name: 'Lovelace', email: uniqueEmail(), consent: true });
      const name = 'Augusta Ada '.repeat(10).trim();
      const input = $<HTMLInputElement>(el, '#first_name');
      input.focus();
      // Inserted as a paste is, which a field's maxlength would cut.
      document.execCommand('insertText', false, name);
      expect(input.value).to.equal(name);
      submit(el);
      await until(() => !!el.shadowRoot!.querySelector('#first_name-error'), 'the service’s fault');
      expect($(el, '#first_name-error').textContent).to.equal(line);
      expect(input.value).to.equal(name);
      expect(el.shadowRoot!.activeElement).to.equal(input);
      await expect(el).to.be.accessible();
    });
  }

  it('shows the service’s field errors next to the fields and keeps what was typed', async () => {
    const el = await settled(await mount(keyOf('registration'), { course: 'crs_open' }));
    const email = uniqueEmail();
    await choose(el, 'Open day: meet the trainers');
    // A name the browser takes, and the service does not: it would turn the text around it.
    await fill(el, { first_name: 'Grace', last_name: '\u202eHopper', email, consent: true });
    submit(el);
    await until(() => !!el.shadowRoot!.querySelector('#last_name-error'));
    const input = $<HTMLInputElement>(el, '#last_name');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(input.getAttribute('aria-describedby')).to.equal('last_name-error');
    expect($(el, '#last_name-error').textContent).to.match(/change the text direction/);
    expect(textOf(el)).to.contain('Please correct the highlighted fields.');
    expect(el.shadowRoot!.activeElement).to.equal(input);
    expect(input.value).to.equal('\u202eHopper');
    expect($<HTMLInputElement>(el, '#first_name').value).to.equal('Grace');
    // The two fields side by side stay aligned though one shows an error.
    expect($(el, '#first_name').getBoundingClientRect().top).to.equal(input.getBoundingClientRect().top);
    expect($<HTMLInputElement>(el, '#email').value).to.equal(email);
    await expect(el).to.be.accessible();
    // Editing the field clears its error, and the corrected form goes through.
    await fill(el, { last_name: 'Hopper' });
    expect(el.shadowRoot!.querySelector('#last_name-error')).to.equal(null);
    const created = oneEvent(el, 'service-registration-created');
    submit(el);
    await created;
  });

  it('reads well on a dark page: seats, links, buttons and field errors keep their contrast', async () => {
    const page = await darkPage(
      html`<service-registration key=${keyOf('registration')} base-url=${service.url} locale="en"></service-registration>`,
    );
    const el = await settled(page.querySelector('service-registration')!);
    await expect(page).to.be.accessible();
    await registerForOpenDay(el, () => expect(page).to.be.accessible());
    await choose(el, 'Open day: meet the trainers');
    await fill(el, { first_name: 'Grace', last_name: '\u2067Hopper', email: uniqueEmail(), consent: true });
    submit(el);
    await until(() => !!el.shadowRoot!.querySelector('#last_name-error'));
    await expect(page).to.be.accessible();
  });

  it('a rate limit says when to try again, in English and German, and keeps the form', async () => {
    const onStrict = (locale: string) =>
      fixture<ServiceRegistration>(
        html`<service-registration key=${keyOf('registration')} base-url=${service.strict} locale=${locale} course="crs_open"></service-registration>`,
      );
    const el = await settled(await onStrict('en'));
    await registerForOpenDay(el);
    await choose(el, 'Open day: meet the trainers');
    const email = uniqueEmail();
    await fill(el, { first_name: 'Katherine', last_name: 'Johnson', email, consent: true });
    submit(el);
    await until(() => textOf(el).includes('Too many'));
    expect($(el, '#form-error').textContent!.trim()).to.equal(
      'Too many registrations from here. Try again in 10 minutes. Your entries are kept.',
    );
    expect($<HTMLInputElement>(el, '#email').value).to.equal(email);
    await expect(el).to.be.accessible();

    const de = await settled(await onStrict('de'));
    await choose(de, 'Open day: meet the trainers', 'Anmelden');
    await fill(de, { first_name: 'Katherine', last_name: 'Johnson', email, consent: true });
    submit(de);
    await until(() => textOf(de).includes('Zu viele'));
    expect($(de, '#form-error').textContent!.trim()).to.equal(
      'Zu viele Versuche. Bitte versuchen Sie es in 10 Min. erneut. Ihre Eingaben bleiben erhalten.',
    );
    await expect(de).to.be.accessible();
  });

  it('joins the waitlist of a full class', async () => {
    const el = await settled(await mount(keyOf('registration'), { course: 'crs_ts' }));
    await choose(el, 'TypeScript for teams', 'Join waitlist');
    expect(textOf(el)).to.contain('You will join the waitlist');
    await fill(el, { first_name: 'Alan', last_name: 'Turing', email: uniqueEmail(), consent: true });
    const created = oneEvent(el, 'service-registration-created') as Promise<RegistrationCreatedEvent>;
    submit(el);
    expect((await created).detail.status).to.equal('waitlisted');
    await el.updateComplete;
    expect(textOf(el)).to.contain('You are on the waitlist');
    // No seat yet: when they hear, and how to leave the waitlist; no class for the calendar.
    expect(textOf(el)).to.contain('We will email you as soon as a place frees up.');
    expect($(el, '.done').textContent).to.match(/You can leave the waitlist until .+ in your account on this site/);
    expect(el.shadowRoot!.querySelector('.done a[download]')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('keeps the form when the class fills up or the service cannot be reached, and sends again with the same key', async () => {
    const keys: string[] = [];
    let mode: 'full' | 'down' | 'real' = 'full';
    const scripted: typeof fetch = async (input, init) => {
      if (init?.method !== 'POST') return fetch(input, init);
      keys.push(new Headers(init.headers).get('Idempotency-Key')!);
      if (mode === 'full')
        return Response.json({ error: { code: 'class-full', message: 'The class is full.' } }, { status: 409 });
      if (mode === 'down') throw new TypeError('Failed to fetch');
      return fetch(input, init);
    };
    const el = await settled(await mount(keyOf('registration'), { fetch: scripted, course: 'crs_data' }));
    await choose(el, 'Data literacy basics');
    await fill(el, { first_name: 'Mary', last_name: 'Jackson', email: uniqueEmail(), consent: true });
    submit(el);
    await until(() => textOf(el).includes('filled up'));
    expect($<HTMLInputElement>(el, '#first_name').value).to.equal('Mary');
    await expect(el).to.be.accessible();

    mode = 'down';
    submit(el);
    await until(() => textOf(el).includes('Your entries are kept.'));
    expect(keys.length).to.equal(4); // one refused, then three attempts of the same submission
    expect(new Set(keys.slice(1)).size).to.equal(1);

    mode = 'real';
    const created = oneEvent(el, 'service-registration-created');
    submit(el);
    await created;
    expect(keys.at(-1)).to.equal(keys[1]); // the retried submission keeps its idempotency key
  });

  it('has no public method for its form: only the hooks of Lit and of the base (the form gets callbacks)', () => {
    expect(ownMethods(customElements.get('service-registration')!)).to.deep.equal([]);
  });
});

describe('service-registration, seats held meanwhile', () => {
  it('a class whose seats an unpaid order takes while the visitor registers: says for how long, keeps what was typed', async () => {
    const el = await settled(await mount(keyOf('registration'), { course: 'crs_lead' }));
    await choose(el, 'Leading remote teams');
    expect(textOf(el)).to.contain('Register for Leading remote teams');
    await fill(el, { first_name: 'Mary', last_name: 'Jackson', email: uniqueEmail(), consent: true });
    // The form is open on the first bookable class (cls_lead_2); another visitor's unpaid order takes all its seats.
    const hold = await holdSeats('cls_lead_2', 6);
    try {
      submit(el);
      await until(() => textOf(el).includes('held by orders waiting for payment'));
      const minutes = /try again in (\d+) min, or choose another date\./.exec(textOf(el));
      expect(minutes, textOf(el)).not.to.equal(null);
      expect($<HTMLInputElement>(el, '#first_name').value).to.equal('Mary');
      await expect(el).to.be.accessible();
    } finally {
      await hold.release();
    }
  });
});

describe('service-registration, returning and refusing', () => {
  it('goes back to the list with the focus on the class it came from, and a new course drops the form', async () => {
    const el = await settled(await mount(keyOf('registration'), { course: 'crs_open' }));
    await choose(el, 'Open day: meet the trainers');
    buttonNamed(el, '← Back to all programmes')[0]!.click();
    await until(() => el.shadowRoot!.activeElement?.textContent?.trim() === 'Register');
    expect(el.shadowRoot!.activeElement!.getAttribute('aria-describedby')).to.contain('class-cls_open_1');
    await choose(el, 'Open day: meet the trainers');
    el.setAttribute('course', 'crs_ts');
    await settled(await el.updateComplete.then(() => el));
    expect(el.shadowRoot!.querySelector('form')).to.equal(null);
    expect($$(el, '.course h3').map((h) => h.textContent)).to.deep.equal(['TypeScript for teams']);
  });

  it('says so above the button when the class itself is refused (it started, or is gone)', async () => {
    const refusing: typeof fetch = async (input, init) =>
      init?.method === 'POST'
        ? Response.json(
            {
              error: {
                code: 'validation',
                message: 'Check the fields.',
                fields: { class_id: 'This class has already started: choose another date.' },
              },
            },
            { status: 422 },
          )
        : fetch(input, init);
    const el = await settled(await mount(keyOf('registration'), { fetch: refusing, course: 'crs_open' }));
    await choose(el, 'Open day: meet the trainers');
    await fill(el, { first_name: 'Dorothy', last_name: 'Vaughan', email: uniqueEmail(), consent: true });
    submit(el);
    await until(() => textOf(el).includes('already started'));
    expect($(el, '#form-error').textContent).to.contain('This class has already started: choose another date.');
    expect($<HTMLInputElement>(el, '#first_name').value).to.equal('Dorothy');
    await expect(el).to.be.accessible();
  });
});

describe('service-registration’s confirmation', () => {
  const WORDS = {
    en: {
      register: 'Register',
      heading: 'You are registered',
      sent: 'We have sent a confirmation to {email}.',
      calendar: 'Add to calendar',
      cancel: 'Can’t make it? You can cancel your place until {date} in your account on this site, signed in with this email.',
      back: 'Back to all programmes',
      free: 'Free',
    },
    de: {
      register: 'Anmelden',
      heading: 'Sie sind angemeldet',
      sent: 'Wir haben eine Bestätigung an {email} gesendet.',
      calendar: 'Zum Kalender hinzufügen',
      cancel:
        'Sie können doch nicht teilnehmen? Bis {date} stornieren Sie Ihren Platz in Ihrem Konto auf dieser Website, angemeldet mit dieser E-Mail-Adresse.',
      back: 'Zurück zu allen Programmen',
      free: 'Kostenlos',
    },
  };

  /** Registers Ada for the open day (free, with seats for every test) in a widget of `locale`. */
  const register = async (el: ServiceRegistration, locale: 'en' | 'de' = 'en') => {
    await choose(el, 'Open day: meet the trainers', WORDS[locale].register);
    const email = uniqueEmail();
    await fill(el, { first_name: 'Ada', last_name: 'Lovelace', email, consent: true });
    const created = oneEvent(el, 'service-registration-created');
    submit(el);
    await created;
    await el.updateComplete;
    return email;
  };

  for (const locale of ['en', 'de'] as const) {
    for (const width of [1280, 375]) {
      it(`(${locale}, ${width} px) says what was booked, where the email went, the calendar file and until when to cancel; it fills the widget’s space`, async () => {
        const words = WORDS[locale];
        const el = await reserve(await settled(await mount(keyOf('registration'), { locale, course: 'crs_open' })), width, 420);
        const cls = el.data!.courses[0]!.classes[0]!;
        const email = await register(el, locale);
        expect(el.shadowRoot!.activeElement).to.equal($(el, '.done h2'));
        expect($(el, '.done h2').textContent).to.equal(words.heading);
        const text = textOf(el);
        expect(text).to.contain(words.sent.replace('{email}', email));
        // What was booked: the class, when, where, for whom, and its price.
        const card = $(el, '.done .card').textContent!.replace(/\s+/g, ' ');
        for (const fact of [
          'Open day: meet the trainers',
          formatDateRange(locale, cls.starts_at, cls.ends_at, cls.timezone),
          cls.location,
          'Ada Lovelace',
          words.free,
        ])
          expect(card).to.contain(fact);
        // A free class: nothing to pay, and no word of paying.
        expect(card).not.to.match(/pay|bezahlen/);
        // Until when to cancel: a day before the class, in the venue's time.
        const day = new Date(Date.parse(cls.starts_at) - 24 * 3600_000).toISOString();
        const until = formatDateRange(locale, day, day, cls.timezone, {
          weekday: 'short',
          day: 'numeric',
          month: 'short',
          hour: locale === 'de' ? '2-digit' : 'numeric',
        });
        expect(text).to.contain(words.cancel.replace('{date}', until));
        // Its hour written as the class's: "08:00" in German (not "8:00"), "8:00 AM" in English (not "08:00 AM").
        expect(until).to.match(locale === 'de' ? / \d\d:\d\d GMT/ : / [1-9]\d?:\d\d [AP]M GMT/);
        // Its zone named as every class's times are, by its offset, in German too (not "MEZ").
        expect(until).to.match(/ GMT[+-]\d+$/);
        // The class's calendar file, as a plain link of the service.
        const link = $<HTMLAnchorElement>(el, '.done a[download]');
        expect(link.textContent!.trim()).to.equal(words.calendar);
        const file = await fetch(link.href);
        expect(file.headers.get('content-type')).to.contain('text/calendar');
        expect(await file.text()).to.contain('SUMMARY:Open day: meet the trainers');
        // No blank box: the confirmation fills the widget to its foot, its way back at the end.
        const host = el.getBoundingClientRect();
        expect(host.height).to.be.at.least(420);
        expect(host.bottom - $(el, '.done').getBoundingClientRect().bottom).to.be.below(1);
        expect(buttonNamed(el, words.back)[0]!.getBoundingClientRect().bottom).to.be.at.most(host.bottom);
        await expect(el).to.be.accessible();
      });
    }
  }

  it('a long email address breaks rather than overflows at 320 px', async () => {
    const el = await reserve(await settled(await mount(keyOf('registration'), { course: 'crs_open' })), 320, 420);
    await choose(el, 'Open day: meet the trainers');
    const email = `maximiliane.schwarzenberger.${Date.now()}@example.org`;
    await fill(el, { first_name: 'Maximiliane', last_name: 'Mustermann', email, consent: true });
    const created = oneEvent(el, 'service-registration-created');
    submit(el);
    await created;
    await el.updateComplete;
    expect(textOf(el)).to.contain(email);
    const done = $(el, '.done');
    expect(done.scrollWidth).to.be.at.most(done.clientWidth);
    expect(el.scrollWidth).to.be.at.most(320);
  });

  it('with a profile on the page, it offers the sign-in to the account where the place is cancelled', async () => {
    const profile = Object.assign(document.createElement('service-profile'), {
      key: keyOf('profile'),
      baseUrl: service.url,
      locale: 'en',
    });
    document.body.append(profile);
    try {
      await settled(profile);
      const el = await settled(await mount(keyOf('registration'), { course: 'crs_open' }));
      const email = await register(el);
      const signIn = buttonNamed(el, 'Sign in to your account')[0]!;
      await expect(el).to.be.accessible();
      signIn.click();
      // The profile's sign-in, with the focus in its email field, which holds the email just used
      // (the visitor typed it already); "Send PIN" sends it.
      const field = profile.shadowRoot!.activeElement as HTMLInputElement;
      expect(field.getAttribute('type')).to.equal('email');
      expect(field.value).to.equal(email);
      await profile.updateComplete;
      expect(field.value).to.equal(email);
    } finally {
      profile.remove();
    }
  });

  it('without a profile on the page, it says where to cancel and offers no sign-in', async () => {
    const el = await settled(await mount(keyOf('registration'), { course: 'crs_open' }));
    await register(el);
    expect(textOf(el)).to.contain('in your account on this site, signed in with this email.');
    expect(buttonNamed(el, 'Sign in to your account')).to.have.length(0);
  });
});

describe('service-registration with a participant signed in on the page', () => {
  afterEach(() => writeSession(service.url, 'c_acme'));

  it('prefills the form with the signed-in participant (one sign-in for the page), and keeps what was typed', async () => {
    const el = await settled(await mount(keyOf('registration'), { course: 'crs_open' }));
    // Signed in after the widget loaded, as by a profile widget on the same page.
    writeSession(service.url, 'c_acme', {
      token: 'ptok_test',
      participant: { id: 'p_ada', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org', phone: '+44 20 7946 0001' },
    });
    await choose(el, 'Open day: meet the trainers');
    // The session's code comes on demand when a class is chosen: the form fills as it arrives.
    await until(() => $<HTMLInputElement>(el, '#first_name').value === 'Ada');
    expect($<HTMLInputElement>(el, '#email').value).to.equal('ada@example.org');
    expect($<HTMLInputElement>(el, '#phone').value).to.equal('+44 20 7946 0001');
    expect($<HTMLInputElement>(el, '#consent').checked).to.equal(false); // consent is the participant's to give
    await fill(el, { first_name: 'Augusta' });
    buttonNamed(el, '← Back to all programmes')[0]!.click();
    await el.updateComplete;
    await choose(el, 'Open day: meet the trainers');
    expect($<HTMLInputElement>(el, '#first_name').value).to.equal('Augusta');
  });
});

describe('service-registration with a checkout on the page', () => {
  /** A checkout of the page's cart (Acme Academy's), ready, hidden as a page may keep it until used. */
  const mountCheckout = async (key = keyOf('checkout'), parent: ParentNode = document.body) => {
    const checkout = Object.assign(document.createElement('service-checkout'), { key, baseUrl: service.url });
    parent.append(checkout);
    return checkout;
  };
  const labelsOf = (el: ServiceRegistration, course: string) => [
    ...$$(el, '.course')
      .find((c) => c.querySelector('h3')!.textContent === course)!
      .querySelectorAll('button'),
  ];
  const labels = (el: ServiceRegistration, course = 'Web accessibility in practice') =>
    labelsOf(el, course).map((b) => b.textContent!.trim());
  let checkout: HTMLElementTagNameMap['service-checkout'] | undefined;
  afterEach(() => {
    checkout?.remove();
    checkout = undefined;
    writeState('cart', service.url, 'c_acme');
  });

  it('puts a paid class with seats into the page’s cart instead of the form; a free class keeps its form', async () => {
    checkout = await settled(await mountCheckout());
    checkout.hidden = true;
    const el = await settled(await mount());
    const add = labelsOf(el, 'Web accessibility in practice').find((b) => b.textContent!.trim() === 'Add to cart')!;
    const id = add.getAttribute('aria-describedby')!.split(' class-')[1]!;
    add.click();
    await until(() => el.shadowRoot!.activeElement?.id === `in-${id}`);
    expect(el.shadowRoot!.activeElement!.textContent).to.contain('In your cart');
    expect(el.shadowRoot!.querySelector('form')).to.equal(null);
    const cart = readState<Cart>('cart', service.url, 'c_acme')!;
    expect(cart.lines.map((l) => [l.class_id, l.seats, l.course_title])).to.deep.equal([
      [id, 1, 'Web accessibility in practice'],
    ]);
    await expect(el).to.be.accessible();

    // The open day costs nothing: its form, as without a checkout.
    await choose(el, 'Open day: meet the trainers');
    expect(el.shadowRoot!.querySelector('form')).not.to.equal(null);
  });

  it('“Go to checkout” takes the focus to the checkout’s heading, wherever it stands (here in a host’s shadow root)', async () => {
    const host = await fixture<HTMLElement>(html`<div></div>`);
    const root = host.attachShadow({ mode: 'open' });
    checkout = await settled(await mountCheckout(keyOf('checkout'), root));
    const el = await settled(await mount());
    labelsOf(el, 'Web accessibility in practice')
      .find((b) => b.textContent!.trim() === 'Add to cart')!
      .click();
    await until(() => labels(el).includes('Go to checkout'), 'the way to the checkout');
    labelsOf(el, 'Web accessibility in practice')
      .find((b) => b.textContent!.trim() === 'Go to checkout')!
      .click();
    // (Booleans: a failed comparison of elements would have the test runner serialise the whole page.)
    expect(root.activeElement === checkout, 'the focus is in the checkout').to.equal(true);
    expect(checkout.shadowRoot!.activeElement!.textContent).to.equal('Your cart');
    await until(() => textOf(checkout!).includes('Web accessibility in practice'), 'the class in the checkout');
  });

  it('a checkout that fails (a key of another type) takes no classes: paid classes keep their form', async () => {
    const failing = (checkout = await mountCheckout(keyOf('registration')));
    const el = await settled(await mount());
    await until(() => failing.loadState === 'error');
    await el.updateComplete;
    expect(labels(el)).not.to.include('Add to cart');
    await choose(el, 'Web accessibility in practice');
    expect(el.shadowRoot!.querySelector('form')).not.to.equal(null);
  });

  it('follows a checkout that comes, goes and comes back, and one that fails later (each says so on the page bus)', async () => {
    const el = await settled(await mount());
    expect(labels(el)).to.include('Register');
    checkout = await mountCheckout();
    await until(() => labels(el).includes('Add to cart'), '“Add to cart” once the checkout is ready');
    checkout.remove();
    await until(() => !labels(el).includes('Add to cart'), '“Register” once the checkout has gone');
    document.body.append(checkout);
    await until(() => labels(el).includes('Add to cart'), '“Add to cart” once the checkout is back');
    checkout.key = keyOf('registration');
    await until(() => !labels(el).includes('Add to cart'), '“Register” once the checkout has failed');
    expect(labels(el)).to.include('Register');
  });

  it('a checkout of another company takes none of its classes', async () => {
    checkout = await settled(await mountCheckout('wk_globex_checkout'));
    const el = await settled(await mount());
    expect(labels(el)).not.to.include('Add to cart');
  });

  it('a checkout of another copy of the package counts: the page bus is the contract, not a tag', async () => {
    const other = (event: WindowEventMap['service-checkout-find']) => {
      if (event.detail.baseUrl === service.url && event.detail.company === 'c_acme') event.preventDefault();
    };
    addEventListener('service-checkout-find', other);
    // As the page bus has a checkout do when it comes: the widgets that asked before ask again.
    dispatchEvent(new CustomEvent('service-checkout-change', { detail: { baseUrl: service.url, company: 'c_acme' } }));
    try {
      const el = await settled(await mount());
      expect(labels(el)).to.include('Add to cart');
    } finally {
      removeEventListener('service-checkout-find', other);
      dispatchEvent(new CustomEvent('service-checkout-change', { detail: { baseUrl: service.url, company: 'c_acme' } }));
    }
  });
});

describe('test support', () => {
  it('reaches the service’s dev endpoints through the test server', async () => {
    const { now } = await dev<{ now: string }>('clock');
    expect(Date.parse(now)).to.be.greaterThan(0);
  });
});
