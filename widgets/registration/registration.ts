import { html, nothing, type PropertyValues } from 'lit';
import { ApiError } from '../shared/api.ts';
import { ServiceElement, define } from '../shared/base.ts';
import { formatDateRange, formatMoney, type Money } from '../shared/format.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import { baseStyles } from '../shared/styles.ts';
import { registrationStyles } from './registration.styles.ts';

export interface ClassInfo {
  id: string;
  starts_at: string;
  ends_at: string;
  timezone?: string;
  location: string;
  price: Money;
  capacity: number;
  seats_left: number;
  waitlist: boolean;
  status: 'open' | 'waitlist' | 'full';
}

export interface Course {
  id: string;
  title: string;
  summary: string;
  category?: string;
  classes: ClassInfo[];
}

interface WidgetData {
  widget: { type: string; company: { id: string; name: string } };
  courses: Course[];
}

export interface Registration {
  id: string;
  course_id: string;
  class_id: string;
  status: 'confirmed' | 'waitlisted';
  created_at: string;
}

export interface RegistrationCreatedDetail {
  id: string;
  course: string;
  class: string;
  status: Registration['status'];
}

/** Fired when a registration has been made (or the visitor joined a waitlist). */
export class RegistrationCreatedEvent extends CustomEvent<RegistrationCreatedDetail> {
  constructor(detail: RegistrationCreatedDetail) {
    super('service-registration-created', { detail, bubbles: true, composed: true });
  }
}

type Field = 'first_name' | 'last_name' | 'email' | 'phone';
type Values = Record<Field, string> & { consent: boolean };

/** With more programmes than this, a search field appears. */
const SEARCH_FROM = 4;

/** The widget's own words; German is in registration.de.ts. */
export const en = {
  heading: 'Programmes at {company}',
  search: 'Search programmes',
  results: '{count} programmes shown',
  noMatch: 'No programme matches “{query}”.',
  clearSearch: 'Clear search',
  empty: 'No programmes are open for registration right now. Please check back soon.',
  noDates: 'No upcoming dates yet.',
  seatsLeft: 'Seats left: {count}',
  waitlist: 'Full – waitlist open',
  full: 'Full',
  book: 'Register',
  joinWaitlist: 'Join waitlist',
  back: 'Back to all programmes',
  formHeading: 'Register for {course}',
  waitlistNotice: 'This class is full. You will join the waitlist and hear from us when a seat frees up.',
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  phone: 'Phone',
  optional: '(optional)',
  consent: 'I agree that {company} stores my details to handle this registration.',
  sending: 'Sending…',
  fixFields: 'Please correct the highlighted fields.',
  classFull: 'This class filled up while you were registering. Please choose another date.',
  kept: 'Your entries are kept.',
  confirmed: 'You are registered',
  waitlisted: 'You are on the waitlist',
  confirmation: 'We have sent a confirmation to {email}.',
};

const t = translator(en, { de: () => import('./registration.de.ts') });

/**
 * @summary The company's programmes with their upcoming classes, and registration for a class.
 *
 * @fires service-registration-created - A registration was made; `detail: { id, course, class, status }`
 *   with `status` `confirmed` or `waitlisted`.
 *
 * @csspart base - The widget's outer container.
 * @csspart card - A programme's card.
 * @csspart button - The main buttons (register, submit).
 *
 * @cssprop [--service-accent=#1d4ed8] - Buttons, links and focus rings.
 * @cssprop [--service-on-accent=#fff] - Text on accent-coloured buttons.
 * @cssprop [--service-border=#767d89] - Borders of cards and fields.
 * @cssprop [--service-danger=#b3261e] - Errors and scarce seats.
 * @cssprop [--service-radius=8px] - Corner radius.
 *
 * Text colour and font come from the page; backgrounds are drawn from the text colour.
 */
export class ServiceRegistration extends ServiceElement<WidgetData> {
  static override styles = [baseStyles, registrationStyles];

  static override properties = {
    course: {},
    _query: { state: true },
    _selected: { state: true },
    _values: { state: true },
    _fieldErrors: { state: true },
    _formError: { state: true },
    _sending: { state: true },
    _done: { state: true },
  };

