import type { Context } from 'hono';
import type { Clock } from './clock.ts';
import type { Store } from './db.ts';

/** What every route module gets: the store, the clock, where files live, and the logger. */
export interface ServiceDeps {
  store: Store;
  clock: Clock;
  dev: boolean;
  distDir: string;
  demoDir: string;
  log: (message: string) => void;
  logError: (message: string, err: unknown) => void;
  /** Clears in-memory state (rate limits, ...) when /dev/reset restores the seed. */
  onReset: Set<() => void>;
}

export interface AppEnv {
  Variables: {
    /** Set once a widget key has accepted the page origin: successful answers may carry CORS. */
    allowedOrigin: string | undefined;
  };
}

export type AppContext = Context<AppEnv>;

/** JSON with an explicit charset, the one content type of every API answer. */
export function sendJson(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
