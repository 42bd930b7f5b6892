/**
 * The REST console's sign-in, shared by the console and the page the emailed link opens: kept for
 * this tab in sessionStorage (never localStorage, never a URL), and told to the console in other
 * tabs of this origin, so that opening the link anywhere completes the console's login.
 */
export interface RestSession {
  /** The REST application's API key the token was given for. */
  apiKey: string;
  token: string;
  /** How the token was obtained: `email link`, `PIN`, `client secret`. */
  via: string;
}

const KEY = 'service-demo:rest-session';
const channel = () => new BroadcastChannel(KEY);

export function loadSession(): RestSession | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as RestSession | null;
    return value?.token && value.apiKey ? value : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: RestSession, tell = false): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
  if (tell) {
    const other = channel();
    other.postMessage(session);
    other.close();
  }
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
}

/** Calls `listener` when another tab of this origin signs in (the emailed link opened there). */
export function onSession(listener: (session: RestSession) => void): void {
  channel().addEventListener('message', (event: MessageEvent<RestSession>) => {
    saveSession(event.data);
    listener(event.data);
  });
}
