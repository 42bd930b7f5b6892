/**
 * What the embed promises on the page itself, in the browser's own types: `window.ServiceWidgets`,
 * the handshake between a loader and a widget element, and the page bus, the window events by which
 * the widgets on a page share their state and signals (even widgets of two copies of the package,
 * or inside a host's shadow root).
 * (The Node side of the project never sees a DOM type: tsconfig.node.json leaves this file out.)
 */
import type { Class, Participant } from './api/index.ts';
import type { CheckoutCompletedDetail, ErrorCode, RegistrationCreatedDetail } from './index.ts';

/** A row of `ServiceWidgets.diagnose()`: one placeholder. */
export interface DiagnoseRow {
  type: string;
  version: string;
  state: string;
  error: string;
  element: HTMLElement;
}

/** `window.ServiceWidgets`, shared by both loaders (docs/embedding.md). */
export interface ServiceWidgets {
  /** The loader versions on the page (`['v1', 'v2']`). */
  versions: string[];
  /** Finds and mounts the placeholders under `root` (default: the document). */
  scan(root?: ParentNode): void;
  /** Mounts one placeholder (never twice). */
  mount(div: HTMLElement): void;
  /**
   * Prints a table of the placeholders in the document and resolves with its rows (a chunk of the
   * loader's messages is fetched for it).
   */
  diagnose(): Promise<DiagnoseRow[]>;
  /**
   * The widgets' first requests, started by the loader, by URL (query sorted): a widget takes its
   * answer (widgets/shared/api.ts); not public API.
   */
  _first?: Record<string, Promise<Response>>;
  /** How a loader registers its version with the first loader's machinery; not public API. */
  _add(version: number, handler: unknown): void;
}

// The element handshake: what a loader (or a page that mounts widgets itself) may rely on of every
// widget element, and all it relies on. The loader sets the element's attributes, hands it the
// space reserved for it, and reads each outcome of its load from `service-state`; it reads nothing
// else of the element.

/** The state of a widget's data load: `loading` (its space reserved), then `ready` or `error`. */
export type WidgetLoadState = 'loading' | 'ready' | 'error';

/**
 * `detail` of `service-state`, which a widget element fires on itself (not bubbling) at each outcome
 * of its load (the first, a retry's, a new key's …): the loader sets the placeholder's
 * `data-service-state` and `-error` from it and fires `service-widget-ready` or `-error`.
 */
export interface WidgetOutcome {
  state: Exclude<WidgetLoadState, 'loading'>;
  /** On error: the contract's code (`invalid-key`, `network` …). */
  code?: ErrorCode;
  /** On error: what is wrong and how to fix it, for the site owner (the service's words). */
  message?: string;
}

/**
 * A widget element (`service-<type>`), as the loader and a page may use it. Its options are its
 * observed attributes (`customElements.get(tag).observedAttributes`), the only attributes the
 * loader forwards from the placeholder.
 *
 * The space reserved for the widget's first view (docs/architecture.md, "No layout shift") is its
 * own `min-height`: the loader sets it to `inherit` (the div's min-height: the loader's reservation,
 * or the owner's own, as it changes), and a page without the loader may give the element one. A
 * widget fits its first view to its host's min-height, and never looks at its parent.
 */
export interface WidgetElement extends HTMLElement {
  /** The public widget key (`key`; `data-service-id` on a placeholder). */
  key: string;
  /** The service's base URL (`base-url`): the loader sets it from its own URL. */
  baseUrl: string;
  /** `en` or `de` (`locale`; `data-service-locale` on a placeholder). */
  locale: string;
  /** The state of its data load. */
  readonly loadState: WidgetLoadState;
  /** On error: the contract's code, as `service-state` said it. */
  readonly errorCode?: ErrorCode;
  /** On error: the site owner's line, as `service-state` said it. */
  readonly errorMessage?: string;
  /** Loads again (what the widget's retry button does); resolves when settled. */
  reload(): Promise<void>;
}

