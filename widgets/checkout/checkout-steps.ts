/**
 * The checkout's steps after the cart: the attendees, the buyer with the billing address, the
 * payment method and the order; then the confirmation. A chunk of its own, fetched while the visitor
 * reads the cart. What the visitor typed is kept in the page's cart while they pay on the provider's
 * page, so that a cancelled payment does not ask for it again.
 */
import { html, nothing, type ReactiveController } from 'lit';
import { termsUrl } from '../../contract/terms.ts';
import { COUNTRIES } from '../../contract/countries.ts';
import type { CheckoutCompletedDetail } from '../../contract/index.ts';
import type { Order, OrderReadResponse, OrderRequest, OrderResponse, QuoteResponse, Widget } from '../../contract/api/index.ts';
import { ApiError } from '../shared/api.ts';
import { ServiceEvent, toApiError, type ChunkHost } from '../shared/base.ts';
import type { CartController } from '../shared/cart.ts';
import { askSignIn, doneStyles } from '../shared/done.ts';
import type { FirstView } from '../shared/first-view.ts';
import { consent, field, formDescribedBy, formError, FormState, formStyles, formWords, input } from '../shared/form.ts';
import { formatDateRange, formatMoney } from '../shared/format.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import { SessionController } from '../shared/session.ts';
import type { CheckoutData, Totals } from './checkout.ts';
import { stepsStyles } from './checkout-steps.styles.ts';

/** Fired when an order is placed (and paid, where it is paid on the provider's page). */
export class CheckoutCompletedEvent extends ServiceEvent<CheckoutCompletedDetail> {
  constructor(detail: CheckoutCompletedDetail) {
    super('service-checkout-completed', detail);
  }
}

/** The steps' words; German is in checkout-steps.de.ts. */
export const en = {
  ...formWords,
  back: 'Back to the cart',
  heading: 'Your details',
  attendees: 'Who attends {course}?',
  attendee: 'Attendee {n}',
  first_name: 'First name',
  last_name: 'Last name',
  buyer: 'Buyer',
  email: 'Email',
  phone: 'Phone (optional)',
  organisation: 'Organisation (optional)',
  address: 'Billing address',
  line1: 'Street and number',
  line2: 'Address line 2 (optional)',
  postal_code: 'Postal code',
  city: 'City',
  country: 'Country',
  chooseCountry: 'Choose…',
  payment: 'Payment',
  invoice: 'Invoice',
  on_site: 'Pay on site',
  card: 'Card, on our payment provider’s secure page',
  consent: 'I agree that {company} stores my details to handle this order.',
  consentTerms: 'I agree to the {terms} of {company} and that it stores my details to handle this order.',
  terms: 'terms and conditions',
  newTab: '(opens in a new tab)',
  order: 'Place order · {total}',
  pay: 'Continue to payment · {total}',
  orderFree: 'Place free order',
  freeNote: 'Nothing to pay: we need only your name and email, and the seats are booked in your name.',
  sending: 'Sending…',
  classFull:
    'Some classes filled up while you were ordering, and nothing was booked. Change their seats or remove them, then order again.',
  priceChanged: 'The prices have changed, and nothing was booked. Check the new total, then order again.',
  voucherRefused: 'Your voucher can no longer be used, and nothing was booked. Check the new total, then order again.',
  thanks: 'Thank you! Your order {number} is placed.',
  sent: 'We have sent the confirmation to {email}.',
  due_invoice: 'You will receive an invoice for {total} by email.',
  due_on_site: 'Please pay {total} at the venue, before the class starts.',
  paid: 'Paid by card: {total}.',
  none: 'Nothing to pay.',
  seatsFor: '{count} seats: {names}',
  'seatsFor.one': '1 seat: {names}',
  ics: 'Add to calendar',
  manage: 'To change or cancel the order, contact {company} and quote {number}.',
  account: 'See it in your account',
  cancelled: 'The payment was cancelled and nothing was charged. Your cart is kept: try again or choose another way to pay.',
  unpaid: 'Your payment is not complete yet.',
  toPayment: 'Continue to payment',
  whole: 'Show the whole order',
  changeOrder: 'Cancel this payment and change the order',
  lost: 'We could not find the order you came back from. Your cart is kept: order again, or look for our confirmation email if you paid.',
};

const t = translator(en, { de: () => import('./checkout-steps.de.ts') });

/** The countries, named in the locale and in its order: made once per locale (the form renders on every keystroke). */
const countryNames: Partial<Record<Locale, [string, string][]>> = {};
const countries = (locale: Locale) =>
  (countryNames[locale] ??= COUNTRIES.map((code): [string, string] => [
    code,
    new Intl.DisplayNames(locale, { type: 'region' }).of(code)!,
  ]).sort((a, b) => a[1].localeCompare(b[1], locale)));

