import { html, nothing, type PropertyValues } from 'lit';
import { ServiceElement, define, toApiError } from '../shared/base.ts';
import { findCheckout } from '../shared/checkout-find.ts';
import { FirstView, firstViewStyles } from '../shared/first-view.ts';
import type { Class, Course, CoursesPage, WidgetResponse } from '../../contract/api/index.ts';
import { formatDateRange, formatMoney, seatsText } from '../shared/format.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import { baseStyles } from '../shared/styles.ts';
import { registrationStyles } from './registration.styles.ts';

/** A class as the widget API shows it (contract/api: the service validates and documents the same). */
export type ClassInfo = Class;
export type { Course };

/** The first render: the widget and its programmes. */
export type WidgetData = WidgetResponse & { courses: Course[] };

/** A class the visitor chose, with its programme. */
export interface Chosen {
  course: Course;
  cls: ClassInfo;
}

/** With more programmes than this, a search field appears. */
const SEARCH_FROM = 4;

/** The list's words; German is in registration.de.ts. The form's are in its own chunk. */
export const en = {
  heading: 'Programmes at {company}',
  search: 'Search programmes',
  results: '{count} programmes shown',
  'results.one': '{count} programme shown',
  noMatch: 'No programme matches “{query}”.',
  clearSearch: 'Clear search',
  empty: 'No programmes are open for registration right now. Please check back soon.',
  noDates: 'No upcoming dates yet.',
  seatsLeft: 'Seats left: {count}',
  waitlist: 'Full – waitlist open',
  held: 'Last seats held for unpaid orders – try again in {minutes} min',
  full: 'Full',
  book: 'Register',
  joinWaitlist: 'Join waitlist',
  showAll: 'Show all {count} programmes',
  more: 'Show more programmes ({count} of {total})',
  moreFailed: 'More programmes could not be loaded: {message}',
  addToCart: 'Add to cart',
};

export const t = translator(en, { de: () => import('./registration.de.ts') });

/** The form step: a chunk of its own, fetched when the browser is idle after the list, or when a class is chosen. */
const formChunk = () => import('./registration-form.ts');

/** The page's cart: with a checkout on the page, paid classes go there instead of to the form. */
const cartChunk = () => import('../shared/cart-badge.ts');

const idle = (run: () => unknown) => (window.requestIdleCallback ?? setTimeout)(() => run());

/**
 * @tagname service-registration
 * @summary The company's programmes with their upcoming classes, and registration for a class.
 *
 * @fires service-registration-created - A registration was made; `detail: { id, course, class, status }`
 *   with `status` `confirmed` or `waitlisted`.
 *
 * With a checkout widget on the page, a paid class with seats left goes into the page's cart ("Add to
 * cart") instead of to the registration form; free classes and waitlists keep the form.
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
 * Text colour and font come from the page; backgrounds are drawn from the text colour. In a space
 * reserved for it (the loader's, or a min-height the owner gives its div), the list shows the
 * programmes that fit and a button to show them all, so that nothing below it moves.
 */
export class ServiceRegistration extends ServiceElement<WidgetData> {
  static override styles = [baseStyles, firstViewStyles, registrationStyles];

  static override properties = {
    course: {},
    _query: { state: true },
    _list: { state: true },
    _listError: { state: true },
    _chosen: { state: true },
  };

  /** An unknown programme (`data-service-course`) is a widget that is not available. */
  protected static override errorCodes = { 'course-not-found': 'not-available' } as const;

  /** Shows one programme only (its id, `data-service-course` on a placeholder). */
  course = '';

  /**
   * A checkout came, went or failed (contract/page.ts): paid classes go to it, or to the form again;
   * with one here, the page's cart comes, so that a class in it says so.
   */
  #checkoutChanged = () => {
    const had = this.#had;
    if (this.#checkout() !== had) void (this.#had ? this.#loadCart().catch(() => {}) : this.requestUpdate());
  };

