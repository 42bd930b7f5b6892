/**
 * Shared by the service tests: a fresh service on a random port over a fresh data folder, and the
 * calls every test file makes of it (the clock, the outbox, JSON posts, a first render, a sign-in),
 * written once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import Database from 'better-sqlite3';
import type { Kysely, Migration } from 'kysely';
import pg from 'pg';
import type { Jobs } from '../core/jobs.ts';
import { MIGRATIONS } from '../db/migrations/index.ts';
import { startService, type StartOptions } from '../server.ts';
import { support } from '../support/cli.ts';

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
  /** A number the store holds (`SELECT count(*) …`), read behind the service's back: what was really stored. */
  count(sql: string, ...params: unknown[]): Promise<number>;
  /** The rows of a query on the service's store, read behind its back. */
  rows<T = Json>(sql: string, ...params: unknown[]): Promise<T[]>;
  /**
   * Changes the stored data behind the service's back, for a state the seed cannot place (a class
   * at an exact moment); `/dev/reset` restores the seed. Answers the number of rows changed.
   */
  exec(sql: string, ...params: unknown[]): Promise<number>;
  /** The service's data folder (DATA_DIR). */
  dataDir: string;
  /** Runs the mail worker now (it also runs every second): resolves when what is due has been tried. */
  runMail(): Promise<void>;
  /**
   * `npm run support -- <argv> --json` on this service's store, as an operator runs it beside the
   * service: its JSON answer (the exit code must be 0).
   */
  support<T = Json>(...argv: string[]): Promise<T>;
  close(): Promise<void>;
}

/** Runs the support tool on a store (`env`: its settings); answers the exit code and what it wrote. */
export async function runSupport(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await support(argv, { out: (t) => (out += t), err: (t) => (err += t), env });
  return { code, out, err };
}

/**
 * `npm run support -- <argv> --json` on the store `env` names (DATA_DIR, DATABASE_URL, SERVICE_MODE):
 * its JSON answer (the exit code must be 0).
 */
export const supportOn =
  (env: NodeJS.ProcessEnv) =>
  async <T = Json>(...argv: string[]): Promise<T> => {
    const { code, out, err } = await runSupport([...argv, '--json'], env);
    assert.equal(code, 0, `support ${argv.join(' ')}: ${err}`);
    return JSON.parse(out) as T;
  };

/**
 * The store the service tests run on: SQLite files (the default), or PostgreSQL when
 * `SERVICE_TEST_DATABASE_URL` names a server (`npm test` sets it for its PostgreSQL round): each
 * service gets a new database there, dropped when it closes.
 */
export const TEST_POSTGRES = process.env.SERVICE_TEST_DATABASE_URL;

/** A fresh database of the test server, and how to drop it. */
export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES });
  admin.on('error', () => {});
  await admin.connect();
  const name = `service_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES!);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: TEST_POSTGRES });
      client.on('error', () => {});
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Reads and writes a service's store behind its back: its SQLite file, or its PostgreSQL database. */
interface BackDoor {
  rows(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  exec(sql: string, params: unknown[]): Promise<number>;
  close(): Promise<void>;
}

function sqliteBackDoor(file: string): BackDoor {
  const open = (readonly: boolean) => {
    const db = new Database(file, { readonly });
    db.pragma('busy_timeout = 5000');
    return db;
  };
  return {
    async rows(sql, params) {
      const db = open(true);
      try {
        return db.prepare(sql).all(...params) as Record<string, unknown>[];
      } finally {
        db.close();
      }
    },
    async exec(sql, params) {
      const db = open(false);
      try {
        return db.prepare(sql).run(...params).changes;
      } finally {
        db.close();
      }
    },
    close: async () => {},
  };
}

function postgresBackDoor(url: string): BackDoor {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // `?` placeholders, as the tests write them for either store.
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    rows: async (sql, params) => (await pool.query(numbered(sql), params)).rows,
    exec: async (sql, params) => (await pool.query(numbered(sql), params)).rowCount ?? 0,
    close: () => pool.end(),
  };
}

export async function startTestService(opts: StartOptions = {}): Promise<TestService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'service-test-'));
  const database = TEST_POSTGRES && !opts.databaseUrl ? await freshDatabase() : undefined;
  const service = await startService({
    port: 0,
    dataDir,
    quiet: true,
    ...(database ? { databaseUrl: database.url } : {}),
    ...opts,
  });
  const store = database ? postgresBackDoor(database.url) : sqliteBackDoor(service.dataFile);
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
    count: async (sql, ...params) => Number(Object.values((await store.rows(sql, params))[0] ?? {})[0] ?? 0),
    rows: async <T>(sql: string, ...params: unknown[]) => (await store.rows(sql, params)) as T[],
    exec: (sql, ...params) => store.exec(sql, params),
    dataDir,
    runMail: () => service.mail.run(),
    support: (...argv) =>
      supportOn({
        DATA_DIR: dataDir,
        SERVICE_MODE: service.dev ? 'development' : 'production',
        ...(database ? { DATABASE_URL: database.url } : {}),
      })(...argv),
    async close() {
      await service.close();
      await store.close();
      await database?.drop();
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
    get dataDir() {
      return started().dataDir;
    },
    support: (...argv) => started().support(...argv),
    runMail: () => started().runMail(),
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
/**
 * A REST API token of a seeded user of Acme's application (`rk_demo_acme`), by its client secret,
 * from the service at `baseUrl`.
 */
export async function restToken(baseUrl: string, email = 'olivia.owner@acme.example'): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': 'rk_demo_acme' },
    body: JSON.stringify({ login: email, verification_method: 'client_secret', client_secret: 'cs_demo_acme_secret' }),
  });
  const body = (await res.json()) as { token?: string };
  if (!body.token) throw new Error(`No REST token for ${email}: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

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

