import { html } from 'lit';
import type { ContactSentDetail } from '../../contract/index.ts';
import type { ContactMessageResponse, WidgetResponse } from '../../contract/api/index.ts';
import { ApiError } from '../shared/api.ts';
import { ServiceElement, ServiceEvent, define } from '../shared/base.ts';
import { consent, field, formDescribedBy, formError, FormState, formStyles, formWords, input } from '../shared/form.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import { SessionController } from '../shared/session.ts';
import { baseStyles } from '../shared/styles.ts';
import { contactStyles } from './contact.styles.ts';

/** The first render: the widget, its topics, and the form token (it sends one message) with the time the service wants a form shown before it is sent. */
type WidgetData = WidgetResponse;

/** Fired when the service has stored the message. */
export class ContactSentEvent extends ServiceEvent<ContactSentDetail> {
  constructor(detail: ContactSentDetail) {
    super('service-contact-sent', detail);
  }
}

type Field = 'name' | 'email' | 'subject' | 'message';

const MIN = 10;
const MAX = 5000;

/** The widget's own words; German is in contact.de.ts. */
export const en = {
  ...formWords,
  heading: 'Contact {company}',
  name: 'Name',
  email: 'Email',
  subject: 'Subject',
  topic: 'Topic',
  choose: 'Choose a topic',
  message: 'Message',
  consent: 'I agree that {company} stores my details to answer my message.',
  send: 'Send message',
  sending: 'Sending…',
  tooFast: 'That was quick! Please check your message and send it again.',
  kept: 'Your message is kept.',
  sent: 'Thank you — your message has been sent.',
  reply: 'We’ll reply to {email}.',
  another: 'Write another message',
  count: '{n} / {max} characters',
  countMin: '{n} / {max} characters (at least {min})',
};

const t = translator(en, { de: () => import('./contact.de.ts') });

/** The confirmation's view: a chunk of its own, fetched while a message is sent. */
const sentChunk = () => import('./contact-sent.ts');

/**
 * @tagname service-contact
 * @summary A contact form to the company: name, email, subject or topic, message and consent.
 *
 * @fires service-contact-sent - The service stored the message; `detail: { id }`.
 *
 * @csspart base - The widget's outer container.
 * @csspart button - The main buttons (send, write another).
 *
 * @cssprop [--service-accent=#1d4ed8] - Buttons, links and focus rings.
 * @cssprop [--service-on-accent=#fff] - Text on accent-coloured buttons.
 * @cssprop [--service-border=#767d89] - Borders of fields.
 * @cssprop [--service-danger=#b3261e] - Errors.
 * @cssprop [--service-radius=8px] - Corner radius.
 *
 * Text colour and font come from the page. `prefill-*` attributes fill fields the visitor has not
 * touched; a participant signed in on the page (see the profile widget) fills name and email.
 */
export class ServiceContact extends ServiceElement<WidgetData> {
  static override styles = [baseStyles, formStyles, contactStyles];

  static override properties = {
    prefillName: { attribute: 'prefill-name' },
    prefillEmail: { attribute: 'prefill-email' },
    prefillSubject: { attribute: 'prefill-subject' },
    prefillTopic: { attribute: 'prefill-topic' },
    prefillMessage: { attribute: 'prefill-message' },
    _sent: { state: true },
  };

  /** Fills the name field (`data-service-prefill-name` on a placeholder). */
  prefillName = '';
  /** Fills the email field. */
  prefillEmail = '';
  /** Fills the subject field (a widget without topics). */
  prefillSubject = '';
  /** Chooses a topic (a widget with topics), if it is one of them. */
  prefillTopic = '';
  /** Fills the message field. */
  prefillMessage = '';

  /** The last message sent: its confirmation shows while set. */
  private _sent?: { email: string; subject: string; message: string };
  #form = new FormState(this, (key) => t(this.resolvedLocale, key));
  #session = new SessionController(this);
  #sentView?: ReturnType<Awaited<ReturnType<typeof sentChunk>>['sentView']>;

  protected override loadWords(locale: Locale) {
    return t.load(locale);
  }

  protected override load(signal: AbortSignal) {
    return this.api.request('widget', { params: { type: 'contact' }, signal }) as Promise<WidgetData>;
  }

  protected override step() {
    return this._sent ? 'sent' : 'form';
  }

