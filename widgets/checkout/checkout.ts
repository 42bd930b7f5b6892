import { html, nothing, type PropertyValues } from 'lit';
import type { QuoteResponse, Widget } from '../../contract/api/index.ts';
import type { PageScope } from '../../contract/page.ts';
import type { ApiError } from '../shared/api.ts';
import { ServiceElement, define, toApiError } from '../shared/base.ts';
import { CartController, type CartLine } from '../shared/cart.ts';
import { FirstView, firstViewStyles } from '../shared/first-view.ts';
import { formatDateRange, formatMoney, minutesUntil, type Money } from '../shared/format.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import { baseStyles } from '../shared/styles.ts';
import { checkoutStyles } from './checkout.styles.ts';

export interface CheckoutData {
  widget: Widget;
}

/** What a cart or an order costs. */
export type Totals = Pick<QuoteResponse, 'subtotal' | 'discount' | 'tax' | 'total' | 'tax_rate' | 'prices_include_tax'>;

/**
 * A line's amount before the voucher's share: the lines add up to the subtotal, and the discount is
 * said once, in its row (a line's `total` beside them counted it twice, to the eye).
 */
const beforeDiscount = ({ total, discount }: { total: Money; discount: Money }): Money => ({
  ...total,
  amount: total.amount + discount.amount,
});

/**
 * The cart's words; German is in checkout.de.ts. The later steps' are in their own chunk, and so are
 * the words of the service's verdicts on a cart (checkout-verdicts.ts).
 */
export const en = {
  heading: 'Your cart',
  empty: 'Your cart is empty. Choose a class to book it here.',
  seats: 'Seats',
  remove: 'Remove',
  removeLine: 'Remove {course}',
  each: '{price} per seat',
  voucher: 'Voucher code',
  apply: 'Apply',
  subtotal: 'Subtotal',
  discount: 'Discount',
  taxIncluded: 'Including {rate}\u00a0% VAT',
  taxAdded: 'Plus {rate}\u00a0% VAT',
  total: 'Total',
  next: 'Continue',
  updating: 'Updating prices…',
  failed: 'The prices could not be updated.',
  haveVoucher: 'Have a voucher code?',
  more: 'Show all {count} classes',
};

export const t = translator(en, { de: () => import('./checkout.de.ts') });

/**
 * The details, the order and its confirmation: a chunk of their own, fetched while the visitor reads
 * the cart, or with the first render back from the payment page (it reads what became of the order).
 */
const stepsChunk = () => import(/* first render: back from the payment page */ './checkout-steps.ts');
/**
 * The words of the service's verdicts (a voucher applied or why not, a class that cannot be ordered):
 * a chunk of their own, loaded with the first answer that has one (most carts have none).
 */
const verdictsChunk = () => import(/* first render: a voucher or a refused class in the cart */ './checkout-verdicts.ts');

type Steps = InstanceType<Awaited<ReturnType<typeof stepsChunk>>['CheckoutSteps']>;

/**
 * @tagname service-checkout
 * @summary The page's cart, the attendees and the buyer, the payment and the order, with its confirmation.
 *
 * @fires service-checkout-completed - An order was placed (and paid, where it was paid on the provider's page); `detail: { id, number, items, total }`.
 *
 * @csspart base - The widget's outer container.
 * @csspart card - A class in the cart.
 * @csspart button - The main buttons (continue, place the order).
 *
 * @cssprop [--service-accent=#1d4ed8] - Buttons, links and focus rings.
 * @cssprop [--service-on-accent=#fff] - Text on accent-coloured buttons.
 * @cssprop [--service-border=#767d89] - Borders of lines and fields.
 * @cssprop [--service-danger=#b3261e] - Errors and classes that cannot be ordered.
 * @cssprop [--service-radius=8px] - Corner radius.
 *
 * The cart is the page's: classes booked in a calendar or a registration widget on the page, or given
 * by `classes` or by the page's address (`?service-class=`). Every price, discount and total comes from the service's quote, fetched once per
 * change of the cart. Card payments happen on the provider's page; the widget picks the order up
 * when the visitor comes back.
 */
export class ServiceCheckout extends ServiceElement<CheckoutData> {
  static override styles = [baseStyles, firstViewStyles, checkoutStyles];

  static override properties = {
    classes: {},
    _quote: { state: true },
    _quoting: { state: true },
    _failed: { state: true },
    _notice: { state: true },
    _step: { state: true },
    _voucher: { state: true },
  };

  /** Classes to put into the cart, by id (`data-service-class`: one or more, separated by spaces or commas). */
  classes = '';

  /**
   * The page's cart. The checkout answers the page bus for it (contract/page.ts): a widget that books
   * into the cart asks whether a checkout is here (it is, unless it failed) and, to go to it, brings
   * it into view with the focus on its heading.
   */
  readonly #cart: CartController = new CartController(
    this,
    () => this.#changed(),
    (show) => this.loadState !== 'error' && (show && this.#focus(), true),
  );