/**
 * The consent the buyer ticks: the storing of their details, and the company's terms where its
 * widget names them (`options.terms`, an https address the service checked), a link to them that
 * opens beside the checkout (the form stays as filled in).
 */
const consentLabel = (locale: Locale, { company, options }: Widget) => {
  const terms = termsUrl(options.terms);
  if (!terms) return t(locale, 'consent', { company: company.name });
  const [before, after] = t(locale, 'consentTerms', { company: company.name, terms: '\u0000' }).split('\u0000');
  return html`${before}<a class="link" href=${terms.href} target="_blank" rel="noopener noreferrer"
      >${t(locale, 'terms')}<span class="visually-hidden"> ${t(locale, 'newTab')}</span></a
    >${after}`;
};

/**
 * The field of an attendee's name, named after the class (not the line's place in the cart), so
 * that the names stay with their class when another line is removed.
 */
const attendee = (classId: string, seat: number, part: 'first_name' | 'last_name') => `attendee.${classId}.${seat}.${part}`;

/** What the steps need of the checkout widget (and nothing else of it). */
export interface StepsHost extends ChunkHost<CheckoutData> {
  /** The page's cart, which the widget shows and prices. */
  cart: CartController;
  /** The widget's first view: the confirmation may be it (back from the provider's page). */
  view: FirstView;
  /** The service's quote of the cart, which the details are shown with. */
  quote(): QuoteResponse;
  /** What a cart or an order costs, as the cart shows it, its discount named by `code`. */
  totals(o: Totals, code?: string | null): unknown;
  /** Says a line above the cart: what became of the order the visitor came back from. */
  notice(line: unknown): void;
  /** The order is placed: the confirmation shows. */
  done(): void;
  /** Back to the cart, with a line that says why; resolves once it is priced again. */
  showCart(notice?: string): Promise<unknown>;
}

/** The details form and the order, then the confirmation; the cart stays the widget's. */
export class CheckoutSteps {
  #form: FormState;
  #session: SessionController;
  #order?: Order;

  constructor(private readonly host: StepsHost) {
    const { element } = host;
    this.#form = new FormState(element, (key) => t(element.resolvedLocale, key));
    this.#session = new SessionController(element);
    const root = element.shadowRoot!;
    root.adoptedStyleSheets = [
      ...root.adoptedStyleSheets,
      formStyles.styleSheet!,
      doneStyles.styleSheet!,
      stepsStyles.styleSheet!,
    ];
  }

