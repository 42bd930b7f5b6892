/**
 * The cart as the widgets that book into it use it (the calendar, the registration widget): with
 * "In your cart" for a class in it. Apart from the cart itself, so that the checkout, which shows the
 * cart its own way, does not carry it in its first render.
 */
import { html, nothing } from 'lit';
import { CartController } from './cart.ts';

export class BookingCart extends CartController {
  /**
   * For a widget that books into the cart: "In your cart" for a class in it (its `#in-<class>` takes
   * the focus after booking), with a way to the checkout when one is on the page.
   */
  inCart(classId: string, [inCart, toCheckout]: string[]) {
    const checkout = document.querySelector('service-checkout');
    return this.has(classId)
      ? html`<p class="in-cart" id="in-${classId}" tabindex="-1">
          ✓ ${inCart} ${checkout ? html`<button class="link" @click=${() => checkout.focus()}>${toCheckout}</button>` : nothing}
        </p>`
      : undefined;
  }
}