  /** The service's quote of the cart (undefined for an empty cart). */
  private _quote?: QuoteResponse;
  private _quoting = false;
  /** Why the last quote failed. */
  private _failed?: ApiError;
  /** A line above the cart: what became of the order the visitor came back from, or why the cart changed. */
  private _notice: unknown = '';
  /** The step shown after the cart (`details`, `done`), drawn by the steps' chunk. */
  private _step = '';
  /** The visitor asked for the voucher field. */
  private _voucher = false;
  /** The cart, and the confirmation of an order, as the widget's first view. */
  #view = new FirstView(this);
  #steps?: Steps;
  #verdicts?: Awaited<ReturnType<typeof verdictsChunk>>['t'];
  #quotes = 0;

  protected override loadArgs: PropertyKey[] = ['key', 'baseUrl', 'locale'];

  protected override loadWords(locale: Locale) {
    return t.load(locale);
  }

  protected override async load(signal: AbortSignal) {
    this._step = '';
    this.data = (await this.api.request('widget', { params: { type: 'checkout' }, signal })) as CheckoutData;
    this.#adopt();
    const waiting = this.#cart.cart.order;
    // Back from the provider's page: what became of the order.
    if (waiting) await (await this.#loadSteps()).pickUp(waiting);
    // A service that cannot be reached fails the widget (with a retry); a cart it refuses shows why.
    if (!(await this.#quote()) && this._failed!.retryable) throw this._failed;
    // Most visitors with a cart go on: the later steps are fetched while they read it (not while the
    // quote is on its way, when the browser is idle too: they are no part of the first render).
    (window.requestIdleCallback ?? setTimeout)(() => stepsChunk().catch(() => {}));
    return this.data;
  }

  /** The cart changed (here or in another widget): priced again; emptied, it shows as the cart. */
  #changed() {
    if (this.loadState !== 'ready') return;
    if (!this.#cart.lines.length && this._step === 'details') this._step = '';
    this.#quote();
  }

  /**
   * The classes of the `classes` option and of the page's address (`?service-class=cls_a,cls_b`: a
   * calendar's link to this page, which a new tab opens without the tab's cart; a link in a
   * newsletter) join the cart, once in the tab's session (removed, they stay out).
   */
  #adopt() {
    this.#cart.offer(
      `${this.classes} ${new URLSearchParams(location.search).get('service-class') ?? ''}`.split(/[\s,]+/).filter(Boolean),
    );
  }

  /**
   * Asks the service for the cart's prices (one request per change of the cart; an older answer that
   * arrives late is dropped). Resolves false if it failed.
   */
  async #quote() {
    const { lines, voucher } = this.#cart.cart;
    const n = ++this.#quotes;
    if (!lines.length) return !(this._quote = undefined);
    this._quoting = true;
    try {
      const quote = (await this.api.request('checkout/quote', {
        body: { items: lines.map(({ class_id, seats }) => ({ class_id, seats })), voucher },
      })) as QuoteResponse;
      if (quote.voucher || !quote.orderable) await this.#loadVerdicts();
      if (n === this.#quotes) Object.assign(this, { _quote: quote, _failed: undefined });
      return true;
    } catch (error) {
      const failed = toApiError(error, this.resolvedLocale);
      // A voucher code the service cannot read is a verdict too (in the words of its chunk).
      if (failed.fields.voucher) await this.#loadVerdicts().catch(() => {});
      // The last prices are not this cart's: none are shown, and nothing can be ordered, until a
      // quote of this cart comes (the visitor's details wait in the cart's step).
      if (n === this.#quotes) Object.assign(this, { _failed: failed, _quote: undefined, _step: '' });
      return false;
    } finally {
      if (n === this.#quotes) this._quoting = false;
    }
  }

  /** The steps' chunk, with what it needs of the widget (`StepsHost`). */
  /** The verdicts' words, in the widget's language. */
  async #loadVerdicts() {
    const { t } = await verdictsChunk();
    await t.load(this.resolvedLocale);
    this.#verdicts = t;
  }

  async #loadSteps() {
    return (this.#steps ??= new (await stepsChunk()).CheckoutSteps({
      element: this,
      api: () => this.api,
      cart: this.#cart,
      view: this.#view,
      quote: () => this._quote!,
      totals: (o, code) => this.#totals(o, code),
      notice: (line) => (this._notice = line),
      done: () => (this._step = 'done'),
      // Back to the cart (from the details), with a line that says why.
      showCart: (notice = '') => {
        Object.assign(this, { _step: '', _notice: notice });
        return this.#quote();
      },
    }));
  }

  /** Brings the widget into view with the focus on its heading ("Go to checkout" in another widget). */
  /**
   * The cart whole, from its heading, which takes the focus: the visitor came to it ("Go to checkout"
   * in another widget: the class just booked, last in the cart, was under "Show all"), or asked for
   * all of it (the focus fell to the page's body as the button went).
   */
  #focus = () => {
    this.#view.all = true;
    this.requestUpdate();
    // (Its top at the top: the browser's default.)
    this.scrollIntoView();
    this.renderRoot.querySelector<HTMLElement>('[data-focus]')?.focus();
  };

  protected override step() {
    return this._step || 'cart';
  }

  override render() {
    return this.renderState(() => (this._step ? this.#steps!.render(this._step) : this.#renderCart()));
  }

  #renderCart() {
    const locale = this.resolvedLocale;
    const quote = this._quote;
    const lines = this.#cart.lines;
    const failed = this._failed;
    return this.#view.render(
      html`<div>
          <h2 tabindex="-1" data-focus>${t(locale, 'heading')}</h2>
          <div role="status">${this._notice ? html`<p class="notice">${this._notice}</p>` : nothing}</div>
        </div>
        ${
          lines.length
            ? html`<ul class="lines fill" aria-busy=${this._quoting}>
                ${lines.map((line) =>
                  this.#renderLine(
                    locale,
                    line,
                    quote?.items.find((q) => q.class_id === line.class_id),
                  ),
                )}
              </ul>`
            : // An empty cart fills its space with what to do (no blank page below a line).
              html`<p class="notice fill empty">${t(locale, 'empty')}</p>`
        }
        ${
          lines.length
            ? // "Show all" in one row with the voucher's link (at its end: the link never moves when it
              // shows), and the live region with the button (empty, no row of the view's grid): a cart of
              // several classes fits its first view's space.
              html`<div class="links">
                  ${
                    this._voucher || quote?.voucher
                      ? html`<form class="voucher" @submit=${this.#applyVoucher}>
                      <label for="voucher">${t(locale, 'voucher')}</label>
                      <input
                        id="voucher"
                        name="voucher"
                        autocomplete="off"
                        .value=${this.#cart.cart.voucher ?? ''}
                        aria-describedby=${quote?.voucher ? 'voucher-result' : nothing}
                      />
                      <button class="secondary">${t(locale, 'apply')}</button>
                      <p id="voucher-result" role="status" class="hint ${quote?.voucher?.status === 'applied' ? '' : 'error'}">
                        ${
                          quote?.voucher
                            ? this.#verdicts!(locale, `voucher.${quote.voucher.status}`, {
                                code: quote.voucher.code,
                                // Only `not-checked` has one (and words with minutes).
                                minutes: Math.ceil(quote.voucher.retry_after! / 60),
                              })
                            : nothing
                        }
                      </p>
                    </form>`
                      : html`<p><button class="link" @click=${this.#openVoucher}>${t(locale, 'haveVoucher')}</button></p>`
                  }
                  ${this.#view.more(t(locale, 'more', { count: lines.length }), this.#focus)}
                </div>
                ${failed ? this.#renderFailed(locale, failed) : nothing}
                ${quote ? this.#totals(quote, quote.voucher?.code) : nothing}
                <div>
                  <div role="status">${quote && !quote.orderable ? html`<p class="error">${this.#verdicts!(locale, 'fixCart')}</p>` : nothing}</div>
                  <button
                    part="button"
                    ?disabled=${!quote?.orderable || this._quoting || !!this.#cart.cart.order}
                    @click=${this.#next}
                  >
                    ${this._quoting ? t(locale, 'updating') : t(locale, 'next')}
                  </button>
                </div>`
            : nothing
        }`,
    );
  }

  /** What a cart or an order costs, its discount named by its voucher (the steps' confirmation shows an order's so). */
  #totals(o: Totals, code?: string | null) {
    const locale = this.resolvedLocale;
    const row = (label: string, amount: Money, cls = '') =>
      html`<div class=${cls}><dt>${label}</dt><dd>${formatMoney(locale, amount)}</dd></div>`;
    return html`<dl class="totals">
      ${row(t(locale, 'subtotal'), o.subtotal)}
      ${o.discount.amount ? row(`${t(locale, 'discount')} (${code})`, { ...o.discount, amount: -o.discount.amount }) : nothing}
      ${row(t(locale, o.prices_include_tax ? 'taxIncluded' : 'taxAdded', { rate: o.tax_rate.toLocaleString(locale) }), o.tax)}
      ${row(t(locale, 'total'), o.total, 'total')}
    </dl>`;
  }

  /** A quote that failed: try again if the service could not be reached, else the service's words (a cart it refuses). */
  #renderFailed(locale: Locale, failed: ApiError) {
    return html`<p class="notice error" role="alert">
      ${
        failed.retryable
          ? t(locale, 'failed')
          : failed.fields.voucher
            ? this.#verdicts!(locale, 'voucher.invalid')
            : [failed.shown, ...Object.values(failed.fields)].join(' ')
      }
      ${failed.retryable ? html`<button class="link" @click=${() => this.#quote()}>${t(locale, 'retry')}</button>` : nothing}
    </p>`;
  }

  #renderLine(locale: Locale, line: CartLine, quoted?: QuoteResponse['items'][number]) {
    const title = quoted?.course_title ?? line.course_title ?? line.class_id;
    const starts = quoted?.starts_at ?? line.starts_at;
    const ends = quoted?.ends_at ?? line.ends_at;
    const max = Math.min(20, Math.max(quoted?.seats_left ?? 1, line.seats));
    const id = line.class_id;
    // Its amount beside its title: the seats' row keeps to one line at 288 px (in German too).
    return html`<li class="line" part="card">
      <div class="title">
        <h3 id="l-${id}">${title}</h3>
        ${quoted ? html`<span class="amount">${formatMoney(locale, beforeDiscount(quoted))}</span>` : nothing}
      </div>
      ${starts ? html`<p>${formatDateRange(locale, starts, ends!, quoted?.timezone ?? line.timezone)} · ${quoted?.location ?? line.location}</p>` : nothing}
      ${
        quoted?.problem
          ? html`<p class="error" id="p-${id}">
              ${this.#verdicts!(locale, quoted.held_until ? 'problem.held' : `problem.${quoted.problem}`, {
                count: quoted.seats_left,
                minutes: minutesUntil(quoted.held_until!),
              })}
            </p>`
          : nothing
      }
      <div class="seats">
        <label for="s-${id}">${t(locale, 'seats')}</label>
        <select
          id="s-${id}"
          aria-describedby="l-${id}${quoted?.problem ? ` p-${id}` : ''}"
          @change=${(e: Event) => this.#cart.seats(id, +(e.target as HTMLSelectElement).value)}
        >
          ${Array.from({ length: max }, (_, i) => html`<option ?selected=${i + 1 === line.seats}>${i + 1}</option>`)}
        </select>
        <button class="link" aria-label=${t(locale, 'removeLine', { course: title })} @click=${() => this.#remove(id)}>
          ${t(locale, 'remove')}
        </button>
      </div>
      ${quoted && line.seats > 1 ? html`<p class="hint">${t(locale, 'each', { price: formatMoney(locale, quoted.unit_price) })}</p>` : nothing}
    </li>`;
  }

  async #remove(id: string) {
    const next = this.#cart.lines[this.#cart.lines.findIndex((l) => l.class_id === id) + 1]?.class_id;
    this.#cart.seats(id, 0);
    await this.updateComplete;
    // The focus goes to the next line's seats, or the cart's heading.
    this.renderRoot.querySelector<HTMLElement>(next ? `#s-${next}` : '[data-focus]')?.focus();
  }

  /** The voucher field, on the visitor's asking (most have none), with the focus in it. */
  #openVoucher = async () => {
    this._voucher = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#voucher')?.focus();
  };

  #applyVoucher = (event: Event) => {
    event.preventDefault();
    const code = new FormData(event.target as HTMLFormElement).get('voucher') as string;
    // As a code is written (letters, digits, hyphens): one copied with a space or a "!" is checked as
    // such (the service refused the whole cart for it, and showed no prices until it was cleared).
    this.#cart.set({ voucher: code.replace(/[^a-z\d-]/gi, '').slice(0, 40) || undefined });
  };

  #next = async () => {
    try {
      await (await this.#loadSteps()).open();
      Object.assign(this, { _step: 'details', _notice: '' });
    } catch (error) {
      // The steps' code could not come (the connection dropped): said above the cart; Continue tries again.
      this._notice = toApiError(error, this.resolvedLocale).shown;
    }
  };

  protected override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('classes') && this.data) this.#adopt();
    // Its answer to the page bus follows its state (it knows its company once ready, and a checkout
    // that failed takes no classes).
    if (changed.has('loadState')) this.#changedOnPage();
    super.willUpdate(changed);
  }

  // Put on the page or taken off it (its cart answers only while it is on it).
  override connectedCallback() {
    super.connectedCallback();
    this.#changedOnPage();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.#changedOnPage();
  }

  /** Its answer to `service-checkout-find` may have changed: the widgets that asked before ask again. */
  #changedOnPage() {
    const { baseUrl, company } = this.#cart;
    dispatchEvent(new CustomEvent<PageScope>('service-checkout-change', { detail: { baseUrl, company } }));
  }
}

define('service-checkout', ServiceCheckout);

declare global {
  interface HTMLElementTagNameMap {
    'service-checkout': ServiceCheckout;
  }
}