  /** Shows one programme only (its id, `data-service-course` on a placeholder). */
  course = '';

  private _query = '';
  private _selected?: { course: Course; cls: ClassInfo };
  private _values: Values = { first_name: '', last_name: '', email: '', phone: '', consent: false };
  private _fieldErrors: Partial<Record<Field | 'consent' | 'class_id', string>> = {};
  private _formError = '';
  private _sending = false;
  private _done?: { registration: Registration; email: string };


  protected override loadArgs: PropertyKey[] = ['key', 'baseUrl', 'course', 'locale'];

  protected override loadWords(locale: Locale) {
    return t.load(locale);
  }

  protected override async load(signal: AbortSignal) {
    return (await this.api.request('widget', { params: { type: 'registration', course: this.course }, signal })) as WidgetData;
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
            : this._selected
              ? this.#renderForm()
              : this.#renderList(data)}
    </section>`;
  }

  protected override updated(changed: PropertyValues<this>) {
    // After a step changes, focus its heading so keyboard and screen-reader users land in the new step.
    if (changed.has('_selected' as keyof ServiceRegistration) || changed.has('_done' as keyof ServiceRegistration)) {
      this.renderRoot.querySelector<HTMLElement>('[data-focus]')?.focus();
    }
  }

  #renderLoading() {
    return html`<p class="visually-hidden" role="status">${t(this.resolvedLocale, 'loading')}</p>
      <div class="skeleton"></div>
      <div class="skeleton"></div>
      <div class="skeleton"></div>`;
  }

  #renderError(error: ApiError) {
    return html`<div class="notice error" role="alert" tabindex="-1">
      <p>${error.message}</p>
      ${error.retryable
        ? html`<p><button part="button" class="secondary" @click=${this.#retry}>${t(this.resolvedLocale, 'retry')}</button></p>`
        : nothing}
    </div>`;
  }

  #renderList({ courses }: WidgetData) {
    const locale = this.resolvedLocale;
    const query = this._query.trim().toLowerCase();
    const matching = query
      ? courses.filter((course) =>
          [course.title, course.summary, course.category, ...course.classes.map((c) => c.location)]
            .join(' ')
            .toLowerCase()
            .includes(query),
        )
      : courses;
    return html`<div class="row">
        <h2 tabindex="-1">${t(locale, 'heading', { company: this.data!.widget.company.name })}</h2>
        ${courses.length > SEARCH_FROM
          ? html`<div class="field">
              <label for="search">${t(locale, 'search')}</label>
              <input
                id="search"
                type="search"
                autocomplete="off"
                .value=${this._query}
                @input=${(e: Event) => (this._query = (e.target as HTMLInputElement).value)}
              />
            </div>`
          : nothing}
      </div>
      ${courses.length > SEARCH_FROM
        ? html`<p class="visually-hidden" role="status">${query ? t(locale, 'results', { count: matching.length }) : ''}</p>`
        : nothing}
      ${courses.length === 0 ? html`<p class="notice">${t(locale, 'empty')}</p>` : nothing}
      ${query && matching.length === 0
        ? html`<p class="notice">
            ${t(locale, 'noMatch', { query: this._query.trim() })}
            <button class="link" @click=${this.#clearSearch}>${t(locale, 'clearSearch')}</button>
          </p>`
        : nothing}
      <ul class="courses">
        ${matching.map((course) => this.#renderCourse(locale, course))}
      </ul>
`;
  }

  #renderCourse(locale: Locale, course: Course) {
    return html`<li class="course" part="card" aria-labelledby="course-${course.id}">
      <h3 id="course-${course.id}">${course.title}</h3>
      <p>${course.category ? `${course.category} · ` : ''}${course.summary}</p>
      ${course.classes.length === 0 ? html`<p>${t(locale, 'noDates')}</p>` : nothing}
      <ul>
        ${course.classes.map((cls) => this.#renderClass(locale, course, cls))}
      </ul>
    </li>`;
  }

  #renderClass(locale: Locale, course: Course, cls: ClassInfo) {
    const seats =
      cls.status === 'full'
        ? t(locale, 'full')
        : cls.status === 'waitlist'
          ? t(locale, 'waitlist')
          : t(locale, 'seatsLeft', { count: cls.seats_left });
    return html`<li class="class">
      <span class="facts" id="class-${cls.id}">
        <span class="when">${formatDateRange(locale, cls.starts_at, cls.ends_at, cls.timezone)}</span>
        <span>${cls.location}</span>
        <span>${cls.price.amount === 0 ? t(locale, 'free') : formatMoney(locale, cls.price)}</span>
        <span class="seats ${cls.status} ${cls.seats_left <= 3 ? 'low' : ''}">${seats}</span>
      </span>
      ${cls.status === 'full'
        ? nothing
        : html`<button part="button" aria-describedby="course-${course.id} class-${cls.id}" @click=${() => this.#choose(course, cls)}>
            ${cls.status === 'waitlist' ? t(locale, 'joinWaitlist') : t(locale, 'book')}
          </button>`}
    </li>`;
  }

  #choose(course: Course, cls: ClassInfo) {
    // One sign-in for the page: a participant signed in on the page fills an untouched form. The
    // session's code comes on demand, now: most visitors never choose a class signed in.
    import('../shared/session.ts').then(({ readSession }) => {
      const who = readSession(this.baseUrl || location.origin, this.data!.widget.company.id)?.participant;
      if (who && !this._values.email) {
        const { first_name, last_name, email, phone } = who;
        this._values = { ...this._values, first_name, last_name, email, phone: phone ?? '' };
      }
    }, () => {});
    this._selected = { course, cls };
    this._formError = '';
    this._fieldErrors = {};
  }

  #renderForm() {
    const locale = this.resolvedLocale;
    const { course, cls } = this._selected!;
    const errors = this._fieldErrors;
    const field = (name: Field, type: string, autocomplete: string, required = true) => html`<div class="field">
      <label for=${name}>${t(locale, name)} ${required ? '' : t(locale, 'optional')}</label>
      <input
        id=${name}
        name=${name}
        type=${type}
        autocomplete=${autocomplete}
        maxlength=${name === 'email' ? 254 : name === 'phone' ? 40 : 100}
        ?required=${required}
        .value=${this._values[name]}
        aria-invalid=${errors[name] ? 'true' : 'false'}
        aria-describedby=${errors[name] ? `${name}-error` : nothing}
        @input=${(e: Event) => this.#edit(name, (e.target as HTMLInputElement).value)}
      />
      ${errors[name] ? html`<p class="error field-error" id="${name}-error">${errors[name]}</p>` : nothing}
    </div>`;
    return html`<p>
        <button class="link" @click=${this.#toList}>← ${t(locale, 'back')}</button>
      </p>
      <h2 tabindex="-1" data-focus>${t(locale, 'formHeading', { course: course.title })}</h2>
      <p class="facts">
        ${formatDateRange(locale, cls.starts_at, cls.ends_at, cls.timezone)} · ${cls.location} ·
        ${cls.price.amount === 0 ? t(locale, 'free') : formatMoney(locale, cls.price)}
      </p>
      ${cls.status === 'waitlist' ? html`<p class="notice">${t(locale, 'waitlistNotice')}</p>` : nothing}
      <form @submit=${this.#submit} aria-describedby=${this._formError ? 'form-error' : nothing}>
        <div class="row">${field('first_name', 'text', 'given-name')} ${field('last_name', 'text', 'family-name')}</div>
        <div class="row">${field('email', 'email', 'email')} ${field('phone', 'tel', 'tel', false)}</div>
        <div class="field">
          <div class="consent">
            <input
              id="consent"
              name="consent"
              type="checkbox"
              required
              .checked=${this._values.consent}
              aria-invalid=${errors.consent ? 'true' : 'false'}
              aria-describedby=${errors.consent ? 'consent-error' : nothing}
              @change=${(e: Event) => (this._values = { ...this._values, consent: (e.target as HTMLInputElement).checked })}
            />
            <label for="consent">${t(locale, 'consent', { company: this.data!.widget.company.name })}</label>
          </div>
          ${errors.consent ? html`<p class="error field-error" id="consent-error">${errors.consent}</p>` : nothing}
        </div>
        <div id="form-error" role="alert">
          ${this._formError ? html`<p class="notice error">${this._formError}</p>` : nothing}
        </div>
        <div>
          <button part="button" type="submit" ?disabled=${this._sending}>
            ${this._sending
              ? t(locale, 'sending')
              : cls.status === 'waitlist'
                ? t(locale, 'joinWaitlist')
                : t(locale, 'book')}
          </button>
        </div>
      </form>`;
  }

  #edit(name: Field, value: string) {
    this._values = { ...this._values, [name]: value };
    if (this._fieldErrors[name]) this._fieldErrors = { ...this._fieldErrors, [name]: undefined };
  }

  async #submit(event: SubmitEvent) {
    event.preventDefault();
    // The browser's own validation has passed (the form has no `novalidate`); a double click lands here once.
    if (this._sending || !this._selected) return;
    const { course, cls } = this._selected;
    const { phone, consent, ...names } = this._values;
    const body = { class_id: cls.id, ...names, ...(phone.trim() ? { phone: phone.trim() } : {}), consent };
    this._sending = true;
    this._formError = '';
    try {
      const answer = await this._write<{ registration: Registration; class?: Pick<ClassInfo, 'id' | 'seats_left' | 'status'> }>(
        'registrations',
        body,
      );
      const { registration } = answer;
      if (answer.class) Object.assign(cls, { seats_left: answer.class.seats_left, status: answer.class.status });
      this._done = { registration, email: body.email };
      this.dispatchEvent(
        new RegistrationCreatedEvent({ id: registration.id, course: course.id, class: cls.id, status: registration.status }),
      );
    } catch (error) {
      this.#showSubmitError(this.toApiError(error), cls);
    } finally {
      this._sending = false;
    }
  }

  async #showSubmitError(error: ApiError, cls: ClassInfo) {
    const locale = this.resolvedLocale;
    if (error.code === 'class-full') {
      Object.assign(cls, { status: 'full', seats_left: 0 });
      this._formError = t(locale, 'classFull');
    } else if (Object.keys(error.fields).length) {
      // The class itself is no field of the form (it started, or is gone): say so above the button.
      const { class_id, ...fields } = error.fields;
      this._fieldErrors = fields;
      this._formError = [class_id, Object.keys(fields).length && t(locale, 'fixFields')].filter(Boolean).join(' ');
    } else {
      this._formError = `${error.message} ${t(locale, 'kept')}`;
    }
    await this.updateComplete;
    // Take the visitor to the first field at fault.
    this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }

  #renderDone() {
    const locale = this.resolvedLocale;
    const { registration, email } = this._done!;
    const { course, cls } = this._selected!;
    return html`<div class="done" role="status">
      <h2 tabindex="-1" data-focus>${t(locale, registration.status === 'waitlisted' ? 'waitlisted' : 'confirmed')}</h2>
      <p>${course.title} · ${formatDateRange(locale, cls.starts_at, cls.ends_at, cls.timezone)} · ${cls.location}</p>
      <p>${t(locale, 'confirmation', { email })}</p>
      <p><button part="button" class="secondary" @click=${this.#toList}>${t(locale, 'back')}</button></p>
    </div>`;
  }

  /** Back to the list, with the focus on the class's button (or the list's heading). */
  #toList = async () => {
    const id = this._selected?.cls.id;
    if (this._done) this._values = { first_name: '', last_name: '', email: '', phone: '', consent: false };
    this._selected = this._done = undefined;
    await this.updateComplete;
    (this.renderRoot.querySelector<HTMLElement>(`[aria-describedby$="class-${id}"]`) ?? this.renderRoot.querySelector('h2'))?.focus();
  };

  #clearSearch = async () => {
    this._query = '';
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#search')?.focus();
  };

  #retry = async () => {
    await this.reload();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h2, [role=alert]')?.focus();
  };

  protected override willUpdate(changed: PropertyValues<this>) {
    // Another programme: the form or confirmation of the previous one goes.
    if (changed.has('course')) this._selected = this._done = undefined;
    super.willUpdate(changed);
  }
}

define('service-registration', ServiceRegistration);

declare global {
  interface HTMLElementTagNameMap {
    'service-registration': ServiceRegistration;
  }
}
