import { html, nothing, type PropertyValues } from 'lit';
import type { ClassSelectedDetail } from '../../contract/index.ts';
import type { CalendarClass, CalendarDay, CalendarResponse } from '../../contract/api/index.ts';
import { ServiceElement, ServiceEvent, define } from '../shared/base.ts';
import { FirstView, firstViewStyles } from '../shared/first-view.ts';
import { dateFormat, formatDateRange, formatMoney, seatsText } from '../shared/format.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import { baseStyles } from '../shared/styles.ts';
import { calendarStyles } from './calendar.styles.ts';

export type { CalendarClass, CalendarDay, CalendarResponse };

/** The calendar's words; German is in calendar.de.ts. */
export const en = {
  heading: 'Classes at {company}',
  programme: 'Programme',
  allProgrammes: 'All programmes',
  place: 'Place',
  allPlaces: 'All places',
  view: 'View',
  month: 'Month',
  list: 'List',
  previous: 'Previous month',
  next: 'Next month',
  today: 'Today',
  classes: '{count} classes',
  'classes.one': '{count} class',
  noClasses: 'no classes',
  noDay: 'No classes on this day.',
  emptyMonth: 'No classes in {month}.',
  showMonth: 'Show {month}',
  noUpcoming: 'No upcoming classes match.',
  failed: 'The classes of {month} could not be loaded.',
  yourTime: '(your time: {time})',
  with: 'with {names}',
  seatsLeft: 'Seats left: {count}',
  waitlist: 'Full – waitlist open',
  full: 'Full',
  held: 'Last seats held for unpaid orders – try again in {minutes} min',
  book: 'Book',
  join: 'Join waitlist',
  more: 'Show more',
};

export const t = translator(en, { de: () => import('./calendar.de.ts') });

/** The page's cart: a chunk of its own, fetched when the browser is idle after the first month, or on "Book". */
const cartChunk = () => import('../shared/cart-badge.ts');
/** More of a month than its answer holds (a page): a chunk of its own, for big companies. */
const pagesChunk = () => import('./calendar-pages.ts');
/** Joining a full class's waitlist: a chunk of its own, fetched on the first "Join waitlist". */
const waitlistChunk = () => import('./calendar-waitlist.ts');

/** Fired when the visitor books a class: it is in the page's cart. */
export class ClassSelectedEvent extends ServiceEvent<ClassSelectedDetail> {
  constructor(detail: ClassSelectedDetail) {
    super('service-class-selected', detail);
  }
}

/** Narrower than this (px), the widget shows the list unless the visitor chose the month (wider, the chosen day's classes stand beside the grid). */
const NARROW = 720;

// Days are `YYYY-MM-DD` and months `YYYY-MM`, computed at UTC midnight (dates, not times).
const DAY = 864e5;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const timeOf = (day: string) => Date.parse(day);
const addDays = (day: string, n: number) => dayOf(timeOf(day) + n * DAY);
const addMonths = (month: string, n: number) => dayOf(Date.UTC(+month.slice(0, 4), +month.slice(5) - 1 + n, 1)).slice(0, 7);
/** Monday 0 … Sunday 6. */
const weekday = (day: string) => (new Date(timeOf(day)).getUTCDay() + 6) % 7;
/** The same day of the month in `month`, or its last day. */
const sameDayIn = (day: string, month: string) => {
  const last = addDays(addMonths(month, 1) + '-01', -1);
  return month + day.slice(7) > last ? last : month + day.slice(7);
};
const idle = (run: () => void) => (window.requestIdleCallback ?? setTimeout)(run);

/**
 * @tagname service-calendar
 * @summary The company's classes by date: a month grid or a list, filters by programme and place, and booking into the page's cart.
 *
 * @fires service-class-selected - The visitor booked a class (it is in the page's cart); `detail: { class, course, starts_at }`.
 * @fires service-registration-created - The visitor joined a full class's waitlist; `detail: { id, course, class, status }` (`status` `waitlisted`).
 *
 * @csspart base - The widget's outer container.
 * @csspart button - The main buttons (book, join a waitlist).
 *
 * @cssprop [--service-accent=#1d4ed8] - Buttons, links, focus rings and the chosen day.
 * @cssprop [--service-on-accent=#fff] - Text on accent-coloured buttons.
 * @cssprop [--service-border=#767d89] - Borders of days and fields.
 * @cssprop [--service-danger=#b3261e] - Full classes.
 * @cssprop [--service-radius=8px] - Corner radius.
 *
 * The month grid follows the ARIA grid pattern: arrow keys move by day and week, Home and End to the
 * week's ends, Page Up and Page Down by month; the chosen day's classes show below it. Narrower than
 * 720 px the widget shows the month as a list (the visitor can switch). Each month is fetched once;
 * the next one while the browser is idle. A full class with an open waitlist offers "Join waitlist":
 * a small form where the class is (calendar-waitlist.ts, on demand). "Book" puts a class into the
 * page's cart: a checkout on the page, else the one at `checkout-url`, orders it.
 */
