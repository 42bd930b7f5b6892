/**
 * Joining a full class's waitlist from the calendar: "Join waitlist" opens a small form where the
 * class is shown (name, email, consent), and the class then says the visitor is on its waitlist. A
 * chunk of its own, with its words in both languages, fetched on the first "Join waitlist": a
 * waitlist is a registration (`POST /registrations`, which a calendar's key may make for a waitlist
 * only), not an order of seats, so it does not go into the cart.
 */
import { css, html } from 'lit';
import type { RegistrationCreatedDetail } from '../../contract/index.ts';
import type { CalendarClass, CalendarResponse, RegistrationResponse } from '../../contract/api/index.ts';
import { ServiceEvent, type ChunkHost } from '../shared/base.ts';
import { consent, formDescribedBy, formError, FormState, formStyles, formWords, input } from '../shared/form.ts';
import { formWordsDe } from '../shared/form.de.ts';
import type { Locale } from '../shared/i18n.ts';
import { SessionController } from '../shared/session.ts';

const WORDS = {
  en: {
    ...formWords,
    notice: 'This class is full. Join its waitlist: we email you when a seat frees up.',
    first_name: 'First name',
    last_name: 'Last name',
    email: 'Email',
    consent: 'I agree that {company} stores my details to handle this registration.',
    join: 'Join waitlist',
    cancel: 'Cancel',
    sending: 'Sending…',
    joined: 'You are on the waitlist. We have sent a confirmation to {email}.',
    hasSeats: 'A seat is free again: cancel this and choose Book.',
    full: 'The waitlist filled up meanwhile. Please choose another date.',
  },
  de: {
    ...formWordsDe,
    notice:
      'Dieser Termin ist ausgebucht. Tragen Sie sich auf die Warteliste ein: Wir schreiben Ihnen, sobald ein Platz frei wird.',
    first_name: 'Vorname',
    last_name: 'Nachname',
    email: 'E-Mail',
    consent: 'Ich bin einverstanden, dass {company} meine Angaben zur Bearbeitung dieser Anmeldung speichert.',
    join: 'Auf die Warteliste',
    cancel: 'Abbrechen',
    sending: 'Wird gesendet …',
    joined: 'Sie stehen auf der Warteliste. Wir haben eine Bestätigung an {email} gesendet.',
    hasSeats: 'Es ist wieder ein Platz frei: Brechen Sie ab und wählen Sie „Buchen“.',
    full: 'Die Warteliste hat sich inzwischen gefüllt. Bitte wählen Sie einen anderen Termin.',
  },
} satisfies Record<Locale, Record<string, string>>;

type Word = keyof (typeof WORDS)['en'];

/** The form's two buttons side by side, the one that sends first. */
const waitlistStyles = css`
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
`;

/** What the waitlist needs of the calendar (and nothing else of it). */
export interface WaitlistHost extends Pick<ChunkHost<CalendarResponse>, 'element' | 'api'> {
  /** The class is no longer what the calendar showed: its months are asked again. */
  changed(): void;
}

export class CalendarWaitlist {
  #form: FormState;
  #session: SessionController;
  /** The class whose waitlist the visitor is joining. */
  #open = '';
  /** The classes whose waitlist the visitor joined here, with the email it was done with. */
  #joined = new Map<string, string>();

  constructor(private readonly host: WaitlistHost) {
    const { element } = host;
    this.#form = new FormState(element, (key) => this.#t(key));
    this.#session = new SessionController(element);
    const root = element.shadowRoot!;
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, formStyles.styleSheet!, waitlistStyles.styleSheet!];
  }

  #t(key: Word, params: Record<string, string> = {}) {
    return WORDS[this.host.element.resolvedLocale][key].replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
  }

  /** Opens the form under the class (one at a time), a participant signed in on the page filling it; its first field takes the focus. */
  async open(cls: CalendarClass) {
    const { element } = this.host;
    const form = this.#form;
    const who = this.#session.session?.participant;
    if (this.#open !== cls.id)
      form.reset(
        form.values.email || !who ? form.values : { first_name: who.first_name, last_name: who.last_name, email: who.email },
      );
    this.#open = cls.id;
    element.requestUpdate();
    await element.updateComplete;
    element.renderRoot.querySelector<HTMLElement>('#first_name')?.focus();
  }

  /** What the class shows in place of its "Join waitlist": the form, or that the visitor is on the waitlist; undefined for any other. */
  render(cls: CalendarClass) {
    const email = this.#joined.get(cls.id);
    if (email) return html`<p class="notice" id="joined-${cls.id}" tabindex="-1">✓ ${this.#t('joined', { email })}</p>`;
    if (this.#open !== cls.id) return undefined;
    const form = this.#form;
    const field = (name: 'first_name' | 'last_name' | 'email', type: string, autocomplete: string) =>
      input(form, name, this.#t(name), { type, autocomplete });
    const company = this.host.element.data!.widget.company.name;
    return html`<form
      novalidate
      aria-label=${`${this.#t('join')}: ${cls.course_title}`}
      @submit=${(e: Event) => this.#submit(e, cls)}
      @input=${form.edit}
      aria-describedby=${formDescribedBy(form)}
    >
      <p>${this.#t('notice')}</p>
      ${field('first_name', 'text', 'given-name')} ${field('last_name', 'text', 'family-name')} ${field('email', 'email', 'email')}
      ${consent(form, this.#t('consent', { company }))} ${formError(form)}
      <div class="actions">
        <button part="button" ?disabled=${form.sending}>${form.sending ? this.#t('sending') : this.#t('join')}</button>
        <button type="button" class="secondary" @click=${() => this.#close(cls)}>${this.#t('cancel')}</button>
      </div>
    </form>`;
  }

  /** Closes the form; the focus goes back to the class's button. */
  async #close(cls: CalendarClass) {
    const { element } = this.host;
    this.#open = '';
    element.requestUpdate();
    await element.updateComplete;
    element.renderRoot.querySelector<HTMLElement>(`button[aria-describedby="c-${cls.id}"]`)?.focus();
  }

  async #submit(event: Event, cls: CalendarClass) {
    const { element, api } = this.host;
    const form = this.#form;
    if (!form.check(event)) return;
    const { first_name = '', last_name = '', email = '', consent: agreed } = form.values as Record<string, string>;
    const answer = await form.send(
      () =>
        form.write<RegistrationResponse>(api(), 'registrations', {
          class_id: cls.id,
          first_name,
          last_name,
          email,
          consent: !!agreed,
        }),
      (error) => {
        // The class changed meanwhile (a seat came free, the waitlist filled up): the calendar asks
        // for it again, and shows what it is now once the form is closed.
        if (error.code !== 'class-has-seats' && error.code !== 'class-full') return;
        this.host.changed();
        return this.#t(error.code === 'class-full' ? 'full' : 'hasSeats');
      },
    );
    if (!answer) return;
    this.#open = '';
    this.#joined.set(cls.id, email);
    form.reset();
    element.requestUpdate();
    const { registration } = answer;
    // The page hears it as a registration (the profile on the page shows it).
    element.dispatchEvent(
      new ServiceEvent<RegistrationCreatedDetail>('service-registration-created', {
        id: registration.id,
        course: cls.course_id,
        class: cls.id,
        status: registration.status,
      }),
    );
    await element.updateComplete;
    element.renderRoot.querySelector<HTMLElement>(`#joined-${cls.id}`)?.focus();
  }
}
