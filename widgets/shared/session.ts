/**
 * The participant's sign-in, one for the whole page: the profile widget writes it, every widget reads
 * it (a form prefills the participant, a video widget sends the token). The token is kept in
 * `sessionStorage` (never `localStorage`, never a URL), scoped to the service's base URL and the
 * company, and dies with the tab. Widgets hear changes through one window event, so widgets from two
 * copies of the package on one page still agree. A widget adds it in one line:
 * `#session = new SessionController(this)` (page-state.ts: the checkout's cart is another such state).
 */
import type { Participant } from '../../contract/api/index.ts';
import type { PageRequest, Session, SessionChange } from '../../contract/page.ts';
import { PageState, read, readState, store, writeState, type Host } from './page-state.ts';

export type { Participant, Session, SessionChange };

/**
 * A widget that needs the participant (a participants-only video) asks for the page's sign-in with
 * this request of the page bus (contract/page.ts): the widget that offers it (the profile) answers
 * and, with `show`, shows it. No widget reaches into another.
 */
export const SIGN_IN_EVENT = 'service-session-sign-in';

/** The page's sign-in with a service (its base URL) and company, if any. */
export const readSession = (baseUrl: string, company: string) => readState<Session>('session', baseUrl, company);

/** Stores (or, with `undefined`, clears) the page's sign-in and tells every widget on the page. */
export const writeSession = (baseUrl: string, company: string, session?: Session) =>
  writeState('session', baseUrl, company, session);

/**
 * The page's sign-in for the host's service and company (the company of the host's data, or the
 * one its key was last seen with, so that a returning visitor's session is found before the first
 * answer). A host that offers the sign-in passes `signIn`: asked by another widget, it says whether
 * it offers it now and, with `show`, shows it.
 */
export class SessionController extends PageState<Session, SessionChange> {
  constructor(host: Host, changed?: (change: SessionChange) => void, signIn?: (show: boolean, request: PageRequest) => boolean) {
    super(host, 'session', SIGN_IN_EVENT, changed, signIn);
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
