/**
 * The cart as the widgets that book into it use it (the calendar, the registration widget): with
 * "In your cart" for a class in it. Apart from the cart itself, so that the checkout, which shows the
 * cart its own way, does not carry it in its first render.
 */
import { html, nothing } from 'lit';
import type { Class } from '../../contract/api/index.ts';
import type { PageRequest } from '../../contract/page.ts';
import { siteLink } from '../../contract/links.ts';
import { findCheckout } from './checkout-find.ts';
import { CartController } from './cart.ts';
import type { Locale } from './i18n.ts';

/**
 * The cart's words in the widget's language: "In your cart" and the way to the checkout. They come
 * with this chunk (which only comes on demand), German too, for every widget that books.
 */
const WORDS: Record<Locale, [string, string]> = {
  en: ['In your cart', 'Go to checkout'],
  de: ['Im Warenkorb', 'Zur Kasse'],
};

/** The checkout pages the owner was told of (once each). */
const warned = new Set<string>();

export class BookingCart extends CartController {
  /**
   * Books a class into the cart (one seat), with what the cart shows of it before the quote (a map's
   * class comes without its price: the quote says it); then the focus goes to what the host says of
   * it (`#in-<class>`, below).
   */
  async book(
    {
      id,
      starts_at,
      ends_at,
      timezone,
      location,
      price,
    }: Pick<Class, 'id' | 'starts_at' | 'ends_at' | 'timezone' | 'location'> & Partial<Pick<Class, 'price'>>,
    course_id: string,
    course_title: string,
  ) {
    const { host } = this;
    this.add({ class_id: id, course_id, course_title, starts_at, ends_at, timezone, location, price });
    await host.updateComplete;
    host.renderRoot.querySelector<HTMLElement>(`#in-${id}`)?.focus();
  }

  /**
   * For a widget that books into the cart: "In your cart" for a class in it (its `#in-<class>` takes
   * the focus after booking; `copy`: a second place that shows the class, such as a map's popup,
   * without the id), with a way to the checkout when one of this cart is on the page (it answers the
   * page bus: contract/page.ts), which then takes the focus.
   */
  inCart(classId: string, locale: Locale, copy = false) {
    const [inCart, toCheckout] = WORDS[locale];
    const checkout = (show?: boolean) => findCheckout(this.baseUrl, this.company, show);
    if (!this.has(classId)) return undefined;
    const elsewhere = !checkout() && this.#checkoutPage();
    return html`<p class="in-cart" id=${copy ? nothing : `in-${classId}`} tabindex="-1">
          ✓ ${inCart}
          ${
            elsewhere
              ? html`<a class="link" href=${elsewhere}>${toCheckout}</a>`
              : checkout()
                ? html`<button class="link" @click=${() => checkout(true)}>${toCheckout}</button>`
                : nothing
          }
        </p>`;
  }

  /**
   * The site's checkout page the host names (the calendar's `checkout-url`), for a page without a
   * checkout: a page of this site (contract/links.ts), where the tab's cart is (sessionStorage, per
   * site, service and company). Any other is none, and the site owner is told once in the console:
   * a checkout on another site (`shop.example.com` for a page on `www.example.com`) shows an empty
   * cart.
   */
  #checkoutPage() {
    const { host } = this;
    const value = (host as { checkoutUrl?: string }).checkoutUrl;
    const url = siteLink(value, location.href);
    // The cart's classes go with the link too: a new tab (a middle click) opens the page without the
    // tab's cart, and its checkout takes them from the address (`?service-class=`).
    if (url?.origin === location.origin) {
      url.searchParams.set('service-class', this.lines.map((line) => line.class_id).join());
      return url.href;
    }
    if (value?.trim() && !warned.has(value)) {
      warned.add(value);
      console.warn(
        `[service-widgets] ${host.localName.slice(8)}: checkout-url "${value}" ${
          url ? `is on another site than this page (${location.origin}), where the tab's cart is not` : 'is no web address'
        }: a class booked links to no checkout. Give a page of this site, such as ${location.origin}/checkout or /checkout.`,
      );
    }
    return undefined;
  }

  /** Whether a checkout of this cart was on the page when the host last heard. */
  #checkout?: boolean;

  // A checkout that comes or goes adds or takes away the way to it (and the host's "Add to cart"): the
  // host draws again when the answer changed, not at every checkout's every change (a page of many).
  override handleEvent(event: CustomEvent<PageRequest>) {
    if (event.type !== 'service-checkout-change') return super.handleEvent(event);
    const checkout = findCheckout(this.baseUrl, this.company);
    if (checkout !== this.#checkout) this.host.requestUpdate();
    this.#checkout = checkout;
  }

  override hostConnected() {
    super.hostConnected();
    addEventListener('service-checkout-change', this);
  }

  override hostDisconnected() {
    super.hostDisconnected();
    removeEventListener('service-checkout-change', this);
  }
}
