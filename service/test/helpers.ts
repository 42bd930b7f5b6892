/**
 * Shared by the service tests: a fresh service on a random port over a fresh data folder, and the
 * calls every test file makes of it (the clock, the outbox, JSON posts, a first render, a sign-in),
 * written once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import Database from 'better-sqlite3';
import type { Jobs } from '../core/jobs.ts';
import { startService, type StartOptions } from '../server.ts';

export const LOCAL_PAGE = 'http://localhost:5173';
export const FOREIGN_PAGE = 'https://evil.example';

/** Answers are checked field by field in the tests, so their bodies stay loosely typed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface JsonAnswer<T = Json> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestService {
  url: string;
  /** Where the service's links point (`http://localhost:<port>` unless set). */
  publicUrl: string;
  /** The work done after answers (login emails). */
  jobs: Jobs;
  /** fetch relative to the service. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** fetch + JSON body. */
  json<T = Json>(path: string, init?: RequestInit): Promise<JsonAnswer<T>>;
  /** A POST of a JSON body (a string is sent as it is; none, no body) with these headers too. */
  postJson<T = Json>(path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonAnswer<T>>;
  /** Moves the service clock forward (`POST /dev/clock`); answers the clock. */
  advance(seconds: number): Promise<{ now: string; offset_s: number }>;
  /** The emails the service "sent" (to one address), newest first: `/dev/outbox`, which waits for the work after answers. */
  outbox(to?: string): Promise<Json[]>;
  /** The PIN of the newest email to an address. */
  lastPin(to: string): Promise<string>;
  /** A widget's first render (`GET /widget`) as a page on LOCAL_PAGE asks for it; `query` adds parameters (`&course=…`). */
  firstRender<T = Json>(key: string, type: string, query?: string): Promise<JsonAnswer<T>>;
  /** Reads the service's SQLite file directly (read-only): what was really stored. */
  count(sql: string, ...params: unknown[]): number;
  /** The rows of a query on the service's SQLite file (read-only). */
  rows<T = Json>(sql: string, ...params: unknown[]): T[];
  /**
   * Changes the stored data behind the service's back, for a state the seed cannot place (a class
   * at an exact moment); `/dev/reset` restores the seed. Answers the number of rows changed.
   */
  exec(sql: string, ...params: unknown[]): number;
  close(): Promise<void>;
}

