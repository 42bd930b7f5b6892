/**
 * The reference service: one Hono app on Node's HTTP server, one SQLite file.
 * `startService` is what `main.ts`, the tests and other harnesses call.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { Clock } from './clock.ts';
import { sendJson, type AppEnv, type ServiceDeps } from './context.ts';
import { openStore, type SeedState } from './db.ts';
import { registerDev } from './dev.ts';
import { ApiError, errorBody, notFound } from './errors.ts';
import { openApiDocument } from './openapi.ts';
import { registerRestApi } from './rest-api.ts';
import { registerStatic } from './static.ts';
import { registerWidgetApi } from './widget-api.ts';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface StartOptions {
  /** 0 picks a free port. Default 8787. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Where `service.sqlite` lives. Default `<repo>/data`. */
  dataDir?: string;
  /** Serve /dev/*. Default: true unless NODE_ENV=production. */
  dev?: boolean;
  /** Default `<repo>/dist` (the widgets are under `<distDir>/widgets/`). */
  distDir?: string;
  /** Default `<repo>/demo`. */
  demoDir?: string;
  /** No start-up lines (errors are still logged). */
  quiet?: boolean;
}

export interface RunningService {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:8787`. */
  url: string;
  port: number;
  close(): Promise<void>;
  /** The SQLite file. */
  dataFile: string;
  seed: SeedState;
}

/** The whole HTTP surface, without a listening socket (tests may call `app.request`). */
export function buildApp(deps: ServiceDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    await next();
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
  });

  registerWidgetApi(app, deps);
  registerRestApi(app, deps);
  if (deps.dev) registerDev(app, deps);
  registerStatic(app, deps);
  app.get('/openapi.json', (c) =>
    sendJson(openApiDocument(new URL(c.req.url).origin), 200, { 'Access-Control-Allow-Origin': '*' }),
  );

  app.notFound(() => {
    const err = notFound();
    return sendJson(err.toBody(), err.status);
  });
  app.onError((err, c) => {
    if (err instanceof ApiError) return sendJson(err.toBody(), err.status, err.headers);
    deps.logError(`${c.req.method} ${new URL(c.req.url).pathname} failed`, err);
    return sendJson(
      errorBody('internal', 'Something went wrong in the service. Try again; if it keeps failing, tell the site owner.'),
      500,
    );
  });
  return app;
}

/**
 * Bytes Node's HTTP parser refuses (a body longer than its Content-Length spilling into a "next
 * request", oversized headers) never reach the app: answer them in the one error shape too.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
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
}

export async function startService(opts: StartOptions = {}): Promise<RunningService> {
  const quiet = opts.quiet ?? false;
  const clock = new Clock();
  const dataDir = resolve(opts.dataDir ?? join(REPO_ROOT, 'data'));
  const store = openStore(dataDir, clock);
  const deps: ServiceDeps = {
    store,
    clock,
    dev: opts.dev ?? process.env.NODE_ENV !== 'production',
    distDir: resolve(opts.distDir ?? join(REPO_ROOT, 'dist')),
    demoDir: resolve(opts.demoDir ?? join(REPO_ROOT, 'demo')),
    log: quiet ? () => {} : (message) => console.log(message),
    logError: (message, err) => console.error(`[service] ${message}:`, err),
    onReset: new Set(),
  };
  const app = buildApp(deps);

  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  server.on('clientError', answerClientError);
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
    store.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const urlHost =
    host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  const seed = store.seedState;
  const seedLine =
    seed.status === 'created'
      ? 'created and seeded now'
      : seed.status === 'kept'
        ? `seeded ${new Date(seed.seededAt).toISOString()}`
        : `re-seeded now: ${seed.reason}`;
  const shownHost = urlHost === '127.0.0.1' ? 'localhost' : urlHost;
  deps.log(`Service widgets running at http://${shownHost}:${port}/`);
  deps.log(
    `Data: ${store.file} (${seedLine}).${deps.dev ? ` Demo credentials: http://${shownHost}:${port}/dev/seed` : ''}`,
  );

  let closed: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    dataFile: store.file,
    seed,
    close() {
      closed ??= new Promise<void>((resolveClose) => {
        server.close(() => {
          store.close();
          resolveClose();
        });
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
