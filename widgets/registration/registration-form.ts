/**
 * The registration widget's form step and its confirmation: a chunk of its own, fetched when the
 * browser is idle after the list (or when a class is chosen), so that the list shows sooner.
 */
import { html, nothing } from 'lit';
import type { RegistrationCreatedDetail } from '../../contract/index.ts';
import type { RegistrationResponse } from '../../contract/api/index.ts';
import { ServiceEvent, type ChunkHost } from '../shared/base.ts';
import { askSignIn, doneStyles } from '../shared/done.ts';
import { consent, formDescribedBy, formError, FormState, formStyles, formWords, input } from '../shared/form.ts';
import { formatDateRange, minutesUntil } from '../shared/format.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import { SessionController } from '../shared/session.ts';
import type { Chosen, ClassInfo, WidgetData } from './registration.ts';

/** Fired when a registration has been made (or the visitor joined a waitlist). */
export class RegistrationCreatedEvent extends ServiceEvent<RegistrationCreatedDetail> {
  constructor(detail: RegistrationCreatedDetail) {
    super('service-registration-created', detail);
  }
}

export type Registration = RegistrationResponse['registration'];

/** The form's words; German is in registration-form.de.ts. */
export const en = {
  ...formWords,
  back: 'Back to all programmes',
  formHeading: 'Register for {course}',
  waitlistNotice: 'This class is full. You will join the waitlist and hear from us when a seat frees up.',
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  phone: 'Phone (optional)',
  consent: 'I agree that {company} stores my details to handle this registration.',
  book: 'Register',
  joinWaitlist: 'Join waitlist',
  sending: 'Sending…',
  classFull: 'This class filled up while you were registering. Please choose another date.',
  classHeld:
    'The last seats of this class are held by orders waiting for payment: try again in {minutes} min, or choose another date.',
  confirmed: 'You are registered',
  waitlisted: 'You are on the waitlist',
  confirmation: 'We have sent a confirmation to {email}.',
  /** A confirmed place in a class that costs money: nothing is paid here (the checkout takes payments). */
  payment: '{company} will tell you how to pay.',
  freed: 'We will email you as soon as a place frees up.',
  addToCalendar: 'Add to calendar',
  cancelUntil: 'Can’t make it? You can cancel your place until {date} in your account on this site, signed in with this email.',
  leaveUntil: 'You can leave the waitlist until {date} in your account on this site, signed in with this email.',
  tooLate: 'Can’t make it? Please tell {company}.',
  signIn: 'Sign in to your account',
};

/**
 * Until when a place can be cancelled: a day, and a time of the venue. Its hour as the class's own
 * times above it write theirs: "08:00" in German, "8:00 AM" in English (a range's hours in English
 * drop the zero that a single time keeps).
 */
const cancelUntil = (locale: Locale): Intl.DateTimeFormatOptions => ({
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: locale === 'de' ? '2-digit' : 'numeric',
});

const t = translator(en, { de: () => import('./registration-form.de.ts') });

/** What the form needs of the registration widget (and nothing else of it). */
export interface FormHost extends Pick<ChunkHost<WidgetData>, 'element' | 'api'> {
  /** A class's price as the list shows it. */
  price(cls: ClassInfo): string;
  /** Back to the list, from the form or the confirmation. */
  back(): void;
}

/** The form of the chosen class, then its confirmation; back to the list from either. */
export class RegistrationForm {
  #form: FormState;
  #session: SessionController;
  /** The registration made, and the name and email it was made with. */
  #done?: { registration: Registration; email: string; name: string };

