/**
 * The reference service: one Hono app on Node's HTTP server, one SQLite file.
 * `startService` is what `run.ts` (the program), the tests and other harnesses call.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { methodNotAllowed as allowedMethods } from 'hono/method-not-allowed';
import { compressAnswer } from './http/compress.ts';
import { randomUUID } from 'node:crypto';
import { normalisePublicUrl } from './config.ts';
import { Clock } from './core/clock.ts';
import { Jobs } from './core/jobs.ts';
import { ownOrigins } from './core/origins.ts';
import { createLogger } from './core/log.ts';
import { MailWorker, type MailSettings } from './core/mail.ts';
import { MemoryLimiter, mergeLimits, type LimitOverrides } from './core/rate-limit.ts';
import { StoreUnavailable, openStore, type SeedState, type StoreOptions } from './db/database.ts';
import { PostgresLimiter } from './db/postgres-limiter.ts';
import type { Migration } from 'kysely';
import { calendarRoutes } from './features/calendar/routes.ts';
import { catalogRoutes } from './features/catalog/routes.ts';
import { fakePaymentRoutes } from './features/checkout/pay.ts';
import { checkoutRoutes, registerOrderExpiry } from './features/checkout/routes.ts';
import { contactRoutes } from './features/contact/routes.ts';
import { devRoutes } from './features/dev/routes.ts';
import { participantRoutes } from './features/participants/routes.ts';
import { placeRoutes } from './features/places/routes.ts';
import { registrationRoutes } from './features/registrations/routes.ts';
import { restRoutes } from './features/rest/routes.ts';
import { videoRoutes } from './features/videos/routes.ts';
import { sendJson, type AppEnv, type ServiceDeps } from './http/context.ts';
import { ApiError, answerOf, errorBody, methodNotAllowed, notFound } from './http/errors.ts';
import { answerLocale } from './http/locale.ts';
import { ApiRoutes } from './http/routes.ts';
import { registerStatic } from './http/static.ts';
import { openApiDocument } from './openapi.ts';
import { widgetApiCors } from './widget-api/cors.ts';
import { FirstRenders } from './widget-api/first-render.ts';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface StartOptions {
  /** 0 picks a free port. Default 8787. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Where `service.sqlite` lives. Default `<repo>/data`. */
  dataDir?: string;
  /** A PostgreSQL database (`DATABASE_URL`) instead of the SQLite file of `dataDir`. */
  databaseUrl?: string;
  /**
   * Development (default here, for tests and harnesses; the program decides by its settings,
   * config.ts): the demo seed, `/dev/*`, the outbox, the fake payment provider. Production has none.
   */
  dev?: boolean;
  /** Default `<repo>/dist` (the widgets are under `<distDir>/widgets/`). */
  distDir?: string;
  /** The built demo (`npm run build`): default `<distDir>/demo`. */
  demoDir?: string;
  /** No start-up lines (errors are still logged). */
  quiet?: boolean;
  /**
   * The service's public URL (scheme, host, port, optional path), which every link it builds starts
   * with. Default: `http://localhost:<port>` (`PUBLIC_URL` in main.ts). Never taken from a request.
   */
  publicUrl?: string;
  /** Addresses of reverse proxies whose X-Forwarded-For is believed (`TRUST_PROXY`). Default: none. */
  trustProxy?: string[];
  /** Rate limits other than the defaults (rate-limit.ts), for a deployment or a test. */
  limits?: LimitOverrides;
  /** How long a request body may take to arrive (default 10 s), then 408. */
  bodyTimeoutMs?: number;
  /** JSON lines (production's default) or plain lines. */
  logFormat?: 'json' | 'text';
  /** Where the log goes (default stdout). */
  logDestination?: NodeJS.WritableStream;
  /** The schema's migrations (default: service/db/migrations; a test adds one). */
  migrations?: Record<string, Migration>;
  /** Where mail goes (`SMTP_URL`, `SMTP_FROM`); without it, development keeps mail in the outbox. */
  smtp?: MailSettings;
  /** Told every statement the store runs (StoreOptions.onQuery). */
  onQuery?: StoreOptions['onQuery'];
}

