import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { writeSession } from '../shared/session.ts';
import {
  darkPage,
  dev,
  expectFaults,
  failOnWarnings,
  FORM_WORDS,
  keyOf,
  ownMethods,
  reserve,
  service,
  settled,
  textOf,
  until,
} from '../../test/browser/support.ts';
import './contact.ts';
import type { ContactSentEvent, ServiceContact } from './contact.ts';

failOnWarnings();

const TOPICS = ['Programmes', 'Invoices', 'Something else'];

const mount = async (attrs: { key?: string; locale?: string; fetch?: typeof fetch; prefill?: Record<string, string> } = {}) => {
  const el = await fixture<ServiceContact>(
    html`<service-contact key=${attrs.key ?? keyOf('contact')} base-url=${service.url} locale=${attrs.locale ?? 'en'} .fetch=${attrs.fetch}></service-contact>`,
  );
  for (const [name, value] of Object.entries(attrs.prefill ?? {})) el.setAttribute(`prefill-${name}`, value);
  return el;
};

const $ = <T extends Element = HTMLElement>(el: ServiceContact, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const $$ = <T extends Element = HTMLElement>(el: ServiceContact, selector: string) => [
  ...el.shadowRoot!.querySelectorAll<T>(selector),
];
const buttonNamed = (el: ServiceContact, name: string) =>
  $$<HTMLButtonElement>(el, 'button').find((b) => b.textContent!.trim() === name);
const valueOf = (el: ServiceContact, id: string) => $<HTMLInputElement>(el, `#${id}`).value;

/** Types into fields as a person would (an `input` event each); booleans tick the consent box. */
const fill = async (el: ServiceContact, values: Record<string, string | boolean>) => {
  for (const [name, value] of Object.entries(values)) {
    const input = $<HTMLInputElement>(el, `[name=${name}]`);
    if (typeof value === 'boolean') input.checked = value;
    else input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  await el.updateComplete;
};

const submit = (el: ServiceContact) => $<HTMLButtonElement>(el, 'form > button[part=button]').click();

/** The service's form token is older than its minimum fill time once its clock has moved on. */
const ageFormToken = () => dev('clock', { advance_s: 5 });

interface WidgetAnswer {
  widget: { options: { topics?: string[] } };
}

/** A fetch that counts (and can script) the POSTs; GETs go to the service, their answer optionally changed. */
const spy = (
  options: {
    post?: (input: RequestInfo | URL, init: RequestInit) => Promise<Response>;
    widget?: (data: WidgetAnswer) => void;
  } = {},
) => {
  const posts: { url: string; key: string; body: Record<string, unknown> }[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    if (init?.method === 'POST') {
      posts.push({
        url: String(input),
        key: new Headers(init.headers).get('Idempotency-Key')!,
        body: JSON.parse(String(init.body)),
      });
      return options.post ? options.post(input, init) : fetch(input, init);
    }
    const answer = await fetch(input, init);
    if (!options.widget || !answer.ok) return answer;
    const data = await answer.json();
    options.widget(data);
    return Response.json(data);
  };
  return Object.assign(fetcher, { posts });
};
const withoutTopics = (data: WidgetAnswer) => (data.widget.options.topics = []);

let n = 0;
const uniqueEmail = () => `contact-${Date.now()}-${n++}@example.org`;
const complete = (extra: Record<string, string | boolean> = {}) => ({
  name: 'Ada Lovelace',
  email: uniqueEmail(),
  subject: 'Invoices',
  message: 'Could you send me the invoice for March again, please?',
  consent: true,
  ...extra,
});

describe('service-contact', () => {
  afterEach(() => writeSession(service.url, 'c_acme', undefined));

  it('shows the form with the widget’s topics as a select, and is accessible', async () => {
    const el = await settled(await mount());
    expect(textOf(el)).to.contain('Contact Acme Academy');
    const select = $<HTMLSelectElement>(el, 'select#subject');
    expect($(el, 'label[for=subject]').textContent).to.equal('Topic');
    expect([...select.options].map((o) => o.textContent)).to.deep.equal(['Choose a topic', ...TOPICS]);
    expect(select.value).to.equal('');
    expect(select.required).to.equal(true);
    for (const id of ['name', 'email', 'message', 'consent']) expect($(el, `label[for=${id}]`)).not.to.equal(null);
    expect($<HTMLInputElement>(el, '#email').type).to.equal('email');
    expect($<HTMLTextAreaElement>(el, '#message').minLength).to.equal(10);
    // No maxlength: a pasted text is never cut without a word (the count and the service say the limit).
    expect($<HTMLTextAreaElement>(el, '#message').hasAttribute('maxlength')).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it('sends its message with a button as wide as its words, as every form does', async () => {
    const el = await settled(await mount());
    const button = $(el, 'form > button[part=button]').getBoundingClientRect();
    expect(button.width).to.be.below($(el, 'form').getBoundingClientRect().width / 2);
    expect(button.left).to.equal($(el, 'form').getBoundingClientRect().left);
  });

  it('has a subject text field when the widget has no topics', async () => {
    const el = await settled(await mount({ fetch: spy({ widget: withoutTopics }) }));
    expect(el.shadowRoot!.querySelector('select')).to.equal(null);
    expect($<HTMLInputElement>(el, 'input#subject').hasAttribute('maxlength')).to.equal(false);
    expect($(el, 'label[for=subject]').textContent).to.equal('Subject');
    await expect(el).to.be.accessible();
  });

  it('speaks German', async () => {
    const el = await settled(await mount({ locale: 'de' }));
    expect(textOf(el)).to.contain('Kontakt zu Acme Academy');
    expect(buttonNamed(el, 'Nachricht senden')).not.to.equal(undefined);
    await expect(el).to.be.accessible();
  });

  it('counts the message’s characters as you type, with both limits, described by the field and not announced on each key', async () => {
    const el = await settled(await mount());
    const count = $(el, '#message-hint');
    expect(count.textContent!.trim()).to.equal('0 / 5000 characters (at least 10)');
    await fill(el, { message: 'Hello' });
    expect(count.textContent!.trim()).to.equal('5 / 5000 characters (at least 10)');
    await fill(el, { message: 'Hello there' });
    expect(count.textContent!.trim()).to.equal('11 / 5000 characters');
    expect($(el, '#message').getAttribute('aria-describedby')!.split(' ')).to.include('message-hint');
    expect(count.closest('[aria-live],[role=status],[role=alert]')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('prefills fields from prefill-* attributes, live, without overwriting what was typed', async () => {
    const el = await settled(
      await mount({
        fetch: spy({ widget: withoutTopics }),
        prefill: { name: 'Grace Hopper', email: 'grace@example.org', subject: 'Compilers', message: 'About the COBOL course…' },
      }),
    );
    expect(valueOf(el, 'name')).to.equal('Grace Hopper');
    expect(valueOf(el, 'email')).to.equal('grace@example.org');
    expect(valueOf(el, 'subject')).to.equal('Compilers');
    expect(valueOf(el, 'message')).to.equal('About the COBOL course…');
    expect($(el, '#message-hint').textContent!.trim()).to.equal('23 / 5000 characters');
    await fill(el, { name: 'G. Hopper' });
    el.setAttribute('prefill-name', 'Someone else');
    el.setAttribute('prefill-email', 'grace.hopper@example.org');
    await el.updateComplete;
    expect(valueOf(el, 'name')).to.equal('G. Hopper');
    expect(valueOf(el, 'email')).to.equal('grace.hopper@example.org');
  });

  it('chooses a topic from prefill-topic', async () => {
    const el = await settled(await mount({ prefill: { topic: 'Invoices' } }));
    expect($<HTMLSelectElement>(el, '#subject').value).to.equal('Invoices');
    const other = await settled(await mount({ prefill: { topic: 'Not a topic' } }));
    expect($<HTMLSelectElement>(other, '#subject').value).to.equal('');
  });

  it('prefills name and email of the participant logged in on the page, and follows the session', async () => {
    const participant = { id: 'p_x', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org', phone: null };
    writeSession(service.url, 'c_acme', { token: 'ptok_test', participant });
    const el = await settled(await mount());
    expect(valueOf(el, 'name')).to.equal('Ada Lovelace');
    expect(valueOf(el, 'email')).to.equal('ada@example.org');

    // Logged out and in as someone else elsewhere on the page: the untouched fields follow.
    await fill(el, { name: 'Ada L.' });
    writeSession(service.url, 'c_acme', {
      token: 'ptok_other',
      participant: { ...participant, first_name: 'Alan', last_name: 'Turing', email: 'alan@example.org' },
    });
    await el.updateComplete;
    expect(valueOf(el, 'name')).to.equal('Ada L.');
    expect(valueOf(el, 'email')).to.equal('alan@example.org');
    writeSession(service.url, 'c_acme', undefined);
    await el.updateComplete;
    expect(valueOf(el, 'email')).to.equal('');

    // Attributes come first.
    writeSession(service.url, 'c_acme', { token: 'ptok_test', participant });
    const attributed = await settled(await mount({ prefill: { email: 'desk@example.org' } }));
    await attributed.updateComplete;
    expect(valueOf(attributed, 'email')).to.equal('desk@example.org');
    expect(valueOf(attributed, 'name')).to.equal('Ada Lovelace');
  });

  for (const locale of ['en', 'de'] as const)
    it(`checks the form itself (${locale}): every field left empty says what to do, at once, in the widget’s words; nothing is sent, nothing typed is lost`, async () => {
      const fetcher = spy();
      const el = await settled(await mount({ fetch: fetcher, locale }));
      await fill(el, { email: 'ada@example.org', message: 'Which programme suits a beginner?' });
      submit(el);
      const words = FORM_WORDS[locale];
      await expectFaults(el, { name: words.fillIn, subject: words.pickOne, consent: words.tickBox }, words.line);
      expect(fetcher.posts).to.have.length(0);
      expect(valueOf(el, 'email')).to.equal('ada@example.org');
      expect(valueOf(el, 'message')).to.equal('Which programme suits a beginner?');
      await expect(el).to.be.accessible();
      // A subject of its own, where the widget has no topics: a text field to fill in.
      const plain = await settled(await mount({ fetch: spy({ widget: withoutTopics }), locale }));
      submit(plain);
      await expectFaults(
        plain,
        { name: words.fillIn, email: words.fillIn, subject: words.fillIn, message: words.fillIn, consent: words.tickBox },
        words.line,
      );
      // The message's count still describes it, beside its fault.
      expect($(plain, '#message').getAttribute('aria-describedby')!.split(' ')).to.include.members([
        'message-hint',
        'message-error',
      ]);
      await expect(plain).to.be.accessible();
    });

  it('a German widget shows the service’s faults in German, every one at once beside its field, and keeps the message', async () => {
    const el = await settled(await mount({ locale: 'de' }));
    await ageFormToken();
    await fill(el, complete({ name: '42', email: 'ada@example', message: 'Zu kurz' }));
    submit(el);
    await until(() => !!el.shadowRoot!.querySelector('#name-error'), 'the service’s faults');
    await expectFaults(
      el,
      {
        name: '„Name“ braucht mindestens einen Buchstaben.',
        email: 'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.org.',
        message: 'Schreiben Sie mindestens 10 Zeichen in Ihre Nachricht.',
      },
      'Bitte korrigieren Sie die markierten Felder.',
    );
    expect(valueOf(el, 'message')).to.equal('Zu kurz');
    expect(valueOf(el, 'subject')).to.equal('Invoices');
    await expect(el).to.be.accessible();
  });

  it('hides the honeypot from people: out of the Tab order and not announced', async () => {
    const el = await settled(await mount());
    const trap = $<HTMLInputElement>(el, '[name=website]');
    expect(trap.tabIndex).to.equal(-1);
    expect(trap.autocomplete).to.equal('off');
    expect(trap.closest('[aria-hidden=true]')).not.to.equal(null);
    expect(trap.parentElement!.getBoundingClientRect().width).to.be.at.most(1);
    $<HTMLInputElement>(el, '#name').focus();
    const reached: string[] = [];
    for (let i = 0; i < 8; i++) {
      await sendKeys({ press: 'Tab' });
      const active = el.shadowRoot!.activeElement;
      if (!active) break;
      reached.push(active.getAttribute('name') ?? active.textContent!.trim());
    }
    expect(reached).to.deep.equal(['email', 'subject', 'message', 'consent', 'Send message']);
    await expect(el).to.be.accessible();
  });

  it('shows the service’s field errors next to their fields, keeps the contents and focuses the first', async () => {
    const el = await settled(await mount());
    await ageFormToken();
    // A short message passes the form's own check (which asks for what is missing): the service's says it is short.
    const values = complete({ message: 'Too short' });
    await fill(el, values);
    submit(el);
    await until(() => !!el.shadowRoot!.querySelector('#message-error'));
    const message = $<HTMLTextAreaElement>(el, '#message');
    expect(message.getAttribute('aria-invalid')).to.equal('true');
    expect(message.getAttribute('aria-describedby')!.split(' ')).to.include.members(['message-hint', 'message-error']);
    expect(el.shadowRoot!.activeElement).to.equal(message);
    expect(textOf(el)).to.contain('Please correct the highlighted fields.');
    expect(message.value).to.equal('Too short');
    expect(valueOf(el, 'email')).to.equal(values.email);
    expect(valueOf(el, 'subject')).to.equal('Invoices');
    expect($<HTMLInputElement>(el, '#consent').checked).to.equal(true);
    await expect(el).to.be.accessible();
    await fill(el, { message: 'Now it is long enough.' });
    expect(el.shadowRoot!.querySelector('#message-error')).to.equal(null);
  });

  it('reads well on a dark page: the form, its field errors and the confirmation keep their contrast', async () => {
    const page = await darkPage(
      html`<service-contact key=${keyOf('contact')} base-url=${service.url} locale="en"></service-contact>`,
    );
    const el = await settled(page.querySelector('service-contact')!);
    await expect(page).to.be.accessible();
    await ageFormToken();
    await fill(el, complete({ message: 'Too short' }));
    submit(el);
    await until(() => !!el.shadowRoot!.querySelector('#message-error'));
    await expect(page).to.be.accessible();
    await fill(el, { message: 'Now it is long enough to be sent.' });
    const sent = oneEvent(el, 'service-contact-sent');
    submit(el);
    await sent;
    await el.updateComplete;
    await expect(page).to.be.accessible();
  });

  it('shows the service’s check of every field beside it, whatever got past the form’s own', async () => {
    const el = await settled(await mount());
    await ageFormToken();
    for (const [field, value, says] of [
      ['name', '1984', /needs at least one letter/],
      ['name', 'N'.repeat(201), /at most/],
      ['email', 'ada@localhost', /valid email address/],
      ['message', 'Too short', /at least 10 characters/],
      ['message', 'M'.repeat(5001), /at most/],
    ] as const) {
      const values = complete({ [field]: value });
      await fill(el, values);
      submit(el);
      await until(() => !!el.shadowRoot!.querySelector(`#${field}-error`));
      const input = $<HTMLInputElement>(el, `#${field}`);
      expect($(el, `#${field}-error`).textContent, field).to.match(says);
      expect(input.getAttribute('aria-invalid')).to.equal('true');
      expect(el.shadowRoot!.activeElement).to.equal(input);
      expect(input.value).to.equal(value);
      expect(valueOf(el, 'email')).to.equal(values.email);
      await expect(el).to.be.accessible();
    }
  });

  it('does not refuse a quick person: a form sent before the spam check allows waits it out and goes, with the same key', async () => {
    const fetcher = spy();
    const el = await settled(await mount({ fetch: fetcher }));
    // Autofill and a quick hand: sent at once after the form appeared.
    await fill(el, complete());
    const sent = oneEvent(el, 'service-contact-sent');
    submit(el);
    await until(() => fetcher.posts.length === 1);
    expect(textOf(el)).to.contain('Sending…');
    expect(textOf(el)).not.to.contain('quick');
    await sent;
    expect(fetcher.posts).to.have.length(2);
    expect(fetcher.posts[1]!.key).to.equal(fetcher.posts[0]!.key);
    await el.updateComplete;
    expect(textOf(el)).to.contain('Thank you — your message has been sent.');
  });

  it('says so when the service still finds the form too fast after the wait, and keeps it', async () => {
    const tooFast = () =>
      Promise.resolve(Response.json({ error: { code: 'too-fast', message: 'Too fast.', retry_after_ms: 1 } }, { status: 422 }));
    const fetcher = spy({ post: tooFast });
    const el = await settled(await mount({ fetch: fetcher }));
    const values = complete();
    await fill(el, values);
    submit(el);
    await until(() => textOf(el).includes('That was quick'));
    expect(fetcher.posts).to.have.length(2);
    expect($(el, '[role=alert]').textContent).to.contain('check your message and send it again');
    expect(valueOf(el, 'message')).to.equal(values.message);
    await expect(el).to.be.accessible();
  });

  it('a rate limit says when to try again, and keeps the message', async () => {
    const el = await settled(
      await fixture<ServiceContact>(
        html`<service-contact key=${keyOf('contact')} base-url=${service.strict} locale="en"></service-contact>`,
      ),
    );
    const strictClock = () => dev('clock', { advance_s: 5 }, { strict: true });
    await strictClock();
    await fill(el, complete());
    const sent = oneEvent(el, 'service-contact-sent');
    submit(el);
    await sent;
    await el.updateComplete;
    // The second click of a double click on "Send message", landing where that button was once the
    // answer came between the two, leaves the thank-you; a click of its own writes another.
    buttonNamed(el, 'Write another message')!.dispatchEvent(
      new MouseEvent('click', { detail: 2, bubbles: true, composed: true }),
    );
    await el.updateComplete;
    expect(textOf(el)).to.contain('Thank you — your message has been sent.');
    buttonNamed(el, 'Write another message')!.click();
    await el.updateComplete;
    expect(textOf(el)).not.to.contain('Thank you — your message has been sent.');
    await strictClock();
    await fill(el, { subject: 'Programmes', message: 'And one more question, please.', consent: true });
    submit(el);
    await until(() => textOf(el).includes('Too many'));
    expect($(el, '[role=alert]').textContent!.trim()).to.equal(
      'Too many messages from here. Try again in 10 minutes. Your message is kept.',
    );
    expect(valueOf(el, 'message')).to.equal('And one more question, please.');
    await expect(el).to.be.accessible();
  });

  it('sends a message once however often it is clicked, confirms it, and fires service-contact-sent', async () => {
    const fetcher = spy();
    const el = await settled(await mount({ fetch: fetcher }));
    await ageFormToken();
    const marker = `marker-${Date.now()}`;
    const values = complete({ message: `Please call me back about ${marker}.` });
    await fill(el, values);
    const sent = oneEvent(el, 'service-contact-sent') as Promise<ContactSentEvent>;
    submit(el);
    submit(el); // a double click
    await el.updateComplete;
    expect($<HTMLButtonElement>(el, 'form > button[part=button]').disabled).to.equal(true);
    expect(textOf(el)).to.contain('Sending…');
    const event = await sent;
    expect(event.detail.id).to.be.a('string').and.not.equal('');
    expect(event.bubbles && event.composed).to.equal(true);
    await el.updateComplete;
    expect(fetcher.posts).to.have.length(1);
    const [post] = fetcher.posts;
    expect(post!.body).to.include({
      name: 'Ada Lovelace',
      email: values.email,
      subject: 'Invoices',
      topic: 'Invoices',
      consent: true,
      website: '',
    });
    expect(post!.body.form_token).to.be.a('string').and.not.equal('');
    expect(post!.key.length).to.be.greaterThan(8);

    expect(textOf(el)).to.contain('Thank you — your message has been sent.');
    expect(textOf(el)).to.contain(`We’ll reply to ${values.email}.`);
    expect(el.shadowRoot!.activeElement?.textContent).to.equal('Thank you — your message has been sent.');
    await expect(el).to.be.accessible();

    // The company was notified once.
    const { emails } = await dev<{ emails: { text: string }[] }>('outbox');
    expect(emails.filter((e) => e.text.includes(marker))).to.have.length(1);

    buttonNamed(el, 'Write another message')!.click();
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement?.textContent).to.equal('Contact Acme Academy');
    expect(valueOf(el, 'name')).to.equal('Ada Lovelace');
    expect(valueOf(el, 'email')).to.equal(values.email);
    expect(valueOf(el, 'message')).to.equal('');
    expect($<HTMLInputElement>(el, '#consent').checked).to.equal(false);

    // The next message goes with the new form token the first answer brought (a token sends one).
    await ageFormToken();
    await fill(el, { subject: 'Programmes', message: `And another thing about ${marker}.`, consent: true });
    const again = oneEvent(el, 'service-contact-sent');
    submit(el);
    await again;
    expect(fetcher.posts).to.have.length(2);
    expect(fetcher.posts[1]!.body.form_token).to.be.a('string').and.not.equal(post!.body.form_token);
  });

  for (const [locale, words] of [
    [
      'en',
      {
        heading: 'Thank you — your message has been sent.',
        reply: 'We’ll reply to {email}.',
        topic: 'Topic',
        message: 'Message',
      },
    ],
    [
      'de',
      {
        heading: 'Vielen Dank – Ihre Nachricht wurde gesendet.',
        reply: 'Wir antworten an {email}.',
        topic: 'Thema',
        message: 'Nachricht',
      },
    ],
  ] as const) {
    for (const width of [1280, 375]) {
      it(`(${locale}, ${width} px) confirms what was sent, where the answer goes, and fills the form's space to its foot`, async () => {
        const el = await reserve(await settled(await mount({ locale })), width, 624);
        await ageFormToken();
        const values = complete({ message: 'Which programme suits a beginner?\nI would like to start in spring.' });
        await fill(el, values);
        const sent = oneEvent(el, 'service-contact-sent');
        submit(el);
        await sent;
        await el.updateComplete;
        expect(el.shadowRoot!.activeElement).to.equal($(el, '.done h2'));
        expect($(el, '.done h2').textContent).to.equal(words.heading);
        expect(textOf(el)).to.contain(words.reply.replace('{email}', values.email));
        // What was sent, as typed (no copy is emailed to the visitor).
        expect([...$$(el, '.sent dt')].map((dt) => dt.textContent)).to.deep.equal([words.topic, words.message]);
        expect([...$$(el, '.sent dd')].map((dd) => dd.textContent)).to.deep.equal(['Invoices', values.message]);
        // No blank box below: the panel takes the space, the next message's button at its foot; the
        // quote's rule is as long as the message's two lines (not an empty box down to the button).
        const host = el.getBoundingClientRect();
        expect(Math.round(host.height)).to.equal(624);
        const another = $(el, '.done .actions button').getBoundingClientRect();
        expect(host.bottom - another.bottom).to.be.within(0, 24);
        const quote = $(el, '.message dd');
        const lines = parseFloat(getComputedStyle(quote).lineHeight) * (width === 1280 ? 2 : 3);
        expect(quote.getBoundingClientRect().height).to.be.below(lines + 12);
        await expect(el).to.be.accessible();
      });
    }
  }

  it('a long email address breaks rather than overflows the confirmation at 320 px', async () => {
    const el = await reserve(await settled(await mount()), 320, 624);
    await ageFormToken();
    const email = `maximiliane.schwarzenberger.${Date.now()}@example.org`;
    await fill(el, complete({ email }));
    const sent = oneEvent(el, 'service-contact-sent');
    submit(el);
    await sent;
    await el.updateComplete;
    expect(textOf(el)).to.contain(email);
    const done = $(el, '.done');
    expect(done.scrollWidth).to.be.at.most(done.clientWidth);
  });

  it('sends a text subject without a topic when the widget has no topics', async () => {
    const fetcher = spy({
      widget: withoutTopics,
      post: async () =>
        Response.json(
          { message: { id: 'msg_1', created_at: '' }, form: { token: 'ft1.next', min_fill_ms: 1500 } },
          { status: 201 },
        ),
    });
    const el = await settled(await mount({ fetch: fetcher }));
    await fill(el, complete({ subject: 'A question' }));
    const sent = oneEvent(el, 'service-contact-sent') as Promise<ContactSentEvent>;
    submit(el);
    expect((await sent).detail).to.deep.equal({ id: 'msg_1' });
    expect(fetcher.posts[0]!.body.subject).to.equal('A question');
    expect(fetcher.posts[0]!.body).not.to.have.property('topic');
  });

  it('keeps everything when the service cannot be reached, and sends again with the same idempotency key', async () => {
    let down = true;
    const fetcher = spy({
      post: (input, init) => (down ? Promise.reject(new TypeError('Failed to fetch')) : fetch(input, init)),
    });
    const el = await settled(await mount({ fetch: fetcher }));
    await ageFormToken();
    const values = complete();
    await fill(el, values);
    submit(el);
    await until(() => textOf(el).includes('Your message is kept.'));
    expect(textOf(el)).to.contain('could not be reached');
    expect(fetcher.posts).to.have.length(3); // three attempts of one submission
    expect(new Set(fetcher.posts.map((p) => p.key)).size).to.equal(1);
    expect(valueOf(el, 'message')).to.equal(values.message);
    expect(valueOf(el, 'email')).to.equal(values.email);
    await expect(el).to.be.accessible();

    down = false;
    const sent = oneEvent(el, 'service-contact-sent');
    submit(el);
    await sent;
    expect(fetcher.posts.at(-1)!.key).to.equal(fetcher.posts[0]!.key);

    // Other contents are another submission with a key of its own.
    buttonNamed(el, 'Write another message')!.click();
    await el.updateComplete;
    down = true;
    await fill(el, { subject: 'Programmes', message: 'A second, different message.', consent: true });
    submit(el);
    await until(() => textOf(el).includes('Your message is kept.'));
    expect(fetcher.posts).to.have.length(7);
    expect(fetcher.posts.at(-1)!.key).not.to.equal(fetcher.posts[0]!.key);
  });

  it('keeps the keyboard in the form when it cannot be sent: the focus back on its button', async () => {
    const fetcher = spy({ post: () => Promise.reject(new TypeError('Failed to fetch')) });
    const el = await settled(await mount({ fetch: fetcher }));
    await ageFormToken();
    await fill(el, complete());
    const send = buttonNamed(el, 'Send message')!;
    send.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => textOf(el).includes('Your message is kept.'));
    // (Disabled while it was sent, the button lost the focus to the page's body.)
    await until(() => el.shadowRoot!.activeElement === send, 'the focus on "Send message"');
    await sendKeys({ press: 'Shift+Tab' });
    expect(el.shadowRoot!.activeElement!.id, 'Tab goes on in the form').to.equal('consent');
  });

  it('has no public method: only the hooks of Lit and of the base', () => {
    expect(ownMethods(customElements.get('service-contact')!)).to.deep.equal([]);
  });
});
