/**
 * Whether a checkout is on the page: the widgets that book ask it of every class they draw. A module
 * of its own (a chunk of the widgets that book), so that the others' first renders do not carry it.
 */
import type { PageRequest } from '../../contract/page.ts';

/**
 * The page's answers to `service-checkout-find`, by service and company, until a checkout comes, goes
 * or changes (`service-checkout-change`): every class a booking widget draws asks, and a page of many
 * widgets would ask thousands of times. The change is heard first, by a listener added as this module
 * is evaluated, before any widget that imports it is defined: a window calls its listeners in the
 * order they were added (capturing or not), and one added at the first question
 * came after the widget's own, which asked again and got the answer from before the change.
 */
let found: Record<string, boolean> = {};
addEventListener('service-checkout-change', () => (found = {}));

/**
 * Asks the page bus (contract/page.ts) whether a checkout of this service and company is on the page
 * and takes classes, whatever copy of the package drew it and wherever it stands; with `show`, it
 * takes the focus. The widgets that book (registration, calendar, map) then offer "Add to cart".
 */
export const findCheckout = (baseUrl: string, company: string | undefined, show = false) => {
  if (!company) return false;
  const detail = { baseUrl: baseUrl || location.origin, company, show };
  const id = detail.baseUrl + ' ' + company;
  return !show && id in found
    ? found[id]!
    : (found[id] = !dispatchEvent(new CustomEvent<PageRequest>('service-checkout-find', { cancelable: true, detail })));
};