export interface RunningService {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The public URL every link starts with (`StartOptions.publicUrl`, else `http://localhost:<port>`). */
  publicUrl: string;
  port: number;
  close(): Promise<void>;
  /** The SQLite file (or the PostgreSQL database's URL, without its password). */
  dataFile: string;
  seed: SeedState;
  /** The work done after answers (login emails); tests hold it to see that answers do not wait for it. */
  jobs: Jobs;
  /** Whether the /dev endpoints are served (development mode). */
  dev: boolean;
  /** How long opening (and, when needed, seeding) the data took, and then listening, in ms: `npm start` tells. */
  startup: { storeMs: number; listenMs: number };
  /** The migrations applied at this start. */
  migrated: string[];
  /** The mail worker (`run()` sends what is due now). */
  mail: MailWorker;
  /**
   * Stops as on SIGTERM: no new connection is taken, the requests in flight are answered (for at most
   * `graceMs`, then their connections are closed), queued work is done, the store is closed.
   */
  stop(graceMs: number): Promise<void>;
}

/**
 * Whether a development service answers a request for this `Host`: this machine's own names
 * (`localhost`, `*.localhost`, which browsers never resolve elsewhere, `127.0.0.1`, `[::1]`) and the
 * host of the configured public URL, on any port.
 */
export function developmentHost(host: string, publicUrl: string): boolean {
  let name: string;
  try {
    name = new URL(`http://${host}`).hostname.replace(/\.$/, '');
  } catch {
    return false;
  }
  if (name === 'localhost' || name.endsWith('.localhost') || name === '127.0.0.1' || name === '[::1]') return true;
  try {
    return name === new URL(publicUrl).hostname;
  } catch {
    return false;
  }
}

/** Methods in the order an `Allow` header lists them. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The REST API answers no CORS: it is for servers and same-origin tools, because its API key and
 * client secret identify the application and must not be shipped to browsers on other origins (the
 * widget API is the public one). A preflight is refused with a message a developer sees in the
 * network panel.
 */
const NO_CORS =
  'The REST API answers no CORS preflight: it is for servers and same-origin tools, and its API key must never be shipped to a browser. Call it from your server (the widgets use the widget API).';

/** How long a stop takes new connections at most while they keep coming (then it closes the port). */
const DRAIN_MAX_MS = 5000;
/** A pause this long without a new connection or request ends the drain. */
const DRAIN_QUIET_MS = 100;

/**
 * Resolves once nothing has arrived (`last()`, performance.now()) for DRAIN_QUIET_MS, or after `maxMs`.
 * A quiet check waits for the event loop's I/O first (setImmediate after the timer), so that
 * connections waiting while the loop was busy count before the port closes.
 */
async function drain(last: () => number, maxMs: number): Promise<void> {
  const until = performance.now() + maxMs;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, DRAIN_QUIET_MS / 2));
    await new Promise((resolve) => setImmediate(resolve));
    const now = performance.now();
    if (now - last() >= DRAIN_QUIET_MS || now >= until) return;
  }
}

