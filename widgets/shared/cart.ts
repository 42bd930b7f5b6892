/**
 * The page's cart, one for the whole page like the participant's sign-in (page-state.ts): the calendar
 * and the registration widget put classes into it, the checkout orders them. It is kept in
 * `sessionStorage` per service and company (it survives a reload and dies with the tab), and every
 * change is announced by the window event `service-cart-change`, so that two copies of the package
 * on one page agree. A line holds what the cart shows before the service's quote comes; prices,
 * discounts and totals always come from the quote, never from here.
 */
import type { Cart, CartLine } from '../../contract/page.ts';
import { PageState } from './page-state.ts';

export type { Cart, CartLine };

/**
 * The cart of the host's service and company; the host updates when it changes anywhere on the page.
 * The checkout, which orders it, passes `checkout`: asked by the page bus whether a checkout of this
 * cart is on the page (`service-checkout-find`), it says whether it takes classes now and, with
 * `show`, takes the focus.
 */
export class CartController extends PageState<Cart> {
  constructor(host: ConstructorParameters<typeof PageState>[0], changed?: () => void, checkout?: (show: boolean) => boolean) {
    super(host, 'cart', 'service-checkout-find', changed, checkout);
  }

  get cart(): Cart {
    return this.value ?? { lines: [] };
  }

  get lines() {
    return this.cart.lines;
  }

  has(classId: string) {
    return this.lines.some((line) => line.class_id === classId);
  }

  /** Puts a class into the cart (one seat), unless it is there already. */
  add(line: Omit<CartLine, 'seats'>) {
    if (!this.has(line.class_id)) this.#lines([...this.lines, { ...line, seats: 1 }]);
  }

  /**
   * Puts in the classes a page offers (a checkout's `data-service-class`), each once in the tab's
   * session: one the visitor removed or bought does not come back on a reload.
   */
  offer(classIds: string[]) {
    const offered = this.cart.offered ?? [];
    const fresh = classIds.filter((id) => !offered.includes(id));
    if (!fresh.length) return;
    // One in the cart already (booked in the calendar that linked here) is offered too: removed, it
    // stays out on a reload of the page that offers it.
    this.write({
      ...this.cart,
      lines: [...this.lines, ...fresh.filter((id) => !this.has(id)).map((class_id) => ({ class_id, seats: 1 }))],
      offered: [...offered, ...fresh],
    });
  }

  /** Sets a line's seats (0 removes it). */
  seats(classId: string, seats: number) {
    this.#lines(this.lines.flatMap((line) => (line.class_id !== classId ? [line] : seats > 0 ? [{ ...line, seats }] : [])));
  }

  /** Changes the cart's voucher code or the order that waits for its payment. */
  set(change: Pick<Cart, 'voucher' | 'order' | 'details'>) {
    this.write({ ...this.cart, ...change });
  }

  /** Empties the cart (an order was placed); the classes the page offered stay out. */
  clear() {
    this.write(this.cart.offered ? { lines: [], offered: this.cart.offered } : undefined);
  }

  #lines(lines: CartLine[]) {
    this.write({ ...this.cart, lines });
  }
}