export class ServiceCalendar extends ServiceElement<CalendarResponse> {
  static override styles = [baseStyles, firstViewStyles, calendarStyles];

  static override properties = {
    course: {},
    location: {},
    checkoutUrl: { attribute: 'checkout-url' },
    _month: { state: true },
    _day: { state: true },
    _course: { state: true },
    _location: { state: true },
    _view: { state: true },
    _narrow: { state: true },
    _failed: { state: true },
  };

  /** An unknown programme (`data-service-course`) is a widget that is not available. */
  protected static override errorCodes = { 'course-not-found': 'not-available' } as const;

  /** Shows one programme's classes (its id, `data-service-course` on a placeholder); the visitor can choose another. */
  course = '';

  /** Shows the classes at places whose name contains this (`data-service-location`, for example `Berlin`). */
  location = '';

  /**
   * The site's page with the checkout widget (`data-service-checkout-url`): where no checkout is on
   * the calendar's page, a class booked says "Go to checkout" with a link there (the cart is the tab's:
   * the checkout there finds it). A page of this site: an http(s) address on it, or one relative to
   * the page; any other links nowhere (contract/links.ts), and the console says why.
   */
  checkoutUrl = '';

  /** The month shown (`YYYY-MM`; empty until the service has said which month is now). */
  private _month = '';
  /** The chosen day (`YYYY-MM-DD`). */
  private _day = '';
  private _course = '';
  private _location = '';
  /** The view the visitor chose; empty: by the width. */
  private _view: '' | 'month' | 'list' = '';
  private _narrow = false;
  /** The month shown could not be loaded. */
  private _failed = false;
  /** The view, held to its reserved space until the visitor asks for everything (or chooses a view). */
  #view = new FirstView(this);
  /** Each month's answer, by month and filters: fetched once. */
  #months = new Map<string, Promise<CalendarResponse>>();
  #cart?: InstanceType<Awaited<ReturnType<typeof cartChunk>>['BookingCart']>;
  /** More of a big month's classes: its code once such a month has been shown. */
  #pages?: InstanceType<Awaited<ReturnType<typeof pagesChunk>>['CalendarPages']>;
  #waitlist?: InstanceType<Awaited<ReturnType<typeof waitlistChunk>>['CalendarWaitlist']>;
  /**
   * Its width, a list under 720 px: from the frame's layout when it has been laid out (its entry's
   * width, read by no one: a calendar's update in the callback before would have made the next
   * calendar's read lay out the page anew), else read when its first answer comes (`load`).
   */
  #resize = new ResizeObserver(([{ contentRect }]) => {
    this.#sized = true;
    this._narrow = (contentRect.width || this.#width()) < NARROW;
  });
  #sized = false;

  protected override loadArgs: PropertyKey[] = ['key', 'baseUrl', 'course', 'location', 'locale'];

  protected override loadWords(locale: Locale) {
    return t.load(locale);
  }

  protected override async load() {
    this.#months.clear();
    const data = await this.#fetch(this._month);
    this._month = data.month;
    // Not yet laid out (its answer came with its code): read, once. A page of many calendars laid
    // itself out anew for each (0.3 s of a page of 200 widgets).
    if (!this.#sized) this._narrow = this.#width() < NARROW;
    this.#ahead(data.month);
    // A class already in the cart (a reload) says so once the cart's code has come.
    idle(() => this.#loadCart().catch(() => {}));
    return data;
  }

  /**
   * A month's answer, fetched once (a failure is fetched again next time); the first, for the
   * service's month (`''`), is kept as that month's too.
   */
  #fetch(month: string) {
    // The filters as asked: an answer that comes after they changed is kept under them, not the new ones.
    const filters = this.#filters();
    const id = (month: string) => [month, filters].join('\n');
    let answer = this.#months.get(id(month));
    if (!answer) {
      answer = this.api.request('calendar', {
        params: { month, course: this._course, location: this._location },
      }) as Promise<CalendarResponse>;
      this.#months.set(id(month), answer);
      answer.then(
        (data) => this.#months.set(id(data.month), answer!),
        () => this.#months.delete(id(month)),
      );
    }
    return answer;
  }

  /** The filters in force, as one string. */
  #filters() {
    return `${this._course}\n${this._location}`;
  }

  /** The next month, fetched while the browser is idle. */
  #ahead(month: string) {
    idle(() => this.#fetch(addMonths(month, 1)).catch(() => {}));
  }

  /** Shows a month (and `day` in it): the grid at once, its classes when they come. */
  async #show(month: string, day = sameDayIn(this.#selected(), month)) {
    Object.assign(this, { _month: month, _day: day, _failed: false });
    const filters = this.#filters();
    try {
      const data = await this.#fetch(month);
      // Another month or other filters were asked for meanwhile: their answer shows, not this one.
      if (this._month !== month || this.#filters() !== filters) return;
      this.data = data;
      this.#ahead(month);
    } catch {
      if (this._month === month) this._failed = true;
    }
  }

  async #loadCart() {
    const { BookingCart } = await cartChunk();
    this.#cart ??= new BookingCart(this);
    this.requestUpdate();
    return this.#cart;
  }

  #width() {
    // Hidden by the loader until it shows: its div's width then.
    return this.offsetWidth || this.parentElement?.offsetWidth || NARROW;
  }

  /** The days of the month shown that hold classes, once they have come (none while its answer is on the way). */
  get #days() {
    return this.data?.month === this._month ? this.data.days : [];
  }

  /**
   * The chosen day: the one the visitor chose in this month, else the first day from today on that
   * holds classes, else today, else the 1st.
   */
  #selected() {
    const month = this._month;
    const today = this.#today();
    if (this._day.startsWith(month)) return this._day;
    const next = this.#days.find((d) => d.date >= today)?.date;
    return next ?? (today.startsWith(month) ? today : month + '-01');
  }

  /** Today in the visitor's time zone, by the service's clock. */
  #today() {
    const now = new Date(this.data!.now);
    return dayOf(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()));
  }

  override render() {
    return this.renderState((data) => this.#renderReady(data));
  }

  #renderReady({ widget, filters, next_month }: CalendarResponse) {
    const locale = this.resolvedLocale;
    const month = this._month;
    const days = this.#days;
    const loading = this.data?.month !== month && !this._failed;
    const list = (this._view || (this._narrow ? 'list' : 'month')) === 'list';
    const monthName = (m: string) =>
      dateFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(timeOf(m + '-01'));
    const select = (
      name: 'programme' | 'place',
      value: string,
      options: [string, string][],
      all: 'allProgrammes' | 'allPlaces',
      set: (v: string) => void,
    ) =>
      options.length > 1
        ? html`<div class="field">
            <label for=${name}>${t(locale, name)}</label>
            <select id=${name} @change=${(e: Event) => set((e.target as HTMLSelectElement).value)}>
              <option value="" ?selected=${!value}>${t(locale, all)}</option>
              ${
                // The owner's filter (a part of a place's name, `Vienna`) is offered as it is.
                (value && !options.some(([id]) => id === value) ? [[value, value], ...options] : options).map(
                  ([id, label]) => html`<option value=${id} ?selected=${id === value}>${label}</option>`,
                )
              }
            </select>
          </div>`
        : nothing;
    const viewButton = (view: 'month' | 'list', pressed = list === (view === 'list')) =>
      // The visitor's choice: the view is no longer held to its reserved space. The view shown is a filled button.
      html`<button class=${pressed ? '' : 'secondary'} aria-pressed=${pressed} @click=${() => ((this.#view.all = true), (this._view = view))}>
        ${t(locale, view)}
      </button>`;
    return this.#view.render(
      html`<div class="bar">
          <h2 tabindex="-1" data-focus>${t(locale, 'heading', { company: widget.company.name })}</h2>
          <div class="views" role="group" aria-label=${t(locale, 'view')}>${viewButton('month')}${viewButton('list')}</div>
        </div>
        <div class="bar">
          ${select(
            'programme',
            this._course,
            filters.courses.map((c) => [c.id, c.title]),
            'allProgrammes',
            (v) => this.#filter({ _course: v }),
          )}
          ${select(
            'place',
            this._location,
            filters.locations.map((l) => [l, l]),
            'allPlaces',
            (v) => this.#filter({ _location: v }),
          )}
        </div>
        <div class="bar nav">
          <button class="secondary" aria-label=${t(locale, 'previous')} @click=${() => this.#show(addMonths(month, -1))}>‹</button>
          <h3 id="month" tabindex="-1" aria-live="polite">${monthName(month)}</h3>
          <button class="secondary" aria-label=${t(locale, 'next')} @click=${() => this.#show(addMonths(month, 1))}>›</button>
          <button class="secondary" @click=${() => this.#show(this.#today().slice(0, 7), this.#today())}>${t(locale, 'today')}</button>
        </div>
        ${
          this._failed
            ? html`<p class="notice error" role="alert">
                ${t(locale, 'failed', { month: monthName(month) })}
                <button class="link" @click=${() => this.#show(month)}>${t(locale, 'retry')}</button>
              </p>`
            : nothing
        }
        <div class="main ${list ? '' : 'month'}">
          ${list ? nothing : this.#renderGrid(locale, days, loading)}
          <div class="fill" aria-busy=${loading}>
            ${
              !loading && !this._failed && !days.length
                ? html`<p class="notice">
                    ${t(locale, 'emptyMonth', { month: monthName(month) })}
                    ${
                      next_month
                        ? // The month's heading takes the focus from the button, which goes.
                          html`<button class="link" @click=${() => (this.#show(next_month, ''), this.renderRoot.querySelector<HTMLElement>('#month')!.focus())}>
                            ${t(locale, 'showMonth', { month: monthName(next_month) })}
                          </button>`
                        : t(locale, 'noUpcoming')
                    }
                  </p>`
                : this.#renderList(locale, list ? '' : this.#selected(), loading || this._failed)
            }
            ${this.#view.more(t(locale, 'more'))}
          </div>
        </div>`,
    );
  }

  #renderGrid(locale: Locale, days: CalendarDay[], loading: boolean) {
    const month = this._month;
    const selected = this.#selected();
    const today = this.#today();
    const first = month + '-01';
    const start = addDays(first, -weekday(first));
    const weeks = Math.ceil((weekday(first) + +addDays(addMonths(month, 1) + '-01', -1).slice(8)) / 7);
    const long = dateFormat(locale, { weekday: 'long', timeZone: 'UTC' });
    const full = dateFormat(locale, { dateStyle: 'full', timeZone: 'UTC' });
    return html`<table role="grid" aria-labelledby="month" aria-busy=${loading} @keydown=${this.#key}>
      <thead>
        <tr>
          ${[0, 1, 2, 3, 4, 5, 6].map((i) => {
            const day = timeOf(addDays(start, i));
            return html`<th scope="col" aria-label=${long.format(day)}>${dateFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(day)}</th>`;
          })}
        </tr>
      </thead>
      <tbody>
        ${Array.from(
          { length: weeks },
          (_, week) =>
            html`<tr>
              ${[0, 1, 2, 3, 4, 5, 6].map((i) => {
                const day = addDays(start, week * 7 + i);
                if (!day.startsWith(month)) return html`<td></td>`;
                const held = days.find((d) => d.date === day);
                const count = held ? t(locale, 'classes', { count: held.classes }) : t(locale, 'noClasses');
                return html`<td
                  role="gridcell"
                  data-day=${day}
                  tabindex=${day === selected ? 0 : -1}
                  aria-selected=${day === selected}
                  aria-current=${day === today ? 'date' : nothing}
                  @click=${() => this.#focusDay(day)}
                >
                  <span class="visually-hidden">${full.format(timeOf(day))}, ${count}</span>
                  <span aria-hidden="true">${+day.slice(8)}</span>
                  ${held?.titles.map((title) => html`<span class="title" aria-hidden="true">${title}</span>`)}
                  ${held && held.classes > 2 ? html`<span class="title" aria-hidden="true">+${held.classes - 2}</span>` : nothing}
                </td>`;
              })}
            </tr>`,
        )}
      </tbody>
    </table>`;
  }

  /**
   * The classes of the month (`day` empty) or of a day, each day under its date, and a button for
   * more of them; none while the month's answer is `waiting`.
   */
  #renderList(locale: Locale, day: string, waiting: boolean) {
    const full = dateFormat(locale, { dateStyle: 'full', timeZone: 'UTC' });
    const data = this.data!;
    // A month of more classes than its answer: its pages (until their code has come, and while a
    // day's first page is on the way, what the month's answer holds of them).
    const listed = waiting
      ? undefined
      : (data.classes.length < data.classes_total &&
          (this.#pages?.list(data, day) ??
            void pagesChunk().then(
              ({ CalendarPages }) =>
                (this.#pages ??= new CalendarPages(this, t, (params) =>
                  // The filters in force, as the month's.
                  this.api.request('calendar', { params: { course: this._course, location: this._location, ...params } }),
                )),
              () => (this._failed = true),
            ))) || [data.classes.filter((c) => !day || c.local_date === day)];
    const [classes, more] = listed ?? [[]];
    return html`${(day ? [day] : [...new Set(classes.map((c) => c.local_date))]).map((day) => {
      const held = classes.filter((c) => c.local_date === day);
      return html`<h3>${full.format(timeOf(day))}</h3>
        ${
          held.length
            ? html`<ul class="classes">${held.map((c) => this.#renderClass(locale, c))}</ul>`
            : // (None yet, with a failure or more to come, is not "none".)
              more
              ? nothing
              : html`<p>${t(locale, 'noDay')}</p>`
        }`;
    })}
    ${more}`;
  }

  #renderClass(locale: Locale, cls: CalendarClass) {
    const { status, lecturers } = cls;
    return html`<li class="class">
      <h4 id="c-${cls.id}">${cls.course_title}</h4>
      <p>${this.#times(locale, cls)}</p>
      <p>${cls.location}${lecturers.length ? ` · ${t(locale, 'with', { names: lecturers.map((l) => l.name).join(', ') })}` : ''}</p>
      <p>
        ${cls.price.amount ? formatMoney(locale, cls.price) : t(locale, 'free')} ·
        <span class="seats ${status}">${seatsText(cls, (key, params) => t(locale, key, params))}</span>
      </p>
      ${
        this.#waitlist?.render(cls) ??
        this.#cart?.inCart(cls.id, locale) ??
        (status === 'open'
          ? html`<button part="button" aria-describedby="c-${cls.id}" @click=${() => this.#book(cls)}>${t(locale, 'book')}</button>`
          : status === 'waitlist'
            ? html`<button part="button" aria-describedby="c-${cls.id}" @click=${() => this.#join(cls)}>
                ${t(locale, 'join')}
              </button>`
            : nothing)
      }
    </li>`;
  }

  /** "9:00 – 16:00 GMT+1" (the venue's time, named as every widget names it), and the visitor's own where it differs. */
  #times(locale: Locale, { starts_at, ends_at, timezone }: CalendarClass) {
    const range = (timeZone?: string) => formatDateRange(locale, starts_at, ends_at, timeZone, { hour: 'numeric' });
    const venue = range(timezone);
    const own = range();
    return own === venue ? venue : `${venue} ${t(locale, 'yourTime', { time: own })}`;
  }

  async #book(cls: CalendarClass) {
    const booked = (await this.#loadCart()).book(cls, cls.course_id, cls.course_title);
    this.dispatchEvent(new ClassSelectedEvent({ class: cls.id, course: cls.course_id, starts_at: cls.starts_at }));
    await booked;
  }

  /** "Join waitlist": a small form where the class is. */
  async #join(cls: CalendarClass) {
    const { CalendarWaitlist } = await waitlistChunk();
    this.#waitlist ??= new CalendarWaitlist({ element: this, api: () => this.api, changed: this.#refresh });
    await this.#waitlist.open(cls);
  }

  /** The visitor chose a programme or a place: the month shown, filtered. */
  #filter(filters: { _course?: string; _location?: string }) {
    Object.assign(this, filters);
    this.#show(this._month);
  }

  async #focusDay(day: string) {
    if (day.startsWith(this._month)) this._day = day;
    else this.#show(day.slice(0, 7), day);
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`[data-day="${day}"]`)?.focus();
  }

  #key = (event: KeyboardEvent) => {
    const day = this.#selected();
    const month = day.slice(0, 7);
    const to = {
      ArrowLeft: -1,
      ArrowRight: 1,
      ArrowUp: -7,
      ArrowDown: 7,
      Home: -weekday(day),
      End: 6 - weekday(day),
    }[event.key];
    const page = { PageUp: -1, PageDown: 1 }[event.key];
    if (to === undefined && page === undefined) return;
    event.preventDefault();
    this.#focusDay(page ? sameDayIn(day, addMonths(month, page)) : addDays(day, to!));
  };

  protected override willUpdate(changed: PropertyValues<this>) {
    // The owner's options (changing live) set the filters; the visitor may choose others.
    if (changed.has('course')) this._course = this.course;
    if (changed.has('location')) this._location = this.location;
    super.willUpdate(changed);
  }

  /**
   * An order on this page took seats, or a class changed under a waitlist's form: the months seen are
   * asked again, the one shown at once.
   */
  #refresh = () => {
    if (this.loadState !== 'ready') return;
    this.#months.clear();
    this.#show(this._month, this._day);
  };

  override connectedCallback() {
    super.connectedCallback();
    this.#resize.observe(this);
    addEventListener('service-checkout-completed', this.#refresh);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.#resize.disconnect();
    removeEventListener('service-checkout-completed', this.#refresh);
  }
}

define('service-calendar', ServiceCalendar);

declare global {
  interface HTMLElementTagNameMap {
    'service-calendar': ServiceCalendar;
  }
}