/** What `openTestCompany` made: the support tool's printed credentials and keys. */
export interface TestCompany {
  company_id: number;
  owner_user_id: number;
  application_id: number;
  owner_email: string;
  api_key: string;
  client_secret: string;
  /** A widget key per type asked for, serving `origin`. */
  keys: Record<string, string>;
  /** The catalogue's class ids: a paid class (EUR 120) and a free one, both next week. */
  paidClass: string;
  freeClass: string;
}

/**
 * A company as support opens one (`company create`, `catalogue import`, `widget-key create`), through
 * the support tool on a service's store (a test service's, or `supportOn` a store's settings, with its
 * data folder for the catalogue file): what a production service's tests start from.
 */
export async function openTestCompany(
  svc: Pick<TestService, 'support' | 'dataDir'>,
  { types = ['registration', 'checkout'], origin = 'https://www.acme.example', name = 'Acme Training' } = {},
): Promise<TestCompany> {
  const ownerEmail = `owner-${process.pid}-${(counter += 1)}@acme.example`;
  const created = await svc.support(
    'company',
    'create',
    '--name',
    name,
    '--owner-email',
    ownerEmail,
    '--owner-first-name',
    'Olivia',
    '--owner-last-name',
    'Owner',
    '--vat',
    '19',
  );
  const week = Date.now() + 7 * 86400_000;
  const at = (hours: number) => new Date(Math.floor(week / 3600_000) * 3600_000 + hours * 3600_000).toISOString();
  const file = join(svc.dataDir, `catalogue-${created.company_id}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      programmes: [
        {
          id: `crs_first_aid_${created.company_id}`,
          title: 'First aid at work',
          summary: 'Two days of first aid for workplace first aiders.',
          category: 'Safety',
          classes: [
            {
              id: `cls_first_aid_${created.company_id}`,
              starts_at: at(0),
              ends_at: at(8),
              timezone: 'Europe/Berlin',
              location: 'Berlin, Torstraße 1',
              price: { amount: 12000, currency: 'EUR' },
              capacity: 12,
              lecturers: [{ email: 'lena@acme.example', first_name: 'Lena', last_name: 'Lecturer' }],
            },
            {
              id: `cls_first_aid_intro_${created.company_id}`,
              starts_at: at(24),
              ends_at: at(26),
              timezone: 'Europe/Berlin',
              location: 'Online',
              price: { amount: 0, currency: 'EUR' },
              capacity: 30,
            },
          ],
        },
      ],
      places: [{ name: 'Acme Berlin', location: 'Berlin, Torstraße 1', lat: 52.5290123, lng: 13.4011234 }],
    }),
  );
  await svc.support('catalogue', 'import', '--company', String(created.company_id), file);
  const keys: Record<string, string> = {};
  for (const type of types) {
    keys[type] = (
      await svc.support('widget-key', 'create', '--company', String(created.company_id), '--type', type, '--origin', origin)
    ).key;
  }
  return {
    ...created,
    owner_email: ownerEmail,
    keys,
    paidClass: `cls_first_aid_${created.company_id}`,
    freeClass: `cls_first_aid_intro_${created.company_id}`,
  };
}

/** The schema's migrations and one more, as a new version of the service would bring: a note on each registration. */
export const MIGRATIONS_WITH_NOTE: Record<string, Migration> = {
  ...MIGRATIONS,
  '0099-registration-note': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('registrations')
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  },
};
