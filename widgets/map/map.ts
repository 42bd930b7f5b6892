import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { siteLink } from '../../contract/links.ts';
import type { BookingRequestedDetail, PlaceSelectedDetail } from '../../contract/index.ts';
import type { Place, PlaceClass, WidgetResponse } from '../../contract/api/index.ts';
import { ServiceElement, ServiceEvent, define } from '../shared/base.ts';
import { findCheckout } from '../shared/checkout-find.ts';
import { FirstView, firstViewStyles } from '../shared/first-view.ts';
import { formatDateRange, seatsText } from '../shared/format.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import { baseStyles } from '../shared/styles.ts';
import { mapStyles } from './map.styles.ts';

export type { Place };

/** The first render: the widget (its `options.tiles`) and the places. */
export type MapData = WidgetResponse & { places: Place[] };

/** The visitor chose a place, in the list or on the map. */
export class PlaceSelectedEvent extends ServiceEvent<PlaceSelectedDetail> {
  constructor(detail: PlaceSelectedDetail) {
    super('service-place-selected', detail);
  }
}

/** The visitor chose "Book" or "Add to cart" for a class; cancelable (the link is then not followed, the cart left as it is). */
export class BookingRequestedEvent extends ServiceEvent<BookingRequestedDetail> {
  constructor(detail: BookingRequestedDetail) {
    super('service-booking-requested', detail, true);
  }
}

/** The widget's words, the map's included; German is in map.de.ts. */
export const en = {
  heading: 'Where {company} teaches',
  places: 'Places',
  empty: 'No places to show yet.',
  online: 'No place on the map: these classes take place online.',
  noClasses: 'No upcoming classes here.',
  nextClasses: 'Next classes',
  book: 'Book',
  bookClass: 'Book {course}, {when}',
  addToCart: 'Add to cart',
  addClass: 'Add to cart: {course}, {when}',
  seatsLeft: 'Seats left: {count}',
  waitlist: 'Full – waitlist open',
  full: 'Full',
  held: 'Last seats held for unpaid orders – try again in {minutes} min',
  map: 'Map of the places',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  closePopup: 'Close',
  tilesFailed: 'The map’s background could not be loaded. The places and their markers still work.',
  mapFailed: 'The map could not be loaded. The list of places still works.',
  showAll: 'Show all {count} places',
  'showAll.one': 'Show the place',
};

export type MapWord = keyof typeof en;

export const t = translator(en, { de: () => import('./map.de.ts') });

/** Leaflet and its CSS: a chunk of its own, fetched once the list shows and the map nears the viewport. */
const leafletChunk = () => import('./map-leaflet.ts');
/** The page's cart: a chunk of its own, fetched once a checkout of the company is on the page. */
const cartChunk = () => import('../shared/cart-badge.ts');

/**
 * @tagname service-map
 * @summary Where the company's classes take place: the places as a list, then on a map.
 *
 * @fires service-place-selected - The visitor chose a place, in the list or on the map; `detail: { id }`.
 * @fires service-booking-requested - The visitor chose "Book" or "Add to cart" for a class; `detail: { place, course, class }`.
 *   Cancelable: `preventDefault()` keeps the visitor on the page (the link to `booking-url` is not followed)
 *   and the cart as it is.
 *
 * @csspart base - The widget's outer container.
 * @csspart card - A place of the list.
 * @csspart button - The book links and "Add to cart" buttons.
 *
 * @cssprop [--service-accent=#1d4ed8] - Links, markers and focus rings.
 * @cssprop [--service-on-accent=#fff] - Text on accent-coloured buttons.
 * @cssprop [--service-border=#767d89] - Borders of the list and the map.
 * @cssprop [--service-danger=#b3261e] - Errors and scarce seats.
 * @cssprop [--service-radius=8px] - Corner radius.
 *
 * The list is the first render; the map (Leaflet, with its CSS inside the widget's shadow root)
 * comes after it, with a marker per place whose popup holds what the list item holds. Choosing a
 * place in either highlights it in the other. With a checkout of the company on the page, a class
 * with seats goes into the page's cart ("Add to cart"), as in the calendar; else "Book" links to
 * `booking-url`. Tiles come from the widget key's configuration
 * (OpenStreetMap's by default); when they cannot load, the map says so and the list keeps working.
 */
