import { html, nothing, type PropertyValues } from 'lit';
import { ApiError } from '../shared/api.ts';
import { ServiceElement, define } from '../shared/base.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import { SESSION_EVENT, readSession, type Session } from '../shared/session.ts';
import { baseStyles } from '../shared/styles.ts';
import { contactStyles } from './contact.styles.ts';

interface WidgetData {
  widget: { type: string; company: { id: string; name: string }; options: { topics?: string[] } };
  form?: { token: string; min_fill_ms: number };
}

export interface ContactSentDetail {
  /** The stored message's id. */
  id: string;
}

/** Fired when the service has stored the message. */
export class ContactSentEvent extends CustomEvent<ContactSentDetail> {
  constructor(detail: ContactSentDetail) {
    super('service-contact-sent', { detail, bubbles: true, composed: true });
  }
}

type Field = 'name' | 'email' | 'subject' | 'message';
type Values = Partial<Record<Field | 'website', string>> & { consent?: boolean };

const MIN = 10;
const MAX = 5000;

/** The widget's own words; German is in contact.de.ts. */
export const en = {
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
  fixFields: 'Please correct the highlighted fields.',
  tooFast: 'That was quick! Please check your message and send it again.',
  kept: 'Your message is kept.',
  sent: 'Thank you — your message has been sent.',
  reply: 'We’ll reply to {email}.',
  another: 'Write another message',
  count: '{n} / {max} characters',
  countMin: '{n} / {max} characters (at least {min})',
};

const t = translator(en, { de: () => import('./contact.de.ts') });

/**
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
 * touched; a participant logged in on the page (see the profile widget) fills name and email.
 */
export class ServiceContact extends ServiceElement<WidgetData> {
  static override styles = [baseStyles, contactStyles];

  static override properties = {
    prefillName: { attribute: 'prefill-name' },
    prefillEmail: { attribute: 'prefill-email' },
    prefillSubject: { attribute: 'prefill-subject' },
    prefillTopic: { attribute: 'prefill-topic' },
    prefillMessage: { attribute: 'prefill-message' },
    _values: { state: true },
    _errors: { state: true },
    _formError: { state: true },
    _sending: { state: true },
    _done: { state: true },
    _session: { state: true },
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

  /** What the visitor typed; a field not in here shows its prefill. */
  private _values: Values = {};
  private _errors: Partial<Record<Field | 'consent', string>> = {};
  private _formError = '';
  private _sending = false;
  private _done?: { email: string };
  private _session?: Session;

  protected override loadArgs: PropertyKey[] = ['key', 'baseUrl', 'locale'];

  protected override loadWords(locale: Locale) {
    return t.load(locale);
  }

  protected override async load(signal: AbortSignal) {
    const data = (await this.api.request('widget', { params: { type: 'contact' }, signal })) as WidgetData;
    this.#readSession(data);
    return data;
  }

  #readSession = (data = this.data) => {
    if (data) this._session = readSession(this.baseUrl || location.origin, data.widget.company.id);
  };

  override connectedCallback() {
    super.connectedCallback();
    addEventListener(SESSION_EVENT, this.#onSession);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    removeEventListener(SESSION_EVENT, this.#onSession);
  }

  #onSession = () => this.#readSession();

  get #topics() {
    return this.data?.widget.options.topics ?? [];
  }

