/**
 * The profile widget's signed-in view: details (a new email confirmed by the PIN sent to it),
 * registrations, cancelling, signing out. A chunk of its own, fetched together with the participant's
 * data, so signed-out visitors never load it. It keeps its own state and gets what it needs of the
 * widget as callbacks (`ProfileHost`).
 */
import { html, nothing, type ReactiveController } from 'lit';
import type { RegistrationCancelledDetail } from '../../contract/index.ts';
import type { ApiError } from '../shared/api.ts';
import { ServiceEvent } from '../shared/base.ts';
import { FirstView, firstViewStyles } from '../shared/first-view.ts';
import { formDescribedBy, formError, FormState, formWords, input } from '../shared/form.ts';
import { dateFormat, formatDateRange, formatMoney } from '../shared/format.ts';
import { translator } from '../shared/i18n.ts';
import type { ProfileData, ProfileHost, ProfileRegistration } from './profile.ts';
import { accountStyles } from './profile-account.styles.ts';

/** A registration was cancelled in the profile widget. */
export class RegistrationCancelledEvent extends ServiceEvent<RegistrationCancelledDetail> {
  constructor(detail: RegistrationCancelledDetail) {
    super('service-registration-cancelled', detail);
  }
}

/** The signed-in view's words; German is in profile-account.de.ts. */
export const en = {
  ...formWords,
  hello: 'Hello {name}',
  logout: 'Sign out',
  details: 'Your details',
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  phone: 'Phone',
  /** The phone's label in the form, as every form of the widgets names an optional field. */
  phoneField: 'Phone (optional)',
  none: '—',
  edit: 'Edit details',
  save: 'Save',
  cancel: 'Cancel',
  saved: 'Your details are saved.',
  upcoming: 'Upcoming classes',
  past: 'Past classes',
  noUpcoming: 'No upcoming classes.',
  noPast: 'No past classes.',
  waitlisted: 'On the waitlist',
  cancelPlace: 'Cancel my place',
  confirmCancel: 'Cancel your place in {course}?',
  yesCancel: 'Yes, cancel',
  keep: 'Keep my place',
  cancelled: 'Your place in {course} is cancelled.',
  noCancel: 'It is too late to cancel here: please contact {company}.',
  emailPending:
    'To change your email to {email}, enter the PIN we have sent there (or open the link in that email). Until then your email stays {current}.',
  pin: 'PIN',
  confirmEmail: 'Confirm new email',
  emailChanged: 'Your email is now {email}.',
  'pin-wrong': 'That PIN is not right. Tries left: {left}.',
  'pin-expired': 'This PIN has expired. Change your email again for a new one.',
  'pin-used': 'This PIN has been used already.',
  'pin-locked': 'Too many wrong tries: this PIN no longer works. Change your email again for a new one.',
  'pin-missing': 'This is not the PIN of the latest email we sent. Enter that one.',
  showAll: 'Show your details and classes',
  orders: 'Your orders',
  order: 'Order {number}',
  orderSeats: 'Seats: {count}',
  confirmed: 'Confirmed',
  pending_payment: 'Waiting for the payment',
  cancelled_order: 'Cancelled',
};

const t = translator(en, { de: () => import('./profile-account.de.ts') });

/** Loads the view's words with the chunk, so the view never flashes English. */
export const loadWords = t.load;

/** A translated sentence with a person's name isolated, so that its writing direction cannot turn the sentence around. */
const withName = (text: string, name: string) => {
  const [before, after] = text.split('\u0000');
  return html`${before}<bdi>${name}</bdi>${after}`;
};

/** Events of other widgets on the page after which the participant's data is read again. */
const CHANGES = ['service-registration-created', 'service-checkout-completed'];

/**
 * The signed-in view, and, as a controller of the widget, what only a signed-in participant needs of
 * it: a registration or an order made elsewhere on the page shows here without a reload.
 */
export class ProfileAccount implements ReactiveController {
  /**
   * A returning visitor's first view, held to the space reserved for the widget until they ask for
   * everything; everything shows after a sign-in on this page.
   */
  #view: FirstView;
  /** The details form is open. */
  #editing = false;
  /** The registration whose cancelling asks for confirmation. */
  #confirming = '';
  #form: FormState;

