/**
 * The cart as the widgets that book into it use it (the calendar, the registration widget): with
 * "In your cart" for a class in it. Apart from the cart itself, so that the checkout, which shows the
 * cart its own way, does not carry it in its first render.
 */
import { html, nothing } from 'lit';
import type { Class } from '../../contract/api/index.ts';
import type { PageRequest } from '../../contract/page.ts';
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
    const elsewhere = !checkout() && this.#checkoutPage();
    return this.has(classId)
      ? html`<p class="in-cart" id=${copy ? nothing : `in-${classId}`} tabindex="-1">
          ✓ ${inCart}
          ${
            elsewhere
              ? html`<a class="link" href=${elsewhere}>${toCheckout}</a>`
              : checkout()
                ? html`<button class="link" @click=${() => checkout(true)}>${toCheckout}</button>`
                : nothing
          }
        </p>`
      : undefined;
  }

  /**
   * The site's checkout page the host names (the calendar's `checkout-url`), for a page without a
   * checkout: an http(s) address, or one relative to the page (any other, `javascript:` among them,
   * is none). The tab's cart goes there with the visitor (sessionStorage, per service and company).
   */
  #checkoutPage() {
    const url = new URL((this.host as { checkoutUrl?: string }).checkoutUrl || 'about:', location.href);
    return /^https?:$/.test(url.protocol) ? url.href : undefined;
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