  constructor(private readonly host: FormHost) {
    const { element } = host;
    this.#form = new FormState(element, (key) => t(element.resolvedLocale, key));
    this.#session = new SessionController(element);
    // The form's styles join the widget's once the form is needed.
    const root = element.shadowRoot!;
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, formStyles.styleSheet!, doneStyles.styleSheet!];
  }

  /** Opens the form: its words loaded, a participant signed in on the page filling an untouched form. */
  async open() {
    await t.load(this.host.element.resolvedLocale);
    this.#done = undefined;
    const form = this.#form;
    const who = this.#session.session?.participant;
    form.reset(form.values.email || !who ? form.values : { ...who, phone: who.phone ?? '' });
  }

  step() {
    return this.#done ? 'done' : 'form';
  }

  render(chosen: Chosen) {
    return this.#done ? this.#renderDone(chosen) : this.#renderForm(chosen);
  }

  #renderForm({ course, cls }: Chosen) {
    const { host } = this;
    const locale = host.element.resolvedLocale;
    const form = this.#form;
    const book = t(locale, cls.status === 'waitlist' ? 'joinWaitlist' : 'book');
    const field = (name: 'first_name' | 'last_name' | 'email' | 'phone', type: string, autocomplete: string) =>
      input(form, name, t(locale, name), { type, autocomplete, required: name !== 'phone' });
    return html`<p><button class="link" @click=${() => host.back()}>← ${t(locale, 'back')}</button></p>
      <h2 tabindex="-1" data-focus>${t(locale, 'formHeading', { course: course.title })}</h2>
      <p class="facts">${formatDateRange(locale, cls.starts_at, cls.ends_at, cls.timezone)} · ${cls.location} · ${host.price(cls)}</p>
      ${cls.status === 'waitlist' ? html`<p class="notice">${t(locale, 'waitlistNotice')}</p>` : nothing}
      <form
        novalidate
        @submit=${(e: Event) => this.#submit(e, course.id, cls)}
        @input=${form.edit}
        aria-describedby=${formDescribedBy(form)}
      >
        <div class="row">${field('first_name', 'text', 'given-name')} ${field('last_name', 'text', 'family-name')}</div>
        <div class="row">${field('email', 'email', 'email')} ${field('phone', 'tel', 'tel')}</div>
        ${consent(form, t(locale, 'consent', { company: host.element.data!.widget.company.name }))} ${formError(form)}
        <button part="button" ?disabled=${form.sending}>${form.sending ? t(locale, 'sending') : book}</button>
      </form>`;
  }

  async #submit(event: Event, course: string, cls: ClassInfo) {
    if (!this.#form.check(event)) return;
    const { host } = this;
    const { element } = host;
    const { first_name, last_name, email, phone = '', consent } = this.#form.values as Record<string, string>;
    const body = {
      class_id: cls.id,
      first_name,
      last_name,
      email,
      ...(phone.trim() ? { phone: phone.trim() } : {}),
      consent: !!consent,
    };
    const answer = await this.#form.send(
      () => this.#form.write<RegistrationResponse>(host.api(), 'registrations', body),
      (error) => {
        if (error.code === 'class-full') {
          // Orders waiting for their payment may hold the seats: then they may come free again.
          const held = (error.details?.held_until as string | undefined) ?? null;
          Object.assign(cls, { status: 'full', seats_left: 0, held_until: held });
          return held
            ? t(element.resolvedLocale, 'classHeld', { minutes: minutesUntil(held) })
            : t(element.resolvedLocale, 'classFull');
        }
        // The class itself is no field of the form (it started, or is gone): said above the button.
        const { class_id, ...fields } = error.fields;
        if (class_id)
          return [class_id, Object.keys((this.#form.errors = fields)).length && t(element.resolvedLocale, 'fixFields')]
            .filter(Boolean)
            .join(' ');
      },
    );
    if (!answer) return;
    const { registration } = answer;
    Object.assign(cls, answer.class);
    this.#done = { registration, email, name: `${first_name} ${last_name}` };
    this.#form.reset();
    element.requestUpdate();
    element.dispatchEvent(
      new RegistrationCreatedEvent({ id: registration.id, course, class: cls.id, status: registration.status }),
    );
  }

  /**
   * The confirmation: what was booked (the class, when, where, for whom, its price), where the email
   * went, the calendar file, and how to cancel: in the participant's account (the profile widget,
   * shown from here when the page has one) until the service's time for it, else by telling the company.
   */
  #renderDone({ course, cls }: Chosen) {
    const { element } = this.host;
    const locale = element.resolvedLocale;
    const { registration, email, name } = this.#done!;
    const waitlisted = registration.status === 'waitlisted';
    const until = registration.cancel_until;
    // By the service's clock (the visitor's may be wrong): the class may start within the day.
    const cancellable = until && Date.parse(until) > Date.parse(registration.created_at);
    // A moment, named as every class's times are (the venue's zone by its offset, in both languages).
    const date = until && formatDateRange(locale, until, until, cls.timezone, cancelUntil(locale));
    const offered = cancellable && askSignIn(this.#session, false);
    return html`<div class="done">
      <h2 tabindex="-1" data-focus>${t(locale, registration.status)}</h2>
      <p>${t(locale, 'confirmation', { email })}${waitlisted ? html` ${t(locale, 'freed')}` : nothing}</p>
      <div class="card">
        <h3>${course.title}</h3>
        <p>${formatDateRange(locale, cls.starts_at, cls.ends_at, cls.timezone)} · ${cls.location}</p>
        <p><bdi>${name}</bdi> · ${this.host.price(cls)}</p>
        ${
          cls.price.amount && !waitlisted
            ? html`<p>${t(locale, 'payment', { company: element.data!.widget.company.name })}</p>`
            : nothing
        }
      </div>
      <p>
        ${
          cancellable
            ? t(locale, waitlisted ? 'leaveUntil' : 'cancelUntil', { date: date! })
            : t(locale, 'tooLate', { company: element.data!.widget.company.name })
        }
      </p>
      <p class="actions">
        ${
          registration.calendar_url && !waitlisted
            ? html`<a class="button" href=${registration.calendar_url} download>${t(locale, 'addToCalendar')}</a>`
            : nothing
        }
        ${
          offered
            ? html`<button class="secondary" @click=${() => askSignIn(this.#session, true, email)}>${t(locale, 'signIn')}</button>`
            : nothing
        }
        <button part="button" class="secondary" @click=${() => this.host.back()}>${t(locale, 'back')}</button>
      </p>
    </div>`;
  }
}