  constructor(private readonly host: ProfileHost) {
    const { element } = host;
    this.#view = new FirstView(element);
    this.#form = new FormState(element, (key) => this.#t(key));
    const root = element.shadowRoot!;
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, firstViewStyles.styleSheet!, accountStyles.styleSheet!];
    element.addController(this);
  }

  hostConnected() {
    for (const name of CHANGES) addEventListener(name, this.host.refresh);
  }

  hostDisconnected() {
    for (const name of CHANGES) removeEventListener(name, this.host.refresh);
  }

  /** The participant's first render (after a PIN, a link, a stored token): the page's session follows it. */
  take(token: string, data: ProfileData): ProfileData {
    this.host.session.write({ token, participant: data.participant }, data.widget.company.id);
    return { ...data, token };
  }

  /** Shows everything (the visitor signed in on this page: what follows is their doing). */
  expand() {
    this.#view.all = true;
  }

  #t(key: keyof typeof en, params: Record<string, string | number> = {}) {
    return t(this.host.element.resolvedLocale, key, params);
  }

  /**
   * Runs a call of the signed-in view through its form (one at a time, failures said): a token the
   * service no longer knows signs out, and `explain` may word the others.
   */
  #send<T>(call: () => Promise<T>, explain: (error: ApiError) => string | void = () => {}) {
    return this.#form.send(call, (error) =>
      error.code === 'invalid-token' ? (this.host.signOut('invalid-token'), '') : explain(error),
    );
  }

  /** The participant's data, as the widget shows it. */
  get #data() {
    return this.host.element.data!;
  }

  /** Shows what changed, for this widget and the page. */
  #take(answer: Pick<ProfileData, 'participant' | 'email_change'>) {
    const data = { ...this.#data, ...answer };
    this.host.show(data);
    this.host.session.write({ token: data.token!, participant: answer.participant });
  }

  /** Runs the next render's focus change: the element that had it may be gone. */
  async #focus(selector: string) {
    const { element } = this.host;
    await element.updateComplete;
    element.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  #logout = async () => {
    const { host } = this;
    await this.#send(() =>
      host
        .api()
        .request('participant/logout', { body: {}, token: this.#data.token })
        .catch(() => null),
    );
    host.signOut();
  };

  /** Opens or closes the details form; the focus goes into the form, or back to the details' heading. */
  #edit(open: boolean) {
    this.#editing = open;
    if (open) this.#view.all = true;
    this.#form.reset();
    this.host.say('');
    return this.#focus(open ? '#first_name' : '#details');
  }

  #save = async (event: Event) => {
    if (!this.#form.check(event)) return;
    const { host } = this;
    const p = this.#data.participant!;
    const values = this.#form.values as Record<string, string | undefined>;
    const body = Object.fromEntries(
      (['first_name', 'last_name', 'email', 'phone'] as const).map((name) => [name, (values[name] ?? p[name] ?? '').trim()]),
    );
    // A new email is confirmed from its mailbox: the PIN, or a link back to this page.
    const page = new URL(location.href);
    page.hash = '';
    const answer = await this.#send(() =>
      this.#form.write<ProfileData>(host.api(), 'participant/profile', { ...body, return_url: page.href }, this.#data.token),
    );
    if (!answer) return;
    this.#take(answer);
    await this.#edit(false);
    host.say(this.#t('saved'));
    if (answer.email_change) await this.#focus('#pin');
  };

  /** Confirms the waiting email change with the PIN sent to the new address. */
  #confirmEmail = async (event: Event) => {
    if (!this.#form.check(event)) return;
    const { host } = this;
    const pin = (((this.#form.values.pin as string | undefined) ?? '').match(/\d/g) ?? []).join('');
    host.say('');
    const answer = await this.#send(
      () => host.api().request('participant/email/confirm', { body: { pin }, token: this.#data.token }) as Promise<ProfileData>,
      (error) => {
        if (!(error.code in en)) return;
        this.#form.errors = { pin: '' };
        return this.#t(error.code as keyof typeof en, { left: String(error.details?.attempts_left) });
      },
    );
    if (!answer) return;
    this.#take(answer);
    this.#form.reset();
    host.say(this.#t('emailChanged', { email: answer.participant!.email }));
    await this.#focus('#details');
  };

  /** Asks before cancelling (`id`), or keeps the place (`''`) with the focus back on its button. */
  #confirm(id: string) {
    this.#view.all = true;
    const kept = this.#confirming;
    this.#confirming = id;
    this.host.element.requestUpdate();
    // The question's safe answer takes the focus (a second Enter, a key held, keeps the place), and
    // Escape gives it too; back, the focus is on the button that asked.
    return this.#focus(id ? '[role=group] .secondary' : `[aria-describedby="r-${kept}"]`);
  }

  async #cancel(registration: ProfileRegistration) {
    const { host } = this;
    const { element } = host;
    const answer = await this.#send(
      () =>
        this.#form.write(
          host.api(),
          `participant/registrations/${encodeURIComponent(registration.id)}/cancel`,
          {},
          this.#data.token,
        ),
      (error) => error.shown,
    );
    this.#confirming = '';
    element.requestUpdate();
    if (!answer) return;
    const data = this.#data;
    host.show({ ...data, registrations: data.registrations!.filter((r) => r.id !== registration.id) });
    host.say(this.#t('cancelled', { course: registration.course.title }));
    await this.#focus('#upcoming');
    element.dispatchEvent(
      new RegistrationCancelledEvent({ id: registration.id, course: registration.course.id, class: registration.class.id }),
    );
  }

  render({ participant, registrations = [], orders = [], email_change: change, widget }: ProfileData) {
    const { host } = this;
    const locale = host.element.resolvedLocale;
    const form = this.#form;
    const p = participant!;
    // What went wrong is said in the form that is open, else under the notice.
    const line = formError(form);
    const where = this.#editing ? 'edit' : change ? 'pin' : 'top';
    // Upcoming and past by the service's clock: the visitor's may be wrong.
    const upcoming = registrations.filter((r) => !r.past);
    const past = registrations.filter((r) => r.past).reverse();
    const field = (name: 'first_name' | 'last_name' | 'email' | 'phone', type: string, autocomplete: string) =>
      input(form, name, this.#t(name === 'phone' ? 'phoneField' : name), {
        type,
        autocomplete,
        value: p[name] ?? '',
        required: name !== 'phone',
      });
    // The classes bought with an order (not cancelled) are the participant's classes too: the upcoming
    // ones are listed with the registrations, by start, and say which order they are of.
    const bought = orders
      .filter((o) => o.status !== 'cancelled')
      .flatMap((o) => o.items.filter((i) => !i.past).map((i) => ({ o, i })));
    const boughtCard = ({ o, i }: (typeof bought)[number]) =>
      html`<li class="card">
        <strong>${i.course_title}</strong>
        <span>${formatDateRange(locale, i.starts_at, i.ends_at, i.timezone)} · ${i.location}</span>
        <span
          >${this.#t('order', { number: o.number })} · ${this.#t('orderSeats', { count: i.seats })}${
            o.status === 'pending_payment' ? ` · ${this.#t(o.status)}` : ''
          }</span
        >
      </li>`;
    const list = (items: ProfileRegistration[], empty: 'noUpcoming' | 'noPast', also: typeof bought = []) =>
      items.length || also.length
        ? html`<ul>
            ${[
              ...also.map((b) => [b.i.starts_at, boughtCard(b)] as const),
              ...items.map(
                (r) =>
                  [
                    r.class.starts_at,
                    html`<li class="card">
                <strong id="r-${r.id}">${r.course.title}</strong>
                <span>${formatDateRange(locale, r.class.starts_at, r.class.ends_at, r.class.timezone)} · ${r.class.location}</span>
                ${r.status === 'waitlisted' ? html`<span>${this.#t('waitlisted')}</span>` : nothing}
                ${
                  this.#confirming === r.id
                    ? html`<div
                      class="confirm"
                      role="group"
                      aria-label=${this.#t('confirmCancel', { course: r.course.title })}
                      @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && this.#confirm('')}
                    >
                      <p>${this.#t('confirmCancel', { course: r.course.title })}</p>
                      <button class="danger" ?disabled=${form.sending} @click=${() => this.#cancel(r)}>${this.#t('yesCancel')}</button>
                      <button class="secondary" @click=${() => this.#confirm('')}>${this.#t('keep')}</button>
                    </div>`
                    : r.cancellable
                      ? html`<button class="secondary" aria-describedby="r-${r.id}" @click=${() => this.#confirm(r.id)}>${this.#t('cancelPlace')}</button>`
                      : r.past
                        ? nothing
                        : html`<span>${this.#t('noCancel', { company: widget.company.name })}</span>`
                }
              </li>`,
                  ] as const,
              ),
            ]
              // By start, where an order's classes join the registrations (else as they are: the past, newest first).
              .sort(([a], [b]) => (also.length ? Date.parse(a) - Date.parse(b) : 0))
              .map(([, card]) => card)}
          </ul>`
        : html`<p>${this.#t(empty)}</p>`;
    return this.#view.render(
      html`<div class="bar">
        <h2 tabindex="-1" data-focus>${withName(this.#t('hello', { name: '\u0000' }), p.first_name)}</h2>
        <button class="secondary" ?disabled=${form.sending} @click=${this.#logout}>${this.#t('logout')}</button>
      </div>
        ${host.notice()} ${where === 'top' ? line : nothing}
        <div class="fill" data-summary>
      <h3 id="upcoming" tabindex="-1">${this.#t('upcoming')}</h3>
      ${list(upcoming, 'noUpcoming', bought)}
      <h3 id="details" tabindex="-1">${this.#t('details')}</h3>
      ${
        change && !this.#editing
          ? html`<form class="notice" novalidate @submit=${this.#confirmEmail} @input=${form.edit} aria-describedby=${formDescribedBy(form)}>
            <p>${this.#t('emailPending', { email: change.email, current: p.email })}</p>
            ${input(form, 'pin', this.#t('pin'), { autocomplete: 'one-time-code', maxlength: 12, inputmode: 'numeric' })}
            ${where === 'pin' ? line : nothing}
            <button part="button" ?disabled=${form.sending}>${this.#t('confirmEmail')}</button>
          </form>`
          : nothing
      }
      ${
        this.#editing
          ? html`<form novalidate @submit=${this.#save} @input=${form.edit} aria-describedby=${formDescribedBy(form)}>
            <div class="row">${field('first_name', 'text', 'given-name')} ${field('last_name', 'text', 'family-name')}</div>
            <div class="row">${field('email', 'email', 'email')} ${field('phone', 'tel', 'tel')}</div>
            ${line}
            <p class="bar">
              <button part="button" ?disabled=${form.sending}>${this.#t('save')}</button>
              <button type="button" class="secondary" @click=${() => this.#edit(false)}>${this.#t('cancel')}</button>
            </p>
          </form>`
          : html`<dl>
              <dt>${this.#t('first_name')} / ${this.#t('last_name')}</dt>
              <dd><bdi>${p.first_name}</bdi> <bdi>${p.last_name}</bdi></dd>
              <dt>${this.#t('email')}</dt>
              <dd>${p.email}</dd>
              <dt>${this.#t('phone')}</dt>
              <dd>${p.phone || this.#t('none')}</dd>
            </dl>
            <p><button class="secondary" @click=${() => this.#edit(true)}>${this.#t('edit')}</button></p>`
      }
      <h3>${this.#t('past')}</h3>
      ${list(past, 'noPast')}
      ${
        orders.length
          ? html`<h3>${this.#t('orders')}</h3>
              <ul>
                ${orders.map(
                  (o) => html`<li class="card">
                    <strong>${this.#t('order', { number: o.number })}</strong>
                    <span>
                      ${dateFormat(locale, { dateStyle: 'medium' }).format(new Date(o.created_at))} · ${formatMoney(locale, o.total)} ·
                      ${this.#t(o.status === 'cancelled' ? 'cancelled_order' : o.status)}
                    </span>
                    ${o.items.map(
                      (i) =>
                        html`<span
                          >${i.course_title} · ${formatDateRange(locale, i.starts_at, i.ends_at, i.timezone)} ·
                          ${this.#t('orderSeats', { count: i.seats })}</span
                        >`,
                    )}
                  </li>`,
                )}
              </ul>`
          : nothing
      }
        </div>`,
      this.#t('showAll'),
      // The first of what it shows (the upcoming classes, then the details): Tab goes on from there.
      () => this.#focus('#upcoming'),
    );
  }
}