  /** The widget's language. */
  get #locale() {
    return this.host.element.resolvedLocale;
  }

  /** Opens the details: the words loaded, a signed-in participant's details in an untouched form. */
  async open() {
    await t.load(this.#locale);
    const form = this.#form;
    form.message = '';
    // Back from the provider's page (a cancelled payment): what was typed before is there again.
    const kept = this.host.cart.cart.details;
    if (kept && !Object.keys(form.values).length) form.reset(kept);
    const who = this.#session.session?.participant;
    if (who && !form.values['buyer.email'])
      form.reset({
        ...form.values,
        'buyer.first_name': who.first_name,
        'buyer.last_name': who.last_name,
        'buyer.email': who.email,
        'buyer.phone': who.phone ?? '',
      });
  }

  /**
   * The step's view. The confirmation may be the widget's first view (back from the provider's page):
   * held to the reserved space then, the order's details giving way, the rest on asking.
   */
  render(step: string) {
    return step === 'done' ? this.host.view.render(this.#renderDone()) : this.#renderDetails();
  }

  #renderDetails() {
    const { host } = this;
    const locale = this.#locale;
    const form = this.#form;
    const quote = host.quote();
    const total = formatMoney(locale, quote.total);
    const methods = quote.payment_methods;
    const method = (form.values.payment_method as string) || methods[0]?.id;
    // A free order asks only for the buyer: no billing address, and its seats are theirs.
    const free = !quote.total.amount;
    const text = (name: string, label: string, autocomplete = 'off', options = {}) =>
      input(form, name, label, { autocomplete, ...options });
    const optional = { required: false };
    return html`<p><button class="link" @click=${() => host.showCart()}>← ${t(locale, 'back')}</button></p>
      <h2 tabindex="-1" data-focus>${t(locale, 'heading')}</h2>
      <form novalidate @submit=${this.#submit} @input=${form.edit} aria-describedby=${formDescribedBy(form)}>
        ${free ? html`<p class="notice">${t(locale, 'freeNote')}</p>` : nothing}
        ${(free ? [] : host.cart.lines).map(
          (line) =>
            html`<fieldset>
              <legend>
                ${t(locale, 'attendees', {
                  course:
                    quote.items.find((q) => q.class_id === line.class_id)?.course_title ?? line.course_title ?? line.class_id,
                })}
              </legend>
              ${Array.from(
                { length: line.seats },
                (_, j) =>
                  html`<div class="row" role="group" aria-label=${t(locale, 'attendee', { n: j + 1 })}>
                    ${text(attendee(line.class_id, j, 'first_name'), `${t(locale, 'attendee', { n: j + 1 })}: ${t(locale, 'first_name')}`)}
                    ${text(attendee(line.class_id, j, 'last_name'), t(locale, 'last_name'))}
                  </div>`,
              )}
            </fieldset>`,
        )}
        <fieldset>
          <legend>${t(locale, 'buyer')}</legend>
          <div class="row">
            ${text('buyer.first_name', t(locale, 'first_name'), 'given-name')} ${text('buyer.last_name', t(locale, 'last_name'), 'family-name')}
          </div>
          <div class="row">
            ${text('buyer.email', t(locale, 'email'), 'email', { type: 'email' })}
            ${text('buyer.phone', t(locale, 'phone'), 'tel', { type: 'tel', ...optional })}
          </div>
          ${text('buyer.organisation', t(locale, 'organisation'), 'organization', { ...optional })}
        </fieldset>
        <fieldset ?disabled=${free} ?hidden=${free}>
          <legend>${t(locale, 'address')}</legend>
          ${text('buyer.address.line1', t(locale, 'line1'), 'address-line1')}
          ${text('buyer.address.line2', t(locale, 'line2'), 'address-line2', { ...optional })}
          <div class="row">
            ${text('buyer.address.postal_code', t(locale, 'postal_code'), 'postal-code')}
            ${text('buyer.address.city', t(locale, 'city'), 'address-level2')}
          </div>
          ${field(
            form,
            'buyer.address.country',
            t(locale, 'country'),
            ({ invalid, describedBy }) =>
              html`<select
                id="buyer.address.country"
                name="buyer.address.country"
                autocomplete="country"
                required
                aria-invalid=${invalid}
                aria-describedby=${describedBy}
              >
                <option value="">${t(locale, 'chooseCountry')}</option>
                ${countries(locale).map(
                  ([code, name]) =>
                    html`<option value=${code} ?selected=${form.values['buyer.address.country'] === code}>${name}</option>`,
                )}
              </select>`,
          )}
        </fieldset>
        ${
          methods.length
            ? html`<fieldset class="methods">
                <legend>${t(locale, 'payment')}</legend>
                ${methods.map(
                  ({ id, label }) =>
                    html`<div class="consent">
                      <input type="radio" id="pm-${id}" name="payment_method" value=${id} .checked=${id === method} />
                      <label for="pm-${id}">${id in en ? t(locale, id as 'invoice') : label}</label>
                    </div>`,
                )}
              </fieldset>`
            : nothing
        }
        ${consent(form, consentLabel(locale, host.element.data!.widget))} ${formError(form)}
        <button part="button" ?disabled=${form.sending}>
          ${
            form.sending
              ? t(locale, 'sending')
              : t(locale, free ? 'orderFree' : methods.find((m) => m.id === method)?.kind === 'redirect' ? 'pay' : 'order', {
                  total,
                })
          }
        </button>
      </form>`;
  }

  #submit = async (event: Event) => {
    const { host } = this;
    const locale = this.#locale;
    const form = this.#form;
    if (!form.check(event)) return;
    const quote = host.quote();
    const { lines, voucher } = host.cart.cart;
    const value = (name: string) => ((form.values[name] as string | undefined) ?? '').trim();
    // Optional text left empty is left out (the service refuses an empty one).
    const given = (name: string) => value(name) || undefined;
    // A free order sends neither names nor an address: its seats are the buyer's.
    const free = !quote.total.amount;
    const body: OrderRequest = {
      items: lines.map(({ class_id, seats }) => ({
        class_id,
        seats,
        attendees: free
          ? undefined
          : Array.from({ length: seats }, (_, j) => ({
              first_name: value(attendee(class_id, j, 'first_name')),
              last_name: value(attendee(class_id, j, 'last_name')),
            })),
      })),
      buyer: {
        first_name: value('buyer.first_name'),
        last_name: value('buyer.last_name'),
        email: value('buyer.email'),
        phone: given('buyer.phone'),
        organisation: given('buyer.organisation'),
        address: free
          ? undefined
          : {
              line1: value('buyer.address.line1'),
              line2: given('buyer.address.line2'),
              postal_code: value('buyer.address.postal_code'),
              city: value('buyer.address.city'),
              country: (form.values['buyer.address.country'] as string) ?? '',
            },
      },
      // Only a voucher the quote applied: one it refused or did not check is no part of the order the visitor saw.
      voucher: quote.voucher?.status === 'applied' ? (voucher ?? null) : null,
      payment_method: quote.payment_methods.length
        ? (form.values.payment_method as string) || quote.payment_methods[0]!.id
        : null,
      expected_total: quote.total,
      return_url: location.href.split('#')[0],
      consent: !!form.values.consent as true,
    };
    const answer = await form.send(
      () => form.write<OrderResponse>(host.api(), 'orders', body),
      (error) => {
        // The service names an attendee by the line's place in the order; the form by its class.
        form.errors = Object.fromEntries(
          Object.entries(error.fields).map(([name, message]) => {
            const [, i, rest] = /^items\.(\d+)\.attendees\.(.+)$/.exec(name) ?? [];
            const line = i === undefined ? undefined : lines[Number(i)];
            return [line ? `attendee.${line.class_id}.${rest}` : name, message];
          }),
        );
        // The cart changed under the visitor (seats taken, prices, a voucher used up or expired meanwhile):
        // back to it, where the quote shows what and why.
        const changed = error.fields.voucher
          ? 'voucherRefused'
          : error.code === 'class-full'
            ? 'classFull'
            : error.code === 'price-changed' && 'priceChanged';
        if (changed) {
          host.showCart(t(locale, changed));
          return ' ';
        }
        // Faults of what is not in this form (the voucher, a class) are said above the button.
        const elsewhere = Object.entries(form.errors).filter(
          ([name]) => !host.element.renderRoot.querySelector(`[name="${name}"]`),
        );
        if (elsewhere.length) return elsewhere.map(([, message]) => message).join(' ');
      },
    );
    if (!answer) return;
    const { order, token } = answer;
    if (order.status === 'pending_payment') {
      // Paid on the provider's page; the widget reads the order back when the visitor returns.
      host.cart.set({ order: { id: order.id, token }, details: this.#form.values });
      location.assign(order.payment.redirect_url!);
      return;
    }
    this.#done(order);
  };

  /**
   * Reads back the order the visitor left for the provider's page: paid, it is confirmed; cancelled
   * there (or expired), the cart stays with a line that says so; not paid yet, a way back to paying
   * and a way to cancel it and change the cart (its seats are held for it meanwhile). An order the
   * service does not know (its data was reset, a token from elsewhere) is let go: the cart stays.
   */
  async pickUp(waiting: { id: string; token: string }) {
    const { host } = this;
    let order: Order;
    try {
      [{ order }] = (await Promise.all([
        host.api().request(`orders/${encodeURIComponent(waiting.id)}`, { headers: { 'X-Order-Token': waiting.token } }),
        t.load(this.#locale),
      ])) as [OrderReadResponse, void];
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      host.cart.set({ order: undefined });
      host.notice(t(this.#locale, 'lost'));
      return this.#arrive();
    }
    const locale = this.#locale;
    if (order.status === 'confirmed') return this.#done(order, true);
    if (order.status === 'cancelled') {
      host.cart.set({ order: undefined });
      host.notice(t(locale, 'cancelled'));
    } else {
      host.notice(this.#unpaid(waiting, order.payment.redirect_url!));
    }
    // (Its line, under the cart's heading, said nothing to the keyboard: the focus was at the page's top.)
    this.#arrive();
  }

  /** Back from the provider's page, the page opened at its top: the widget brought into view once it shows, the focus on its heading. */
  #arrive() {
    const { element } = this.host;
    const arrived: ReactiveController = {
      hostUpdated() {
        if (element.loadState !== 'ready') return;
        element.removeController(arrived);
        element.scrollIntoView({ block: 'start' });
        element.renderRoot.querySelector<HTMLElement>('[data-focus]')?.focus({ preventScroll: true });
      },
    };
    element.addController(arrived);
  }

  /** The order waits for its payment: a way back to paying, and a way to cancel it; `failed` says why the last cancel did not. */
  #unpaid(waiting: { id: string; token: string }, payUrl: string, failed?: string) {
    const locale = this.#locale;
    return html`${failed ? html`${failed} ` : nothing}${t(locale, 'unpaid')}
      <a class="link" href=${payUrl}>${t(locale, 'toPayment')}</a>
      <button class="link" @click=${() => this.#cancel(waiting, payUrl)}>${t(locale, 'changeOrder')}</button>`;
  }

  /** The visitor gives up the payment they left: the order is cancelled, its seats free for the cart. */
  async #cancel(waiting: { id: string; token: string }, payUrl: string) {
    const { host } = this;
    const locale = this.#locale;
    try {
      await host.api().request(`orders/${encodeURIComponent(waiting.id)}/cancel`, {
        body: {},
        headers: { 'X-Order-Token': waiting.token },
      });
    } catch (error) {
      // Confirmed meanwhile (paid in another tab): read it back; unknown: let it go.
      if (error instanceof ApiError && error.code === 'not-pending') return this.pickUp(waiting);
      if (!(error instanceof ApiError) || error.status !== 401) {
        host.notice(this.#unpaid(waiting, payUrl, toApiError(error, locale).shown));
        return;
      }
    }
    host.cart.set({ order: undefined });
    await host.showCart(t(locale, 'cancelled'));
  }

  /**
   * The order is placed (and paid): the confirmation shows, the cart empties and the page is told.
   * `back` from the provider's page, the page opened at its top: the confirmation is the widget's
   * first view, brought into view with the focus on its heading once it shows. It shows whole when
   * nothing below the widget is in view (growing then moves nothing the visitor sees); else it is
   * held to the reserved space, the rest on asking.
   */
  #done(order: Order, back?: boolean) {
    const { host } = this;
    const { element } = host;
    this.#order = order;
    this.#form.reset();
    host.cart.clear();
    host.done();
    if (back) {
      // The loader shows the element once it is ready: until then its div holds the space.
      const space = element.hidden ? element.parentElement! : element;
      if (space.getBoundingClientRect().bottom >= innerHeight) host.view.all = true;
      this.#arrive();
    }
    element.dispatchEvent(
      new CheckoutCompletedEvent({
        id: order.id,
        number: order.number,
        items: order.items.map((item) => ({ class: item.class_id, course: item.course_id, seats: item.seats })),
        total: order.total,
      }),
    );
  }

  /**
   * The confirmation: the order's number, how it is paid and where the email went; what was booked
   * (each class, when, where, its seats and for whom, its price) and what it cost with its discount;
   * how to change or cancel it; the calendar file, and the participant's account when the page has one.
   */
  #renderDone() {
    const { host } = this;
    const locale = this.#locale;
    const order = this.#order!;
    const { payment } = order;
    const paid = payment.status === 'paid' ? 'paid' : payment.status === 'none' ? 'none' : `due_${payment.method}`;
    // The number stays whole on a phone (it wraps at its hyphen otherwise).
    const [before, after] = t(locale, 'thanks', { number: '\u0000' }).split('\u0000');
    return html`<div class="done">
      <h2 tabindex="-1" data-focus>${before}<span class="nowrap">${order.number}</span>${after}</h2>
      <p>
        ${paid in en ? html`${t(locale, paid as 'paid', { total: formatMoney(locale, order.total) })} ` : nothing}
        ${t(locale, 'sent', { email: order.buyer.email })}
      </p>
      <div class="fill">
        <ul class="lines">
          ${order.items.map(
            (item) =>
              html`<li class="line">
                <h3>${item.course_title}</h3>
                <p>${formatDateRange(locale, item.starts_at, item.ends_at, item.timezone)} · ${item.location}</p>
                <p class="seats">
                  <bdi>
                    ${t(locale, 'seatsFor', {
                      count: item.seats,
                      // A free order's seats are the buyer's: their name once.
                      names: [...new Set(item.attendees.map((a) => `${a.first_name} ${a.last_name}`))].join(', '),
                    })}
                  </bdi>
                  <span class="amount"
                    >${
                      order.total.amount
                        ? // Before the voucher's share, as the cart's lines (checkout.ts, beforeDiscount: not
                          // imported, which would split the cart's chunk): they add up to the subtotal.
                          formatMoney(locale, { ...item.total, amount: item.total.amount + item.discount.amount })
                        : t(locale, 'free')
                    }</span
                  >
                </p>
              </li>`,
          )}
        </ul>
        ${order.total.amount ? host.totals(order, order.voucher) : nothing}
        <p>${t(locale, 'manage', { company: host.element.data!.widget.company.name, number: order.number })}</p>
      </div>
      <div class="actions">
        <a class="button" href=${order.calendar_url} download>${t(locale, 'ics')}</a>
        ${
          askSignIn(this.#session, false)
            ? html`<button class="secondary" @click=${() => askSignIn(this.#session, true, order.buyer.email)}>${t(locale, 'account')}</button>`
            : nothing
        }
        ${host.view.more(t(locale, 'whole'))}
      </div>
    </div>`;
  }
}