  override connectedCallback() {
    super.connectedCallback();
    addEventListener('service-checkout-change', this.#checkoutChanged);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    removeEventListener('service-checkout-change', this.#checkoutChanged);
  }

  private _query = '';
  /**
   * The programmes as far as they are loaded (the first render holds the first page): every one, or
   * those the search `q` found on the service (while not every programme is here, a search asks it).
   */
  private _list?: { q: string; courses: Course[]; total: number; page: number };
  /** Why the last page or search did not come (shown in the visitor's words). */
  private _listError?: unknown;
  #listing?: AbortController;
  /** The class whose form is open. */
  private _chosen?: Chosen;
  /** The list, held to its reserved space until the visitor asks for every programme. */
  #view = new FirstView(this);
  #form?: InstanceType<Awaited<ReturnType<typeof formChunk>>['RegistrationForm']>;
  #cart?: InstanceType<Awaited<ReturnType<typeof cartChunk>>['BookingCart']>;

  protected override loadArgs: PropertyKey[] = ['key', 'baseUrl', 'course', 'locale'];

  protected override loadWords(locale: Locale) {
    return t.load(locale);
  }

  protected override async load(signal: AbortSignal) {
    this.#listing?.abort();
    this._list = undefined;
    this._listError = undefined;
    const data = (await this.api.request('widget', {
      params: { type: 'registration', course: this.course },
      signal,
    })) as WidgetData;
    // Most visitors who stay choose a class: its form is fetched while they read (and the page's
    // cart, with a checkout on the page, so that a class in it says so).
    idle(() => (this.#checkout() ? this.#loadCart() : formChunk()).catch(() => {}));
    return data;
  }

  protected override step() {
    return this._chosen ? this.#form!.step() : 'list';
  }

  override render() {
    return this.renderState((data) => (this._chosen ? this.#form!.render(this._chosen) : this.#renderList(data)));
  }

  #renderList({ widget, courses: first, courses_total = first.length }: WidgetData) {
    const locale = this.resolvedLocale;
    const query = this._query.trim().toLowerCase();
    const list = this._list ?? { q: '', courses: first, total: courses_total, page: 1 };
    const every = !list.q && list.courses.length >= list.total;
    // Every programme here: the search filters them at once. Otherwise the service's answer for the
    // query counts, and until it comes, the programmes here that match.
    const found = every || list.q === query;
    const matching =
      query && !(found && list.q)
        ? list.courses.filter((course) =>
            [course.title, course.summary, course.category, ...course.classes.map((c) => c.location)]
              .join(' ')
              .toLowerCase()
              .includes(query),
          )
        : list.courses;
    const searchable = courses_total > SEARCH_FROM;
    const more = found && list.courses.length < list.total;
    return this.#view.render(
      html`<div class="row">
          <h2 tabindex="-1" data-focus>${t(locale, 'heading', { company: widget.company.name })}</h2>
          ${
            searchable
              ? html`<div class="field">
                <label for="search">${t(locale, 'search')}</label>
                <input
                  id="search"
                  type="search"
                  autocomplete="off"
                  .value=${this._query}
                  @input=${(e: Event) => this.#search((e.target as HTMLInputElement).value, every)}
                />
              </div>`
              : nothing
          }
        </div>
        ${searchable ? html`<p class="visually-hidden" role="status">${query && found ? t(locale, 'results', { count: more ? list.total : matching.length }) : ''}</p>` : nothing}
        ${courses_total ? nothing : html`<p class="notice">${t(locale, 'empty')}</p>`}
        ${
          query && found && !matching.length
            ? html`<p class="notice">
              ${t(locale, 'noMatch', { query: this._query.trim() })}
              <button class="link" @click=${this.#clearSearch}>${t(locale, 'clearSearch')}</button>
            </p>`
            : nothing
        }
        <div class="courses fill">
          <ul class="courses">
            ${matching.map((course) => this.#renderCourse(locale, course))}
          </ul>
          ${this._listError ? html`<p class="notice" role="alert">${t(locale, 'moreFailed', { message: toApiError(this._listError, locale).shown })}</p>` : nothing}
          ${more ? html`<button class="link" @click=${() => this.#fetchList(list)}>${t(locale, 'more', { count: list.courses.length, total: list.total })}</button>` : nothing}
        </div>`,
      t(locale, 'showAll', { count: matching.length }),
      this.#focusHeading,
    );
  }

  /** A search: at once among the programmes here when they are all here, else on the service. */
  #search(value: string, every: boolean) {
    this._query = value;
    const q = value.trim().toLowerCase();
    if (!every) void this.#fetchList(q ? { q, courses: [], total: 0, page: 0 } : undefined);
  }

  /** Fetches the page after `list`'s (a new search's first page: page 0), replacing an answer still on its way. */
  async #fetchList(list?: NonNullable<typeof this._list>) {
    this.#listing?.abort();
    this._listError = undefined;
    if (!list) {
      this._list = undefined;
      return;
    }
    const signal = (this.#listing = new AbortController()).signal;
    try {
      const next = (await this.api.request('courses', {
        params: { q: list.q, page: String(list.page + 1) },
        signal,
      })) as CoursesPage;
      this._list = { q: list.q, courses: [...list.courses, ...next.courses], total: next.courses_total, page: next.page };
    } catch (failure) {
      if (!signal.aborted) this._listError = failure;
    }
  }

  #renderCourse(locale: Locale, course: Course) {
    return html`<li class="course" part="card" aria-labelledby="course-${course.id}">
      <h3 id="course-${course.id}">${course.title}</h3>
      <p>${course.category ? `${course.category} · ` : ''}${course.summary}</p>
      ${course.classes.length ? nothing : html`<p>${t(locale, 'noDates')}</p>`}
      <ul>
        ${course.classes.map((cls) => this.#renderClass(locale, course, cls))}
      </ul>
    </li>`;
  }

  #renderClass(locale: Locale, course: Course, cls: ClassInfo) {
    const { status } = cls;
    return html`<li class="class">
      <span class="facts" id="class-${cls.id}">
        <span class="when">${formatDateRange(locale, cls.starts_at, cls.ends_at, cls.timezone)}</span>
        <span>${cls.location}</span>
        <span>${this.#price(cls)}</span>
        <span class="seats ${status} ${cls.seats_left <= 3 ? 'low' : ''}"
          >${seatsText(cls, (key, params) => t(locale, key, params))}</span
        >
      </span>
      ${
        this.#cart?.inCart(cls.id, locale) ??
        (status === 'full'
          ? nothing
          : html`<button part="button" aria-describedby="course-${course.id} class-${cls.id}" @click=${() => this.#choose(course, cls)}>
            ${t(locale, this.#toCart(cls) ? 'addToCart' : status === 'waitlist' ? 'joinWaitlist' : 'book')}
          </button>`)
      }
    </li>`;
  }

  /** A class's price in the widget's locale ("Free", "€490.00"). */
  #price(cls: ClassInfo) {
    return cls.price.amount ? formatMoney(this.resolvedLocale, cls.price) : t(this.resolvedLocale, 'free');
  }

  /** A paid class with seats goes into the page's cart when a checkout is on the page. */
  #toCart(cls: ClassInfo) {
    return cls.price.amount > 0 && cls.status === 'open' && this.#checkout();
  }

  /** Whether a checkout of this service and company is on the page and takes classes. */
  #checkout() {
    return (this.#had = findCheckout(this.baseUrl, this.data?.widget.company.id));
  }

  /**
   * Whether a checkout was on the page when the widget last asked: a checkout's change draws it again
   * only when that answer changed (a page of 28 checkouts and 57 booking widgets drew each booking
   * widget some 30 times before all were ready).
   */
  #had?: boolean;

  async #loadCart() {
    const { BookingCart } = await cartChunk();
    this.#cart ??= new BookingCart(this);
    this.requestUpdate();
    return this.#cart;
  }

  async #choose(course: Course, cls: ClassInfo) {
    if (this.#toCart(cls)) return (await this.#loadCart()).book(cls, course.id, course.title);
    const { RegistrationForm } = await formChunk();
    this.#form ??= new RegistrationForm({
      element: this,
      api: () => this.api,
      price: (cls) => this.#price(cls),
      back: () => this.#showList(),
    });
    await this.#form.open();
    this._chosen = { course, cls };
  }

  /** Back to the list, with the focus on the button of the class that was open (or the list's heading). */
  async #showList() {
    const id = this._chosen?.cls.id;
    this._chosen = undefined;
    this.keepFocus();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`[aria-describedby$="class-${id}"]`)?.focus();
  }

  /** Everything shows: the focus goes to the list's heading (the button it was on is gone). */
  #focusHeading = async () => {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  };

  #clearSearch = async () => {
    this._query = '';
    if (this._list?.q) void this.#fetchList();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#search')?.focus();
  };

  protected override willUpdate(changed: PropertyValues<this>) {
    // Another programme: the form or confirmation of the previous one goes.
    if (changed.has('course')) this._chosen = undefined;
    super.willUpdate(changed);
  }
}

define('service-registration', ServiceRegistration);

declare global {
  interface HTMLElementTagNameMap {
    'service-registration': ServiceRegistration;
  }
}