/** The whole HTTP surface, without a listening socket (tests may call `app.request`). */
export function buildApp(deps: ServiceDeps): Hono<AppEnv> {
  // The public URL is known once the port is (startService sets it after listening).
  let own: string[] | undefined;
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    const started = performance.now();
    const id = randomUUID();
    c.set('bodyTimeoutMs', deps.bodyTimeoutMs);
    c.set('now', () => deps.clock.now());
    c.set('ownOrigins', (own ??= ownOrigins(deps.publicUrl, deps.dev)));
    await next();
    // (A new answer takes the old one's headers over, its length too: the compressed one sets its own.)
    const answer = await compressAnswer(c.req.method, c.req.header('accept-encoding'), c.res);
    if (answer !== c.res) {
      c.res = undefined as unknown as Response; // (Hono merges the headers of an answer it holds)
      c.res = answer;
    }
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('X-Request-Id', id);
    // Stopping: the connection closes after this answer rather than wait for another request.
    if (deps.stopping) c.res.headers.set('Connection', 'close');
    // The path without its query: a query may hold a widget key or an emailed link's token.
    deps.logger.request({
      id,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  });
  // The process answers (liveness), and the store answers (readiness): for a load balancer.
  app.get('/healthz', () => sendJson({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }));
  app.get('/readyz', async () => {
    // Stopping: a load balancer sends no more (the answers in flight still come).
    if (deps.stopping)
      return sendJson(errorBody('stopping', 'The service is stopping: send requests to another process.'), 503, {
        'Cache-Control': 'no-store',
        'Retry-After': '30',
      });
    try {
      await deps.store.check();
      return sendJson({ status: 'ready' }, 200, { 'Cache-Control': 'no-store' });
    } catch (err) {
      deps.logError('not ready', err);
      return sendJson(errorBody('not-ready', 'The service cannot use its store: the operator must look at its log.'), 503, {
        'Cache-Control': 'no-store',
        'Retry-After': '30',
      });
    }
  });
  if (deps.dev) {
    // DNS rebinding: a page on a site whose name is made to resolve to this machine would reach the
    // development service as its own origin (its outbox holds every PIN, its keys take new origins).
    // Only this machine's own names, and the configured public one, are answered.
    app.use('*', async (c, next) => {
      // (Node's server has refused a request without Host already; an in-process request has its URL's.)
      // An absolute request target (`GET http://elsewhere/…`) names the host too: both must be ours.
      const target = new URL(c.req.url).host;
      const host = c.req.header('host') ?? target;
      if (developmentHost(host, deps.publicUrl) && developmentHost(target, deps.publicUrl)) return next();
      const err = new ApiError(
        421,
        'misdirected-request',
        `This development service answers requests for localhost, 127.0.0.1, [::1] and the host of its PUBLIC_URL only, not "${host.slice(0, 100)}": open it at ${deps.publicUrl}/, or start it with PUBLIC_URL set to the address you use.`,
      );
      return sendJson(err.toBody(), err.status);
    });
  }

  if (deps.dev && deps.store.dialect === 'postgres') {
    // Several processes on one database share one development clock: each request takes its offset.
    app.use('*', async (_c, next) => {
      const row = await deps.store.db.selectFrom('meta').select('v').where('k', '=', 'clock_offset_ms').executeTakeFirst();
      deps.clock.setOffset(Number(row?.v ?? 0));
      await next();
    });
  }
  widgetApiCors(app, deps);
  registerOrderExpiry(app, deps);
  // One sub-app per feature, mounted at its base. In this order: it is the order of /openapi.json's
  // paths, and a sub-app's middleware wraps only what is mounted after it (the development
  // endpoints' no-store is not for the map's tile, which may be cached).
  const features = [
    catalogRoutes(deps),
    calendarRoutes(deps),
    checkoutRoutes(deps),
    registrationRoutes(deps),
    participantRoutes(deps),
    contactRoutes(deps),
    restRoutes(deps),
    videoRoutes(deps),
    placeRoutes(deps),
    ...(deps.dev ? [devRoutes(deps), fakePaymentRoutes(deps)] : []),
  ];
  for (const sub of features.flat()) app.route(sub.base, sub);
  registerStatic(app, deps);
  let document: unknown;
  app.get('/openapi.json', () => {
    document ??= openApiDocument(deps.api.specs, deps.publicUrl);
    return sendJson(document, 200, { 'Access-Control-Allow-Origin': '*' });
  });

  // Last, so that it wraps nothing but the answers no route gave: a path known for other methods
  // answers 405 with Allow (Hono's own helper), in the error shape.
  app.use(
    allowedMethods({
      app,
      onMethodNotAllowed: (c, methods) => {
        // Every widget API path takes a preflight: a path with nothing else is no path.
        if (methods.every((m) => m === 'OPTIONS')) return c.res;
        const allow = [...new Set(methods)].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b));
        const err =
          c.req.method === 'OPTIONS' && c.req.path.startsWith('/v1/')
            ? new ApiError(405, 'method-not-allowed', NO_CORS, undefined, { Allow: allow.join(', ') })
            : methodNotAllowed(allow);
        return sendJson(err.toBody(), err.status, err.headers);
      },
    }),
  );

  app.notFound(() => {
    const err = notFound();
    return sendJson(err.toBody(), err.status);
  });
  app.onError((err, c) => {
    const answer = answerOf(err);
    if (answer) return sendJson(answer.toBody(answerLocale(c)), answer.status, answer.headers);
    if (storeFault(err)) {
      // The disk is full, the file read-only or gone: nothing was written; the visitor may try again
      // later, and the operator reads the real cause here.
      deps.logError(`${c.req.method} ${new URL(c.req.url).pathname}: the store cannot be written`, err);
      return sendJson(
        errorBody('unavailable', 'The service cannot save anything just now. Nothing was changed: try again in a few minutes.'),
        503,
        { 'Retry-After': '30' },
      );
    }
    // A client gone mid-request is no failure of the service, and nobody reads the answer.
    if (c.req.raw.signal.aborted) return sendJson(errorBody('bad-request', 'The request was cut off.'), 400);
    deps.logError(`${c.req.method} ${new URL(c.req.url).pathname} failed`, err);
    return sendJson(
      errorBody('internal', 'Something went wrong in the service. Try again; if it keeps failing, tell the site owner.'),
      500,
    );
  });
  return app;
}

