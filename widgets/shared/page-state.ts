/**
 * Page-wide state: what every widget on a page shares, kept in `sessionStorage` per service (its base
 * URL) and company (it survives a reload and dies with the tab), and announced by one window event
 * per kind (`service-<kind>-change`), so that widgets from two copies of the package on one page
 * still agree. The participant's sign-in (session.ts) and the checkout's cart (cart.ts) are such
 * states; a widget adds one as a controller in one line. With them go the page bus's requests
 * (contract/page.ts): a widget asks whether another offers something (the sign-in, a checkout), and
 * the one that offers it answers.
 */
import type { ReactiveController } from 'lit';
import type { PageRequest } from '../../contract/page.ts';
import type { ServiceElement } from './base.ts';

// Storage may be blocked (privacy settings) or damaged: then there is nothing to share, and the
// widget keeps what it has in memory.
export const read = (key: string) => {
  try {
    return sessionStorage.getItem(`service-widgets:${key}`);
  } catch {
    return null;
  }
};
export const store = (key: string, value?: string) => {
  try {
    if (value) sessionStorage.setItem(`service-widgets:${key}`, value);
    else sessionStorage.removeItem(`service-widgets:${key}`);
  } catch {
    // See read().
  }
};

/** Page-wide state of a kind (`session`, `cart`) for a service (its base URL) and company, if any. */
export const readState = <T>(kind: string, baseUrl: string, company: string): T | undefined => {
  try {
    return JSON.parse(read(`${kind}:${baseUrl}:${company}`) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
};

/**
 * Stores (or, with `undefined`, clears) page-wide state and tells every widget on the page: the
 * window event `service-<kind>-change` with `{ baseUrl, company, <kind> }`.
 */
export const writeState = (kind: string, baseUrl: string, company: string, value?: unknown) => {
  store(`${kind}:${baseUrl}:${company}`, value ? JSON.stringify(value) : undefined);
  dispatchEvent(new CustomEvent(`service-${kind}-change`, { detail: { baseUrl, company, [kind]: value } }));
};

export type Host = ServiceElement<{ widget: { company: { id: string } } }>;

/**
 * Page-wide state of a kind for the host's service and company, as a controller: `value` reads it,
 * `write()` changes it, and the host updates when it changes anywhere on the page (`changed` hears
 * each change first). The participant's sign-in and the checkout's cart are two such states.
 *
 * With each kind goes a request of the page bus (`service-session-sign-in`, `service-checkout-find`):
 * a host that offers what it asks for passes `answer`, which, asked for its service and company, says
 * whether it offers it now and, with `show`, shows it.
 */
export class PageState<T, Change = unknown> implements ReactiveController {
  #kind: string;
  #request: string;
  #changed: (change: Change) => void;
  #answer?: (show: boolean, request: PageRequest) => boolean;

  constructor(
    protected readonly host: Host,
    kind: string,
    request: string,
    changed: (change: Change) => void = () => {},
    answer?: (show: boolean, request: PageRequest) => boolean,
  ) {
    this.#kind = kind;
    this.#request = request;
    this.#changed = changed;
    this.#answer = answer;
    host.addController(this);
  }

  /** The service's base URL, as the widgets name it in storage. */
  get baseUrl() {
    return this.host.baseUrl || location.origin;
  }

  /** The company of the host's data. */
  get company(): string {
    return this.host.data?.widget.company.id ?? '';
  }

  get value() {
    return readState<T>(this.#kind, this.baseUrl, this.company);
  }

  /** Stores (or, with `undefined`, clears) the state and tells every widget on the page. */
  write(value?: T, company = this.company) {
    writeState(this.#kind, this.baseUrl, company, value);
  }

  // The controller is its own listener (`handleEvent`), for its state's changes and its request alike.
  hostConnected() {
    addEventListener(`service-${this.#kind}-change`, this);
    addEventListener(this.#request, this);
  }

  hostDisconnected() {
    removeEventListener(`service-${this.#kind}-change`, this);
    removeEventListener(this.#request, this);
  }

  /**
   * For this service and company: the request (cancelable), which the host answers if it offers what
   * it asks for; or a change (of the state, or another signal of the page bus), which updates the host.
   */
  handleEvent(event: CustomEvent<PageRequest>) {
    const { baseUrl, company, show } = event.detail;
    if (baseUrl !== this.baseUrl || company !== this.company) return;
    if (!event.cancelable) {
      this.#changed(event.detail as Change);
      this.host.requestUpdate();
    } else if (this.#answer?.(show, event.detail)) event.preventDefault();
  }
}
