/**
 * The participant's sign-in, one for the whole page: the profile widget writes it, every widget reads
 * it (a form prefills the participant, a video widget sends the token). The token is kept in
 * `sessionStorage` (never `localStorage`, never a URL), scoped to the service's base URL and the
 * company, and dies with the tab. Widgets hear changes through one window event, so widgets from two
 * copies of the package on one page still agree. A widget adds it in one line:
 * `#session = new SessionController(this)`; the same pattern will carry the checkout's cart.
 */
import type { ReactiveController } from 'lit';
import type { Participant } from '../../service/schemas.ts';
import type { ServiceElement } from './base.ts';

export type { Participant };

export interface Session {
  token: string;
  participant?: Participant;
}

export const SESSION_EVENT = 'service-session-change';

/** `detail` of the window event: whose session changed, and to what. */
export interface SessionChange {
  baseUrl: string;
  company: string;
  session?: Session;
}

/**
 * A widget that needs the participant (a participants-only video) asks the page's sign-in through a
 * cancelable window event: the widget that offers it (the profile) answers with preventDefault() and,
 * with `show`, shows it. No widget reaches into another.
 */
export const SIGN_IN_EVENT = 'service-session-sign-in';

export interface SignInRequest {
  baseUrl: string;
  company: string;
  show: boolean;
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

/** The page's sign-in with a service (its base URL) and company, if any. */
export const readSession = (baseUrl: string, company: string): Session | undefined => {
  try {
    return JSON.parse(read(`session:${baseUrl}:${company}`) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
};

/** Stores (or, with `undefined`, clears) the page's sign-in and tells every widget on the page. */
export const writeSession = (baseUrl: string, company: string, session?: Session) => {
  store(`session:${baseUrl}:${company}`, session && JSON.stringify(session));
  dispatchEvent(new CustomEvent<SessionChange>(SESSION_EVENT, { detail: { baseUrl, company, session } }));
};

type Host = ServiceElement<{ widget: { company: { id: string } } }>;

/**
 * The page's sign-in for the host's service and company (the company of the host's data, or the
 * one its key was last seen with, so that a returning visitor's session is found before the first
 * answer). The host updates when the sign-in changes anywhere on the page; `changed` hears each
 * change first. A host that offers the sign-in passes `signIn`: asked by another widget, it says
 * whether it offers it now and, with `show`, shows it.
 */
export class SessionController implements ReactiveController {
  constructor(
    private readonly host: Host,
    private readonly changed: (change: SessionChange) => void = () => {},
    private readonly signIn?: (show: boolean) => boolean,
  ) {
    host.addController(this);
  }

  /** The service's base URL, as the widgets name it in storage. */
  get baseUrl() {
    return this.host.baseUrl || location.origin;
  }

  /** The company the key belongs to: from the host's data, else as last seen with the key. */
  get company(): string {
    return this.host.data?.widget.company.id ?? read(this.#seen) ?? '';
  }

  get #seen() {
    return `company:${this.baseUrl}:${this.host.key}`;
  }

  /** The sign-in of the page, if any. */
  get session() {
    return readSession(this.baseUrl, this.company);
  }

  /**
   * Stores (or, with `undefined`, clears) the sign-in and tells every widget on the page. `company`:
   * the key's company, when an answer has just named it (it is remembered with the key).
   */
  write(session?: Session, company = this.company) {
    store(this.#seen, company);
    writeSession(this.baseUrl, company, session);
  }

  hostConnected() {
    addEventListener(SESSION_EVENT, this.#on);
    addEventListener(SIGN_IN_EVENT, this.#on);
  }

  hostDisconnected() {
    removeEventListener(SESSION_EVENT, this.#on);
    removeEventListener(SIGN_IN_EVENT, this.#on);
  }

  /** A change of the sign-in, or a widget asking for it, of this service and company. */
  #on = (event: Event) => {
    const detail = (event as CustomEvent<SessionChange & SignInRequest>).detail;
    if (detail.baseUrl !== this.baseUrl || detail.company !== this.company) return;
    if (event.type === SIGN_IN_EVENT) {
      if (this.signIn?.(detail.show)) event.preventDefault();
    } else {
      this.changed(detail);
      this.host.requestUpdate();
    }
  };
}