  /** A field's value: what was typed, else its prefill. */
  #value(field: Field) {
    const typed = this._values[field];
    if (typed !== undefined) return typed;
    const who = this._session?.participant;
    const topics = this.#topics;
    return {
      name: this.prefillName || (who ? `${who.first_name} ${who.last_name}` : ''),
      email: this.prefillEmail || who?.email || '',
      subject: topics.length ? [this.prefillTopic, this.prefillSubject].find((x) => topics.includes(x)) || '' : this.prefillSubject,
      message: this.prefillMessage,
    }[field];
  }

  override render() {
    const { loadState, data, error } = this;
    return html`<section part="base" aria-busy=${loadState === 'loading' ? 'true' : 'false'}>
      ${loadState === 'error'
        ? this.#renderError(error!)
        : loadState === 'loading' || !data
          ? this.#renderLoading()
          : this._done
            ? this.#renderDone()
            : this.#renderForm(data)}
    </section>`;
  }

  protected override updated(changed: PropertyValues<this>) {
    // Sent, or back to the form: focus the new step's heading.
    if (changed.has('_done' as keyof ServiceContact)) this.renderRoot.querySelector<HTMLElement>('[data-focus]')?.focus();
  }

  #renderLoading() {
    return html`<p class="visually-hidden" role="status">${t(this.resolvedLocale, 'loading')}</p>
      <div class="skeleton"></div>
      <div class="skeleton"></div>
      <div class="skeleton"></div>`;
  }

  #renderError(error: ApiError) {
    return html`<div class="notice error" role="alert">
      <p>${error.message}</p>
      ${error.retryable
        ? html`<p><button part="button" class="secondary" @click=${() => this.reload()}>${t(this.resolvedLocale, 'retry')}</button></p>`
        : nothing}
    </div>`;
  }

  #renderForm(data: WidgetData) {
    const locale = this.resolvedLocale;
    const company = data.widget.company.name;
    const errors = this._errors;
    const topics = this.#topics;
    const subject = this.#value('subject');
    const message = this.#value('message');
    const invalid = (name: Field | 'consent') => (errors[name] ? 'true' : 'false');
    const describedBy = (name: Field | 'consent') => (errors[name] ? `${name}-error` : nothing);
    const field = (name: Field, label: string, control: unknown, after: unknown = nothing) => html`<div class="field">
      <label for=${name}>${label}</label>
      ${control} ${after}
      ${errors[name] ? html`<p class="error field-error" id="${name}-error">${errors[name]}</p>` : nothing}
    </div>`;
    const input = (name: 'name' | 'email' | 'subject', type: string, autocomplete: string, max: number) =>
      field(
        name,
        t(locale, name),
        html`<input
          id=${name}
          name=${name}
          type=${type}
          autocomplete=${autocomplete}
          maxlength=${max}
          required
          .value=${this.#value(name)}
          aria-invalid=${invalid(name)}
          aria-describedby=${describedBy(name)}
        />`,
      );
    return html`<h2 tabindex="-1" data-focus>${t(locale, 'heading', { company })}</h2>
      <form @submit=${this.#submit} @input=${this.#edit} aria-describedby=${this._formError ? 'form-error' : nothing}>
        <div class="row">${input('name', 'text', 'name', 100)} ${input('email', 'email', 'email', 254)}</div>
        ${topics.length
          ? field(
              'subject',
              t(locale, 'topic'),
              html`<select id="subject" name="subject" required aria-invalid=${invalid('subject')} aria-describedby=${describedBy('subject')}>
                <option value="">${t(locale, 'choose')}</option>
                ${topics.map((topic) => html`<option ?selected=${topic === subject}>${topic}</option>`)}
              </select>`,
            )
          : input('subject', 'text', 'off', 150)}
        ${field(
          'message',
          t(locale, 'message'),
          html`<textarea
            id="message"
            name="message"
            rows="6"
            minlength=${MIN}
            maxlength=${MAX}
            required
            .value=${message}
            aria-invalid=${invalid('message')}
            aria-describedby="message-count ${errors.message ? 'message-error' : ''}"
          ></textarea>`,
          html`<p class="count" id="message-count">
            ${t(locale, message.length < MIN ? 'countMin' : 'count', { n: message.length, max: MAX, min: MIN })}
          </p>`,
        )}
        <div class="field">
          <div class="consent">
            <input
              id="consent"
              name="consent"
              type="checkbox"
              required
              .checked=${!!this._values.consent}
              aria-invalid=${invalid('consent')}
              aria-describedby=${describedBy('consent')}
            />
            <label for="consent">${t(locale, 'consent', { company })}</label>
          </div>
          ${errors.consent ? html`<p class="error field-error" id="consent-error">${errors.consent}</p>` : nothing}
        </div>
        <div class="visually-hidden" aria-hidden="true">
          <input name="website" tabindex="-1" autocomplete="off" .value=${this._values.website ?? ''} />
        </div>
        <div id="form-error" role="alert">
          ${this._formError ? html`<p class="notice error">${this._formError}</p>` : nothing}
        </div>
        <div>
          <button part="button" type="submit" ?disabled=${this._sending}>
            ${t(locale, this._sending ? 'sending' : 'send')}
          </button>
        </div>
      </form>`;
  }

  #edit = (event: Event) => {
    const { name, value, checked, type } = event.target as HTMLInputElement;
    this._values = { ...this._values, [name]: type === 'checkbox' ? checked : value };
    if (name in this._errors) this._errors = { ...this._errors, [name]: undefined };
  };

  async #submit(event: SubmitEvent) {
    event.preventDefault();
    // The browser's own validation has passed (the form has no `novalidate`); a double click lands here once.
    if (this._sending) return;
    const locale = this.resolvedLocale;
    const subject = this.#value('subject');
    const body = {
      name: this.#value('name'),
      email: this.#value('email'),
      subject,
      ...(this.#topics.length ? { topic: subject } : {}),
      message: this.#value('message'),
      consent: !!this._values.consent,
      website: this._values.website ?? '',
      form_token: this.data?.form?.token,
    };
    this._sending = true;
    this._formError = '';
    this._errors = {};
    try {
      let answer: { message: { id: string }; form: WidgetData['form'] };
      for (let again = 1; ; again--) {
        try {
          answer = await this._write('contact-messages', body);
          break;
        } catch (failure) {
          // Sent sooner than the spam check allows (a quick person, autofill): wait it out and send
          // again, once, so that a person is never refused.
          const wait = failure instanceof ApiError && failure.code == 'too-fast' && (failure.details?.retry_after_ms as number);
          if (!wait || !again) throw failure;
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
      // A form token sends one message: the answer brings the next one's.
      this.data = { ...this.data!, form: answer.form };
      // The next message starts with the same sender and a blank subject and message.
      this._values = { name: body.name, email: body.email };
      this._done = { email: body.email };
      this.dispatchEvent(new ContactSentEvent({ id: answer.message.id }));
    } catch (failure) {
      const error = this.toApiError(failure);
      const { topic, ...fields } = error.fields;
      const errors: Record<string, string | undefined> = { subject: topic, ...fields };
      this._errors = errors;
      this._formError =
        error.code === 'too-fast'
          ? t(locale, 'tooFast')
          : (['name', 'email', 'subject', 'message', 'consent'] as const).some((name) => errors[name])
            ? t(locale, 'fixFields')
            : `${error.message} ${t(locale, 'kept')}`;
      await this.updateComplete;
      // Take the visitor to the first field at fault.
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    } finally {
      this._sending = false;
    }
  }

  #renderDone() {
    const locale = this.resolvedLocale;
    return html`<div class="done" role="status">
      <h2 tabindex="-1" data-focus>${t(locale, 'sent')}</h2>
      <p>${t(locale, 'reply', { email: this._done!.email })}</p>
      <div>
        <button part="button" class="secondary" @click=${() => (this._done = undefined)}>${t(locale, 'another')}</button>
      </div>
    </div>`;
  }
}

define('service-contact', ServiceContact);

declare global {
  interface HTMLElementTagNameMap {
    'service-contact': ServiceContact;
  }
}