/** An error of the store itself (SQLite's codes for a full disk, a read-only or vanished file, I/O), not of the request. */
function storeFault(err: unknown): boolean {
  if (err instanceof StoreUnavailable) return true;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|CORRUPT|NOTADB|PERM)/.test(code);
}

/**
 * Bytes Node's HTTP parser refuses (a body longer than its Content-Length spilling into a "next
 * request", oversized headers) never reach the app: answer them in the one error shape too.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): number | undefined {
  if (!socket.writable) {
    socket.destroy();
    return undefined;
  }
  const [status, reason, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'headers-too-large', 'The request headers are too large.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'request-timeout', 'The request took too long to arrive.']
        : [400, 'Bad Request', 'bad-request', 'The request is not valid HTTP (is its Content-Length right?).'];
  const body = JSON.stringify(errorBody(code, message));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  return status as number;
}

/** The settings and services every route module gets, from the start options. */
export function serviceDeps(
  store: ServiceDeps['store'],
  clock: Clock,
  opts: StartOptions & { distDir: string; demoDir: string; publicUrl: string },
): ServiceDeps {
  const logger = createLogger({
    format: opts.logFormat ?? 'text',
    ...(opts.quiet ? { quiet: true } : {}),
    ...(opts.logDestination ? { destination: opts.logDestination } : {}),
  });
  const logError = (message: string, err: unknown) => logger.error(message, err);
  const limits = mergeLimits(opts.limits);
  // On PostgreSQL the limits are the database's, shared by every process; else this process's memory.
  const longestWindowMs = Math.max(
    ...Object.values(limits).flatMap((rules) => Object.values(rules).map((rule) => (rule as { windowMs: number }).windowMs)),
  );
  const limiter = opts.databaseUrl ? new PostgresLimiter(opts.databaseUrl, clock, longestWindowMs) : new MemoryLimiter(clock);
  return {
    store,
    clock,
    dev: opts.dev ?? true,
    stopping: false,
    logger,
    distDir: opts.distDir,
    demoDir: opts.demoDir,
    publicUrl: opts.publicUrl,
    trustProxy: (opts.trustProxy ?? []).map((a) => a.trim().toLowerCase()).filter(Boolean),
    limits,
    limiter,
    jobs: new Jobs(logError),
    bodyTimeoutMs: opts.bodyTimeoutMs ?? 10_000,
    log: (message) => logger.info(message),
    logError,
    onReset: new Set([() => limiter.reset()]),
    api: new ApiRoutes(),
    firstRenders: new FirstRenders(),
  };
}

/** A request whose Host header is missing or no host name: answered before routing, in the error shape. */
const badHost = () =>
  sendJson(
    errorBody('bad-request', 'The request has no valid Host header: send "Host: <host name>[:port]" (HTTP/1.1 does).'),
    400,
    { Connection: 'close' },
  );

export { normalisePublicUrl };