/** A widget's class, as `customElements.get('service-<type>')` answers it. */
export interface WidgetClass {
  new (): WidgetElement;
  /** Its public attributes (Lit's, from its reactive properties). */
  readonly observedAttributes: string[];
}

// The page bus: window events, each about one service (its base URL) and company; a widget of
// another service or company lets it pass. State is kept in `sessionStorage` under
// `<kind>:<base URL>:<company>`, so that a reload, or another page of the site in the same tab,
// finds it; `service-<kind>-change` says it changed. A request is cancelable: the widget that offers
// what is asked answers with `preventDefault()`, so that the asker knows it is there.

/** What every event of the page bus is about. */
export interface PageScope {
  /** The service's base URL. */
  baseUrl: string;
  /** The company of the widget keys. */
  company: string;
}

/** The participant's sign-in, one for the page (the profile widget writes it, every widget reads it). */
export interface Session {
  token: string;
  participant?: Participant;
}

/** A class in the cart: its seats, and what the cart shows of it before the quote (unknown for a class given by id only). */
export interface CartLine extends Partial<Pick<Class, 'starts_at' | 'ends_at' | 'timezone' | 'location' | 'price'>> {
  class_id: string;
  course_id?: string;
  course_title?: string;
  seats: number;
}

/** The page's cart: the calendar and the registration widget put classes in, the checkout orders them. */
export interface Cart {
  lines: CartLine[];
  /** The voucher code the visitor entered. */
  voucher?: string;
  /** An order waiting for its payment on the provider's page: read back when the visitor returns. */
  order?: { id: string; token: string };
  /** What the visitor typed into the checkout's details before leaving for the provider's page. */
  details?: Record<string, string | boolean>;
  /** The classes a checkout's options (`data-service-class`) put in once: removed or bought, they stay out. */
  offered?: string[];
}

/** `service-session-change`: the page's sign-in changed (`session` undefined: signed out). */
export interface SessionChange extends PageScope {
  session?: Session;
}

/** `service-cart-change`: the page's cart changed (`cart` undefined: emptied). */
export interface CartChange extends PageScope {
  cart?: Cart;
}

/**
 * A request of the page bus (cancelable): `service-session-sign-in` asks whether a widget on the
 * page offers the participant's sign-in (the profile), `service-checkout-find` whether a checkout
 * is on the page and has not failed. The one that is there answers with `preventDefault()`; with
 * `show`, it also shows itself with the focus in it (the sign-in's field, the cart's heading).
 */
export interface PageRequest extends PageScope {
  show: boolean;
  /**
   * With `show` on `service-session-sign-in`: the email the visitor just gave (a registration's, an
   * order's buyer's), for the sign-in's field, which the answering widget fills if it is empty.
   */
  email?: string;
}

declare global {
  interface HTMLElementEventMap {
    /** A widget element's outcome, for its loader (the handshake above). */
    'service-state': CustomEvent<WidgetOutcome>;
  }

  interface WindowEventMap {
    'service-session-change': CustomEvent<SessionChange>;
    'service-cart-change': CustomEvent<CartChange>;
    'service-session-sign-in': CustomEvent<PageRequest>;
    'service-checkout-find': CustomEvent<PageRequest>;
    /**
     * A checkout came, went, or failed: whoever asked `service-checkout-find` asks again. A checkout
     * fires it whenever its answer may change: the askers keep the answer until then (a page of many
     * widgets asks for every class it draws).
     */
    'service-checkout-change': CustomEvent<PageScope>;
    // Widgets' own events (bubbling and composed, contract/events.ts) that other widgets hear on the window.
    'service-checkout-completed': CustomEvent<CheckoutCompletedDetail>;
    'service-registration-created': CustomEvent<RegistrationCreatedDetail>;
  }

  interface CustomElementRegistry {
    get(name: `service-${string}`): WidgetClass | undefined;
  }

  interface Window {
    ServiceWidgets?: ServiceWidgets;
  }
}
