import type { Context } from 'hono';
import type { Clock } from '../core/clock.ts';
import type { IdempotentResult } from '../core/idempotency.ts';
import type { Jobs } from '../core/jobs.ts';
import type { Logger } from '../core/log.ts';
import type { Limits, RateLimiter } from '../core/rate-limit.ts';
import type { Store } from '../db/database.ts';
import type { FirstRenders } from '../widget-api/first-render.ts';
import type { ApiRoutes } from './routes.ts';

/** What every route module gets: the store, the clock, the settings, where files live, and the logger. */
export interface ServiceDeps {
  store: Store;
  clock: Clock;
  dev: boolean;
  /** The service is stopping: answers close their connection. */
  stopping: boolean;
  distDir: string;
  demoDir: string;
  /**
   * The service's own public URL, without a trailing slash: every link it builds (emailed sign-in
   * links, the OpenAPI document's server) starts here, never from a request's Host header.
   */
  publicUrl: string;
  /** Proxies whose `X-Forwarded-For` is believed (exact addresses); nobody else's is. */
  trustProxy: readonly string[];
  limits: Limits;
  limiter: RateLimiter;
  /** Work done after the answer (see jobs.ts). */
  jobs: Jobs;
  /** How long a request body may take to arrive before the answer is 408. */
  bodyTimeoutMs: number;
  log: (message: string) => void;
  logError: (message: string, err: unknown) => void;
  /** The log (core/log.ts): requests, start, errors. */
  logger: Logger;
  /** Clears in-memory state (rate limits, ...) when /dev/reset restores the seed. */
  onReset: Set<() => void | Promise<void>>;
  /** The documented routes: each registers its handler and its part of `/openapi.json`. */
  api: ApiRoutes;
  /** The parts of `GET /widget`'s first render, one per widget type, each registered by its feature. */
  firstRenders: FirstRenders;
}

export interface AppEnv {
  Variables: {
    /** Set once a widget key has accepted the page origin: successful answers may carry CORS. */
    allowedOrigin: string | undefined;
    /** From ServiceDeps, for the body reader. */
    bodyTimeoutMs: number;
    /** The service clock's now (ms), for what a request's checks compare with time (a rotated key's grace). */
    now: () => number;
    /** The service's own pages' origins (core/origins.ts `ownOrigins`), which every widget key serves. */
    ownOrigins: readonly string[];
  };
}

export type AppContext = Context<AppEnv>;

/** JSON with an explicit charset, the one content type of every API answer. */
export function sendJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The answer of an idempotent write; a replay says so in `Idempotent-Replayed`. */
export function idempotentAnswer(result: IdempotentResult): Response {
  return sendJson(result.body, result.status, result.replayed ? { 'Idempotent-Replayed': 'true' } : {});
}