export async function startService(opts: StartOptions = {}): Promise<RunningService> {
  const publicUrl = opts.publicUrl === undefined ? undefined : normalisePublicUrl(opts.publicUrl);
  const clock = new Clock();
  const dataDir = resolve(opts.dataDir ?? join(REPO_ROOT, 'data'));
  const opening = performance.now();
  const store = await openStore(dataDir, clock, {
    mode: opts.dev === false ? 'production' : 'development',
    exclusive: true,
    ...(opts.migrations ? { migrations: opts.migrations } : {}),
    ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
    ...(opts.onQuery ? { onQuery: opts.onQuery } : {}),
  });
  const storeMs = performance.now() - opening;
  const listening = performance.now();
  const distDir = resolve(opts.distDir ?? join(REPO_ROOT, 'dist'));
  const deps = serviceDeps(store, clock, {
    ...opts,
    distDir,
    demoDir: resolve(opts.demoDir ?? join(distDir, 'demo')),
    publicUrl: publicUrl ?? '', // set below, once the port is known
  });
  const app = buildApp(deps);
  const mail = new MailWorker({ store, clock, smtp: opts.smtp, logError: deps.logError, keepSecrets: deps.dev });

  // Node answers a request without Host itself, with an empty body: it comes to badHost instead.
  const server = createServer({ requireHostHeader: false }, getRequestListener(app.fetch, { errorHandler: () => badHost() }));
  // Refused before the app (Node's HTTP parser): answered in the error shape, and logged like any answer.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const status = answerClientError(err, socket);
    if (status) deps.logger.request({ id: randomUUID(), method: '-', path: '-', status, ms: 0 });
  });
  // When a connection or a request last came: a stop takes them until they pause (drain, below).
  let lastArrival = 0;
  server.on('connection', () => (lastArrival = performance.now()));
  server.on('request', () => (lastArrival = performance.now()));
  const host = opts.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 8787, host, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
  } catch (err) {
    await store.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const listenMs = performance.now() - listening;
  const urlHost = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  const seed = store.seedState;
  const seedLine =
    seed.status === 'created'
      ? 'created and seeded now'
      : seed.status === 'kept'
        ? `seeded ${new Date(seed.seededAt).toISOString()}`
        : seed.status === 'moved'
          ? `its classes moved ${seed.weeks} week${seed.weeks === 1 ? '' : 's'} forward`
          : seed.status === 'new'
            ? 'created now, empty: `npm run support -- company create` adds a company'
            : 'production store';
  const shownHost = urlHost === '127.0.0.1' ? 'localhost' : urlHost;
  deps.publicUrl = publicUrl ?? `http://${shownHost}:${port}`;
  deps.log(
    `Service widgets running at http://${shownHost}:${port}/ (${deps.dev ? 'development' : 'production'})${publicUrl ? `, reached at ${publicUrl}/` : ''}.`,
  );
  if (store.migrated.length) deps.log(`Migrated the store: ${store.migrated.join(', ')}.`);
  deps.log(`Data: ${store.file} (${seedLine}).${deps.dev ? ` Demo credentials: http://${shownHost}:${port}/dev/seed` : ''}`);

  mail.start();
  let closed: Promise<void> | undefined;
  /** Stops taking connections, answers what is in flight (closing what remains after `graceMs`), then closes the store. */
  const shutDown = (graceMs: number) =>
    (closed ??= (async () => {
      deps.stopping = true;
      const force = setTimeout(() => {
        deps.log('Stopping: the requests still in flight are cut off.');
        server.closeAllConnections();
      }, graceMs);
      // Connections the system has taken for the service but it has not yet (a burst, a proxy's next
      // requests) would be reset by closing the port: they are taken and answered, each with
      // Connection: close and /readyz 503, until none has come for a moment (or half the grace is gone).
      if (graceMs > 0) await drain(() => lastArrival, Math.min(graceMs / 2, DRAIN_MAX_MS));
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        // Connections between requests go now; each one with a request in flight when that is answered.
        server.closeIdleConnections();
        // Said once the port is closed: whoever reads it and connects is refused, not reset.
        if (graceMs > 0)
          deps.log(`Stopping: no new connections; the requests in flight are answered (for at most ${graceMs} ms).`);
      });
      clearTimeout(force);
      // Work still queued after the last answers (login emails) is done before the store closes;
      // mail not sent yet waits in the queue for the next start.
      await deps.jobs.release();
      await mail.stop(Math.min(graceMs, 5000));
      await deps.limiter.close();
      await store.close();
      if (graceMs > 0) deps.log('Stopped.');
    })());
  return {
    url: `http://${urlHost}:${port}`,
    publicUrl: deps.publicUrl,
    port,
    dataFile: store.file,
    seed,
    jobs: deps.jobs,
    dev: deps.dev,
    startup: { storeMs, listenMs },
    migrated: store.migrated,
    mail,
    stop: shutDown,
    close: () => shutDown(0),
  };
}