  get #topics() {
    return this.data?.widget.options.topics ?? [];
  }

  /** A field's value: what was typed, else its prefill. */
  #value(field: Field) {
    const typed = this.#form.values[field] as string | undefined;
    if (typed != null) return typed;
    const who = this.#session.session?.participant;
    const topics = this.#topics;
    return {
      name: this.prefillName || (who ? `${who.first_name} ${who.last_name}` : ''),
      email: this.prefillEmail || who?.email || '',
      subject: topics.length
        ? [this.prefillTopic, this.prefillSubject].find((x) => topics.includes(x)) || ''
        : this.prefillSubject,
      message: this.prefillMessage,
    }[field];
  }

  override render() {
    return this.renderState((data) => (this._sent ? this.#renderSent(this._sent) : this.#renderForm(data)));
  }

  #renderForm(data: WidgetData) {
    const locale = this.resolvedLocale;
    const form = this.#form;
    const company = data.widget.company.name;
    const topics = this.#topics;
    const subject = this.#value('subject');
    const message = this.#value('message');
    const text = (name: 'name' | 'email' | 'subject', type: string, autocomplete: string) =>
      input(form, name, t(locale, name), { type, autocomplete, value: this.#value(name) });
    return html`<h2 tabindex="-1" data-focus>${t(locale, 'heading', { company })}</h2>
      <form novalidate @submit=${this.#submit} @input=${form.edit} aria-describedby=${formDescribedBy(form)}>
        <div class="row">${text('name', 'text', 'name')} ${text('email', 'email', 'email')}</div>
        ${
          topics.length
            ? field(
                form,
                'subject',
                t(locale, 'topic'),
                ({ invalid, describedBy }) => html`<select
                id="subject"
                name="subject"
                required
                aria-invalid=${invalid}
                aria-describedby=${describedBy}
              >
                <option value="">${t(locale, 'choose')}</option>
                ${topics.map((topic) => html`<option ?selected=${topic === subject}>${topic}</option>`)}
              </select>`,
              )
            : text('subject', 'text', 'off')
        }
        ${field(
          form,
          'message',
          t(locale, 'message'),
          ({ invalid, describedBy }) => html`<textarea
            id="message"
            name="message"
            rows="3"
            minlength=${MIN}
            required
            .value=${message}
            aria-invalid=${invalid}
            aria-describedby=${describedBy}
          ></textarea>`,
          t(locale, message.length < MIN ? 'countMin' : 'count', { n: message.length, max: MAX, min: MIN }),
        )}
        ${consent(form, t(locale, 'consent', { company }))}
        <div class="visually-hidden" aria-hidden="true">
          <input name="website" tabindex="-1" autocomplete="off" .value=${(form.values.website as string) ?? ''} />
        </div>
        ${formError(form)}
        <button part="button" ?disabled=${form.sending}>${t(locale, form.sending ? 'sending' : 'send')}</button>
      </form>`;
  }

  #submit = async (event: Event) => {
    const form = this.#form;
    if (!form.check(event)) return;
    const subject = this.#value('subject');
    const body = {
      name: this.#value('name'),
      email: this.#value('email'),
      subject,
      ...(this.#topics.length ? { topic: subject } : {}),
      message: this.#value('message'),
      consent: !!form.values.consent,
      website: form.values.website ?? '',
      form_token: this.data?.form?.token,
    };
    const send = async (again: boolean): Promise<ContactMessageResponse> => {
      try {
        return await form.write(this.api, 'contact-messages', body);
      } catch (failure) {
        // Sent sooner than the spam check allows (a quick person, autofill): wait it out and send
        // again, once, so that a person is never refused.
        const wait = failure instanceof ApiError && failure.code === 'too-fast' && (failure.details?.retry_after_ms as number);
        if (!wait || !again) throw failure;
        await new Promise((resolve) => setTimeout(resolve, wait));
        return send(false);
      }
    };
    const view = sentChunk().then(
      ({ sentView }) => (this.#sentView ??= sentView(this.shadowRoot!)),
      () => {},
    );
    const answer = await form.send(
      () => send(true),
      (error) => {
        // A topic is the subject's field here.
        if (error.fields.topic) form.errors = { ...form.errors, subject: error.fields.topic };
        if (error.code === 'too-fast') return t(this.resolvedLocale, 'tooFast');
      },
    );
    if (!answer) return;
    // A form token sends one message: the answer brings the next one's. The next message starts with
    // the same sender and a blank subject and message.
    this.data = { ...this.data!, form: answer.form };
    form.reset({ name: body.name, email: body.email });
    await view;
    this._sent = body;
    this.dispatchEvent(new ContactSentEvent({ id: answer.message.id }));
  };

  /** The confirmation: where the answer goes, and what was sent (no copy is emailed), filling the form's space. */
  #renderSent({ email, subject, message }: NonNullable<typeof this._sent>) {
    const locale = this.resolvedLocale;
    const head = html`<h2 tabindex="-1" data-focus>${t(locale, 'sent')}</h2>
      <p>${t(locale, 'reply', { email })}</p>`;
    // (Not the second click of a double click on "Send message": when the answer comes between the
    // two, this button is where that one was, and the thank-you would go at once.)
    const another = html`<button part="button" class="secondary" @click=${(e: MouseEvent) => e.detail < 2 && (this._sent = undefined)}>
      ${t(locale, 'another')}
    </button>`;
    // Without its chunk (the connection dropped once the message had gone), the lines that matter.
    return this.#sentView
      ? this.#sentView(
          head,
          [
            [t(locale, this.#topics.length ? 'topic' : 'subject'), subject],
            [t(locale, 'message'), message],
          ],
          another,
        )
      : html`${head}
          <p>${another}</p>`;
  }
}

define('service-contact', ServiceContact);

declare global {
  interface HTMLElementTagNameMap {
    'service-contact': ServiceContact;
  }
}
