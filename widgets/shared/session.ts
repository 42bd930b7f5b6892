/**
 * The participant's sign-in, one for the whole page: the profile widget writes it, every widget reads
 * it (a form prefills the participant, a video widget sends the token). The token is kept in
 * `sessionStorage` (never `localStorage`, never a URL), scoped to the service's base URL and the
 * company, and dies with the tab. Widgets hear changes through one window event, so widgets from two
 * copies of the package on one page still agree. A widget adds it in one line:
 * `#session = new SessionController(this)`; the same pattern (PageState) carries the checkout's cart.
 */
import type { ReactiveController } from 'lit';
import type { Participant } from '../../service/schemas.ts';
import type { ServiceElement } from './base.ts';

export type { Participant };

export interface Session {
  token: string;
  participant?: Participant;
}

/** `detail` of the window event `service-session-change`: whose session changed, and to what. */
export interface SessionChange {
  baseUrl: string;
  company: string;
  session?: Session;
}

// Storage may be blocked (privacy settings) or damaged: then there is no sign-in to share, and the
// widget that signed in keeps its token in memory.
const read = (key: string) => {
  try {
    return sessionStorage.getItem(`service-widgets:${key}`);
  } catch {
    return null;
  }
};
const store = (key: string, value?: string) => {
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

/** The page's sign-in with a service (its base URL) and company, if any. */
export const readSession = (baseUrl: string, company: string) => readState<Session>('session', baseUrl, company);

/** Stores (or, with `undefined`, clears) the page's sign-in and tells every widget on the page. */
export const writeSession = (baseUrl: string, company: string, session?: Session) =>
  writeState('session', baseUrl, company, session);

type Host = ServiceElement<{ widget: { company: { id: string } } }>;

/**
 * Page-wide state of a kind for the host's service and company, as a controller: `value` reads it,
 * `write()` changes it, and the host updates when it changes anywhere on the page (`changed` hears
 * each change first). The participant's sign-in and the checkout's cart are two such states.
 */
export class PageState<T, Change = unknown> implements ReactiveController {
  constructor(
    protected readonly host: Host,
    private readonly kind: string,
    private readonly changed: (change: Change) => void = () => {},
  ) {
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
    return readState<T>(this.kind, this.baseUrl, this.company);
  }

  /** Stores (or, with `undefined`, clears) the state and tells every widget on the page. */
  write(value?: T, company = this.company) {
    writeState(this.kind, this.baseUrl, company, value);
  }

  hostConnected() {
    addEventListener(`service-${this.kind}-change`, this.#onChange);
  }

  hostDisconnected() {
    removeEventListener(`service-${this.kind}-change`, this.#onChange);
  }

  #onChange = (event: Event) => {
    const change = (event as CustomEvent).detail;
    if (change.baseUrl !== this.baseUrl || change.company !== this.company) return;
    this.changed(change);
    this.host.requestUpdate();
  };
}

/**
 * The page's sign-in for the host's service and company (the company of the host's data, or the
 * one its key was last seen with, so that a returning visitor's session is found before the first
 * answer).
 */
export class SessionController extends PageState<Session, SessionChange> {
  constructor(host: Host, changed?: (change: SessionChange) => void) {
    super(host, 'session', changed);
  }

  override get company(): string {
    return super.company || read(this.#seen) || '';
  }

  get #seen() {
    return `company:${this.baseUrl}:${this.host.key}`;
  }

  /** The sign-in of the page, if any. */
  get session() {
    return this.value;
  }

  /** `company`: the key's company, when an answer has just named it (it is remembered with the key). */
  override write(session?: Session, company = this.company) {
    store(this.#seen, company);
    super.write(session, company);
  }
}