export async function startTestService(opts: StartOptions = {}): Promise<TestService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'service-test-'));
  const service = await startService({ port: 0, dataDir, quiet: true, ...opts });
  const doFetch = (path: string, init?: RequestInit) => fetch(`${service.url}${path}`, init);
  const json = async <T = Json>(path: string, init?: RequestInit): Promise<JsonAnswer<T>> => {
    const res = await doFetch(path, init);
    const text = await res.text();
    let body: T;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${init?.method ?? 'GET'} ${path}: ${res.status}, not JSON: ${text.slice(0, 200)}`);
    }
    return { status: res.status, headers: res.headers, body };
  };
  const postJson = <T = Json>(path: string, body?: unknown, headers: Record<string, string> = {}) =>
    json<T>(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const outbox = async (to?: string): Promise<Json[]> =>
    (await json(`/dev/outbox${to === undefined ? '' : `?to=${encodeURIComponent(to)}`}`)).body.emails;
  return {
    url: service.url,
    publicUrl: service.publicUrl,
    jobs: service.jobs,
    fetch: doFetch,
    json,
    postJson,
    async advance(seconds) {
      const moved = await postJson('/dev/clock', { advance_s: seconds });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      return moved.body;
    },
    outbox,
    lastPin: async (to) => (await outbox(to))[0].pin,
    firstRender: (key, type, query = '') =>
      json(`/widget-api/v1/widget?key=${encodeURIComponent(key)}&type=${type}${query}`, { headers: { Origin: LOCAL_PAGE } }),
    count(sql, ...params) {
      const db = new Database(service.dataFile, { readonly: true });
      try {
        return (
          (db
            .prepare(sql)
            .pluck()
            .get(...params) as number | undefined) ?? 0
        );
      } finally {
        db.close();
      }
    },
    rows(sql, ...params) {
      const db = new Database(service.dataFile, { readonly: true });
      try {
        return db.prepare(sql).all(...params) as never[];
      } finally {
        db.close();
      }
    },
    exec(sql, ...params) {
      const db = new Database(service.dataFile);
      try {
        db.pragma('busy_timeout = 5000');
        return db.prepare(sql).run(...params).changes;
      } finally {
        db.close();
      }
    },
    async close() {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The usual set-up of a test file: one service for the file, its seed restored before each test.
 * Call it at the file's top level; the service exists once the file's tests run.
 */
export function useTestService(opts: StartOptions = {}, { resetEachTest = true } = {}): TestService {
  let svc: TestService | undefined;
  before(async () => {
    svc = await startTestService(opts);
  });
  after(() => svc?.close());
  // Without it, the file's tests share one state (tests that only read, or that reset when they need to).
  if (resetEachTest) {
    beforeEach(async () => {
      assert.equal(
        (await svc!.fetch('/dev/reset', { method: 'POST', headers: { 'Content-Type': 'application/json' } })).status,
        200,
      );
    });
  }
  const started = () => {
    if (!svc) throw new Error('The test service starts before the first test: use it inside tests and hooks.');
    return svc;
  };
  return {
    get url() {
      return started().url;
    },
    get publicUrl() {
      return started().publicUrl;
    },
    get jobs() {
      return started().jobs;
    },
    fetch: (path, init) => started().fetch(path, init),
    json: (path, init) => started().json(path, init),
    postJson: (path, body, headers) => started().postJson(path, body, headers),
    advance: (seconds) => started().advance(seconds),
    outbox: (to) => started().outbox(to),
    lastPin: (to) => started().lastPin(to),
    firstRender: (key, type, query) => started().firstRender(key, type, query),
    count: (sql, ...params) => started().count(sql, ...params),
    rows: (sql, ...params) => started().rows(sql, ...params),
    exec: (sql, ...params) => started().exec(sql, ...params),
    close: () => started().close(),
  };
}

let visitor = 0;
/**
 * A new visitor's address, for a service that trusts this machine as its proxy (`trustProxy`):
 * tests of seats and idempotency stand for many people, each under the per-address limits.
 */
export const visitorAddress = () => `198.51.100.${(visitor = (visitor % 250) + 1)}`;

/** Headers of a JSON write from a page. */
export function writeHeaders(idempotencyKey: string, origin = LOCAL_PAGE): Record<string, string> {
  return { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey, Origin: origin };
}

let counter = 0;
export function uniqueKey(label = 'idem'): string {
  counter += 1;
  return `${label}-${process.pid}-${counter}-${Date.now()}`;
}

export function registrationBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    class_id: 'cls_web_2',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: `ada.${counter}@example.org`,
    phone: '+49 30 1234567',
    consent: true,
    ...overrides,
  };
}

/**
 * A raw HTTP/1.1 request, for what fetch will not send: a chunked body with no Content-Length,
 * odd headers, an undecoded path.
 */
export function rawRequest(
  baseUrl: string,
  opts: { method?: string; path: string; headers?: Record<string, string>; chunks?: (string | Buffer)[] },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: opts.headers,
        agent: false, // a fresh connection: a refused body must not spill into the next request
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    for (const chunk of opts.chunks ?? []) req.write(chunk);
    req.end();
  });
}

/** A PIN that is not this one: a wrong guess. */
export const otherPin = (pin: string) => String((Number(pin) + 1) % 1_000_000).padStart(6, '0');

/** Signs a participant in through a profile key, as the profile widget does, and returns their token. */
export async function participantToken(svc: TestService, email: string, key = 'wk_demo_profile'): Promise<string> {
  const post = (path: string, body: unknown) =>
    svc.postJson(`/widget-api/v1/participant/${path}?key=${encodeURIComponent(key)}`, body, { Origin: LOCAL_PAGE });
  assert.equal((await post('login', { email, return_url: `${LOCAL_PAGE}/account` })).status, 202);
  const verified = await post('verify', { email, pin: await svc.lastPin(email) });
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  return verified.body.token;
}