export class ServiceMap extends ServiceElement<MapData> {
  static override styles = [baseStyles, firstViewStyles, mapStyles];

  static override properties = {
    bookingUrl: { attribute: 'booking-url' },
    _selected: { state: true },
    _failed: { state: true },
    _grown: { state: true },
    _attribution: { state: true },
  };

  /**
   * The page where visitors book (a page with the registration widget): each class's "Book" links there
   * with `course` and `class`. An http(s) address, or one relative to the page; any other shows no link.
   * A checkout on the page takes the classes with seats instead ("Add to cart").
   */
  bookingUrl = '';

  /** The place chosen last. */
  private _selected?: string;
  /** What of the map could not load: the tiles, or the map itself. */
  private _failed?: 'tilesFailed' | 'mapFailed';
  /**
   * The visitor acted in the widget (a click, a key): where the map stands above the list, it grows
   * to a height its popups fit in, and the list shows whole (the reserved space is a minimum).
   */
  private _grown = false;
  /**
   * Stacked (a phone), the first view's list shows the whole places that fit, and "Show all" the
   * rest; side by side, the list scrolls within its part.
   */
  #view = new FirstView(this);
  /**
   * Side by side (40em wide or more, as map.styles.ts has it) nothing is held: its width as the page's
   * layout gives it, before the frame is painted, never by forcing a layout of its own at each render
   * (a page of many widgets laid itself out once for each). Its ruler's width (`render()`: no height,
   * so that the view it then shows is no new size to observe in the same frame); one observer for
   * every map, so that their styles are read together. Hidden by the loader, it is measured when it shows.
   */
  static #wide = new ResizeObserver((entries) => {
    for (const { target, contentRect } of entries) {
      const map = (target.getRootNode() as ShadowRoot).host as ServiceMap;
      if (!map.#view.all && contentRect.width >= 40 * parseFloat(getComputedStyle(map).fontSize)) {
        map.#view.all = true;
        map.requestUpdate();
      }
    }
  });
  /** The tiles' attribution, once the map shows. */
  private _attribution = '';
  #map?: InstanceType<Awaited<ReturnType<typeof leafletChunk>>['LeafletMap']>;
  /** The page's cart, once a checkout of the company has been on the page. */
  #cart?: InstanceType<Awaited<ReturnType<typeof cartChunk>>['BookingCart']>;

  protected override loadWords(locale: Locale) {
    return t.load(locale);
  }

  protected override load(signal: AbortSignal) {
    return this.api.request('widget', { params: { type: 'map' }, signal }) as Promise<MapData>;
  }

  protected override step() {
    return 'list';
  }

  override render() {
    return html`${this.renderState((data) => this.#renderPlaces(data))}<div class="ruler"></div>`;
  }

  protected override firstUpdated() {
    ServiceMap.#wide.observe(this.renderRoot.querySelector('.ruler')!);
  }

  #renderPlaces({ widget, places }: MapData) {
    const locale = this.resolvedLocale;
    return this.#view.render(
      html`<h2 tabindex="-1" data-focus>${t(locale, 'heading', { company: widget.company.name })}</h2>
      <div class="body ${this._grown ? 'grown' : ''}">
        <div class="map-box">
          <div class="map" role="region" aria-label=${t(locale, 'map')}></div>
          <div role="status">${this._failed ? html`<p class="failed-line notice">${t(locale, this._failed)}</p>` : nothing}</div>
          ${this._attribution ? html`<p class="attribution">Leaflet · ${this._attribution}</p>` : nothing}
        </div>
        <ul class="places fill" aria-label=${t(locale, 'places')}>
          ${places.length ? nothing : html`<li class="notice">${t(locale, 'empty')}</li>`}
          ${places.map(
            (place) =>
              html`<li
                class="place ${this._selected === place.id ? 'selected' : ''}"
                part="card"
                id="place-${place.id}"
                aria-current=${this._selected === place.id ? 'true' : nothing}
              >
                ${this.#renderPlace(place, false)}
              </li>`,
          )}
        </ul>
      </div>`,
      t(locale, 'showAll', { count: places.length }),
      () => this.renderRoot.querySelector<HTMLElement>('h2')?.focus(),
    );
  }

  /** What a place shows, in the list and in its marker's popup: name, address, next classes, a way to book. */
  #renderPlace(place: Place, inPopup: boolean): TemplateResult {
    const locale = this.resolvedLocale;
    const onMap = place.lat != null && place.lng != null;
    const chosen = this._selected === place.id;
    // In the list, a place on the map is a button that shows it there (pressed while it is shown),
    // and looks like one, with a pin: underlined, it looked like a link to another page.
    return html`<h3 tabindex=${inPopup ? '-1' : nothing}>
        ${
          onMap && !inPopup
            ? html`<button class=${chosen ? 'show' : 'show secondary'} aria-pressed=${chosen} @click=${() => this.#select(place.id, 'list')}>
              ${place.name}
            </button>`
            : place.name
        }
      </h3>
      <p>${place.address ?? t(locale, 'online')}</p>
      ${
        place.classes.length
          ? html`<ul class="classes" aria-label=${t(locale, 'nextClasses')}>
            ${place.classes.map((cls) => this.#renderClass(place, cls, inPopup))}
          </ul>`
          : html`<p>${t(locale, 'noClasses')}</p>`
      }`;
  }

  #renderClass(place: Place, cls: PlaceClass, inPopup: boolean) {
    const locale = this.resolvedLocale;
    const when = formatDateRange(locale, cls.starts_at, cls.ends_at, cls.timezone);
    const href = this.#bookingHref(cls);
    const words = { course: cls.course.title, when };
    return html`<li>
      <span class="course">${cls.course.title}</span>
      <span>${when}</span>
      <span class="seats ${cls.status}">${seatsText(cls, (key, params) => t(locale, key, params))}</span>
      ${
        this.#cart?.inCart(cls.id, locale, inPopup) ??
        (cls.status === 'open' && this.#checkout()
          ? html`<button part="button" class="secondary" aria-label=${t(locale, 'addClass', words)} @click=${() => this.#add(place, cls)}>
              ${t(locale, 'addToCart')}
            </button>`
          : href && cls.status !== 'full'
            ? html`<a
            part="button"
            class="book"
            href=${href}
            aria-label=${t(locale, 'bookClass', words)}
            @click=${(event: Event) => this.#book(event, place, cls)}
            >${t(locale, 'book')}</a
          >`
            : nothing)
      }
    </li>`;
  }

  /** Whether a checkout of the company is on the page and takes classes. */
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

  /** A checkout came or went: with one, the cart's code comes (a class in the cart says so). */
  #checkoutChanged = () => {
    const had = this.#had;
    if (this.#checkout() !== had) void (this.#had ? this.#loadCart().catch(() => {}) : this.requestUpdate());
  };

  /** "Add to cart": one seat of the class into the page's cart, unless the page keeps it. */
  async #add(place: Place, cls: PlaceClass) {
    const request = new BookingRequestedEvent({ place: place.id, course: cls.course.id, class: cls.id });
    this.dispatchEvent(request);
    if (request.defaultPrevented) return;
    (await this.#loadCart()).book({ ...cls, location: place.name }, cls.course.id, cls.course.title);
  }

  /** The booking page (an http(s) page only, contract/links.ts) with the class's programme and id; nothing without one. */
  #bookingHref(cls: PlaceClass) {
    const url = siteLink(this.bookingUrl, location.href);
    if (!url) return undefined;
    url.searchParams.set('course', cls.course.id);
    url.searchParams.set('class', cls.id);
    return url.href;
  }

  #book(event: Event, place: Place, cls: PlaceClass) {
    const request = new BookingRequestedEvent({ place: place.id, course: cls.course.id, class: cls.id });
    this.dispatchEvent(request);
    if (request.defaultPrevented) event.preventDefault();
  }

  /**
   * A place chosen in the list (its marker is highlighted and its popup opens) or on the map (its
   * list item is highlighted, and scrolled to where the list scrolls).
   */
  async #select(id: string, from: 'list' | 'map') {
    const changed = this._selected !== id;
    this._selected = id;
    if (changed) this.dispatchEvent(new PlaceSelectedEvent({ id }));
    await this.updateComplete;
    this.#map?.highlight(id);
    if (from === 'list') return this.#map?.show(id);
    // Its list item into view within the list, where the list scrolls (side by side); stacked (a
    // phone), the page stays where it is: scrolled to the list, it took the popup out of sight.
    const item = this.renderRoot.querySelector(`#place-${id}`);
    const list = item?.parentElement;
    if (!item || !list || list.scrollHeight <= list.clientHeight) return;
    const [outer, inner] = [list.getBoundingClientRect(), item.getBoundingClientRect()];
    list.scrollTop += Math.min(0, inner.top - outer.top) || Math.max(0, inner.bottom - outer.bottom);
  }

  /** The map's box waited for (below the fold). */
  #nearing?: HTMLElement;

  /**
   * Once the list shows: the map, in its box, when the box comes within a screen of the viewport (a
   * page of many maps sets up only those near the visitor); a new load draws it anew.
   */
  async #drawMap() {
    const box = this.renderRoot.querySelector<HTMLElement>('.map');
    if (!box || this.#map || this._failed === 'mapFailed' || this.#nearing === box) return;
    const data = this.data!;
    this.#nearing = box;
    try {
      await new Promise<void>((near) => {
        const watch = new IntersectionObserver((seen) => seen.some((e) => e.isIntersecting) && (watch.disconnect(), near()), {
          rootMargin: '100% 0px',
        });
        watch.observe(box);
      });
      const { LeafletMap } = await leafletChunk();
      // Another update drew it meanwhile (the chunk is 50 KB: a click in the list may come first).
      if (this.data !== data || !box.isConnected || this.#map) return;
      this.#map = new LeafletMap(
        {
          root: this.shadowRoot!,
          word: (key) => t(this.resolvedLocale, key),
          popup: (place) => this.#renderPlace(place, true),
          chosen: (id) => this.#select(id, 'map'),
          tilesFailed: () => (this._failed ??= 'tilesFailed'),
        },
        box,
        data.places,
        this.#tiles(data),
      );
      this._attribution = this.#tiles(data).attribution;
      if (this._selected) this.#map.highlight(this._selected);
    } catch {
      // What of the map could not load is said in one line; the list keeps working.
      this._failed ??= 'mapFailed';
    }
  }

  /** The key's tiles; a relative URL is the service's. `{z}` and the like stay as they are. */
  #tiles(data: MapData) {
    const tiles = data.widget.options.tiles!;
    const base = (this.baseUrl || location.origin).replace(/\/?$/, '/');
    return { ...tiles, url: /^[a-z][a-z\d+.-]*:/i.test(tiles.url) ? tiles.url : base + tiles.url };
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    // New data (another key, service or locale): the old map goes, the new one comes after the list.
    if (changed.has('data')) {
      this.#map?.remove();
      this.#map = undefined;
      Object.assign(this, { _failed: undefined, _attribution: '' });
    }
    super.willUpdate(changed);
  }

  protected override updated() {
    super.updated();
    if (this.loadState !== 'ready') return;
    void this.#drawMap();
    // A checkout already on the page (a class already in the cart says so after a reload).
    if (!this.#cart && this.#checkout()) void this.#loadCart().catch(() => {});
  }

  #grow = () => (this._grown = true);

  override connectedCallback() {
    super.connectedCallback();
    for (const type of ['click', 'keydown']) this.addEventListener(type, this.#grow, { once: true });
    addEventListener('service-checkout-change', this.#checkoutChanged);
    // Moved on the page: its ruler is observed again (first, once it is drawn).
    if (this.hasUpdated) this.firstUpdated();
    // Moved on the page: the map is drawn anew.
    if (this.loadState === 'ready') this.requestUpdate();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    removeEventListener('service-checkout-change', this.#checkoutChanged);
    const ruler = this.renderRoot.querySelector('.ruler');
    if (ruler) ServiceMap.#wide.unobserve(ruler);
    this.#map?.remove();
    this.#map = undefined;
  }
}

define('service-map', ServiceMap);

declare global {
  interface HTMLElementTagNameMap {
    'service-map': ServiceMap;
  }
}
