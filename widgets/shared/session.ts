/**
 * The participant's login, one for the whole page: the profile widget writes it, every widget reads
 * it (a registration or checkout form prefills the participant, a video widget sends the token).
 * The token is kept in `sessionStorage` (never `localStorage`, never a URL), scoped to the service's
 * base URL and the company, and dies with the tab. Widgets hear changes through one window event,
 * so widgets from two copies of the package on one page still agree.
 */
export interface Participant {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
}

export interface Session {
  token: string;
  participant?: Participant;
}

export const SESSION_EVENT = 'service-session-change';

const storageKey = (baseUrl: string, company: string) => `service-widgets:session:${baseUrl}:${company}`;

export const readSession = (baseUrl: string, company: string): Session | undefined => {
  try {
    return JSON.parse(sessionStorage.getItem(storageKey(baseUrl, company)) ?? 'null') ?? undefined;
  } catch {
    // Storage blocked (privacy settings) or damaged: logged out.
    return undefined;
  }
};

/** Stores (or, with `undefined`, clears) the session and tells every widget on the page. */
export const writeSession = (baseUrl: string, company: string, session?: Session) => {
  const key = storageKey(baseUrl, company);
  try {
    if (session) sessionStorage.setItem(key, JSON.stringify(session));
    else sessionStorage.removeItem(key);
  } catch {
    // Storage blocked: the widget that logged in keeps the token in memory; others ask again.
  }
  dispatchEvent(new CustomEvent(SESSION_EVENT, { detail: { baseUrl, company, session } }));
};
