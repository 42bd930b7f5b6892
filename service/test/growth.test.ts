/**
 * A company 100 times the seed (`POST /dev/reset {"times": 100}`: its programmes, classes and
 * registrations) costs a request no more than 3 times what the seed does. Cost here is what a person
 * or the operator pays for and a test can count without a clock: the statements a request runs, the
 * rows the store hands back to them, the bytes on the wire (brotli, as a browser asks), and no
 * statement that reads a whole table (SQLite's query plan: no SCAN of a table that grows). The time
 * itself is `npm run bench`'s. Lists are paged (`GET /courses`): the first render shows a page and
 * says how many there are.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import { startService, type RunningService } from '../server.ts';
import { LOCAL_PAGE, registrationBody, restToken, uniqueKey, type Json } from './helpers.ts';

/** Tables whose rows grow with a company's data: no request may read one whole. */
const GROWING = ['courses', 'classes', 'registrations', 'participants', 'class_lecturers', 'orders', 'order_items'];

const statements: CompiledQuery[] = [];
let service: RunningService;
let folder = '';
let file: Database.Database;
let token = '';
before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'service-growth-'));
  service = await startService({ port: 0, dataDir: folder, quiet: true, onQuery: (q) => statements.push(q) });
  file = new Database(service.dataFile, { readonly: true });
});
after(async () => {
  file?.close();
  await service?.close();
  rmSync(folder, { recursive: true, force: true });
});

const reset = async (times: number) => {
  const res = await fetch(`${service.url}/dev/reset`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ times }),
  });
  assert.equal(res.status, 200, await res.text());
  token = await restToken(service.url);
};

interface Cost {
  status: number;
  statements: number;
  rows: number;
  bytes: number;
  scans: string[];
  body: Json;
}

/** What one request costs: its statements, their rows, its bytes on the wire, and any whole-table read. */
async function cost(path: string, init: RequestInit = {}): Promise<Cost> {
  statements.length = 0;
  const res = await fetch(`${service.url}${path}`, {
    ...init,
    headers: { Origin: LOCAL_PAGE, 'Accept-Encoding': 'br', ...(init.headers as Record<string, string>) },
  });
  // (fetch decodes the body: the bytes sent are the answer's Content-Length.)
  const text = await res.text();
  const bytes = Number(res.headers.get('content-length') ?? Buffer.byteLength(text));
  let rows = 0;
  const scans: string[] = [];
  for (const q of statements) {
    if (!/^\s*select/i.test(q.sql)) continue;
    const parameters = q.parameters as unknown[];
    rows += file.prepare(q.sql).all(...parameters).length;
    for (const step of file.prepare(`explain query plan ${q.sql}`).all(...parameters) as { detail: string }[]) {
      const scanned = /^SCAN (\w+)(?: AS (\w+))?/.exec(step.detail);
      const table = scanned?.[1];
      if (table && GROWING.includes(table)) scans.push(`${step.detail} in: ${q.sql}`);
    }
  }
  return { status: res.status, statements: statements.length, rows, bytes, scans, body: JSON.parse(text) };
}

const rest = { 'X-SERVICE-API-KEY': 'rk_demo_acme', 'X-SERVICE-COMPANY': '1' };
let months: string[] = [];
/**
 * The answers that are lists of programmes hold a page: what they cost is compared per programme
 * (at 1 × a page may hold the seed's few, at 100 × it is full), and a page never holds more than 20.
 */
const LISTS = new Set(['first render, registration', 'first render, calendar', 'programmes, page 2', 'programmes, a search']);
/** Every answer a widget's visitor or a REST client asks for, by name. */
const ANSWERS: Record<string, () => Promise<Cost>> = {
  ...Object.fromEntries(
    ['registration', 'calendar', 'map', 'checkout', 'profile', 'contact', 'video'].map((type) => [
      `first render, ${type}`,
      () => cost(`/widget-api/v1/widget?key=wk_demo_${type}&type=${type}`),
    ]),
  ),
  'programmes, page 2': () => cost('/widget-api/v1/courses?key=wk_demo_registration&page=2'),
  'programmes, a search': () => cost('/widget-api/v1/courses?key=wk_demo_registration&q=berlin'),
  'REST programmes, page 1': () => cost('/v1/courses', { headers: { ...rest, 'X-SERVICE-TOKEN': token } }),
  'a registration': () =>
    cost('/widget-api/v1/registrations?key=wk_demo_registration', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': uniqueKey() },
      body: JSON.stringify(registrationBody({ class_id: 'cls_open_1' })),
    }),
};

describe('a company 100 times the seed', () => {
  const at: Record<number, Record<string, Cost>> = {};
  const monthAt: Record<number, Cost> = {};

  test('measured at 1 × and at 100 × the seed', { timeout: 120_000 }, async () => {
    for (const times of [1, 100]) {
      await reset(times);
      at[times] = {};
      for (const [name, answer] of Object.entries(ANSWERS)) {
        const measured = await answer();
        assert.ok(measured.status < 300, `${name}: ${measured.status} ${JSON.stringify(measured.body)}`);
        at[times]![name] = measured;
      }
      const calendar = await cost('/widget-api/v1/calendar?key=wk_demo_calendar');
      months = [calendar.body.month, calendar.body.next_month].filter(Boolean);
      monthAt[times] = await cost(`/widget-api/v1/calendar?key=wk_demo_calendar&month=${months.at(-1)}`);
    }
  });

  test('the first render shows a page of programmes and says how many there are; the pages after it and a search come from /courses', async () => {
    await reset(100);
    const first = await cost('/widget-api/v1/widget?key=wk_demo_registration&type=registration');
    assert.equal(first.body.courses.length, 20);
    // Every programme of the company counts, those without upcoming classes too (listed with none).
    const [{ n: total }] = file.prepare('select count(*) as n from courses where company_id = 1').all() as { n: number }[];
    assert.equal(first.body.courses_total, total);
    assert.ok(total >= 500, `${total}: 100 times the seed's programmes`);
    const seen = new Set<string>(first.body.courses.map((c: Json) => c.id));
    const last = Math.ceil(first.body.courses_total / 20);
    for (const page of [2, last]) {
      const next = await cost(`/widget-api/v1/courses?key=wk_demo_registration&page=${page}`);
      assert.equal(next.body.page, page);
      assert.equal(next.body.courses_total, first.body.courses_total);
      for (const c of next.body.courses) assert.ok(!seen.has(c.id), `${c.id} is on one page only`);
      for (const c of next.body.courses) seen.add(c.id);
    }
    const beyond = await cost(`/widget-api/v1/courses?key=wk_demo_registration&page=${last + 1}`);
    assert.deepEqual(beyond.body.courses, []);

    // Sorted by their next class, as the first render is: page 2's first comes after page 1's last.
    const nextOf = (c: Json) => c.classes[0]?.starts_at ?? '9999';
    const page2 = (await cost('/widget-api/v1/courses?key=wk_demo_registration&page=2')).body.courses;
    assert.ok(nextOf(first.body.courses.at(-1)) <= nextOf(page2[0]));

    const found = await cost('/widget-api/v1/courses?key=wk_demo_registration&q=TYPESCRIPT');
    assert.equal(found.body.courses_total, 100, 'the seed’s one TypeScript programme, 100 times');
    assert.ok(found.body.courses.every((c: Json) => /typescript/i.test(`${c.title} ${c.summary} ${c.category}`)));
    const wild = await cost('/widget-api/v1/courses?key=wk_demo_registration&q=%25');
    assert.equal(wild.body.courses_total, 0, '% is a character, not a wildcard');
  });

  test('/courses refuses a wrong page, a long search, and keys of other widgets, each with its reason', async () => {
    const page0 = await cost('/widget-api/v1/courses?key=wk_demo_registration&page=0');
    assert.equal(page0.status, 422);
    assert.match(page0.body.error.fields.page, /whole number from 1/);
    const long = await cost(`/widget-api/v1/courses?key=wk_demo_registration&q=${'a'.repeat(101)}`);
    assert.equal(long.status, 422);
    assert.match(long.body.error.fields.q, /at most 100/);
    const map = await cost('/widget-api/v1/courses?key=wk_demo_map');
    assert.equal(map.status, 403);
    assert.equal(map.body.error.code, 'type-mismatch');
    const foreign = await cost('/widget-api/v1/courses?key=wk_demo_registration', {
      headers: { Origin: 'https://evil.example' },
    });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.error.code, 'origin-not-allowed');
  });

  test('no answer reads a whole table that grows', () => {
    for (const [name, c] of Object.entries(at[100]!)) assert.deepEqual(c.scans, [], name);
    assert.deepEqual(monthAt[100]!.scans, [], 'calendar month');
  });

  test('no answer costs more than 3 × at 100 × the data (a list: per programme, a page at most): statements, rows and bytes', () => {
    const over: string[] = [];
    for (const name of Object.keys(ANSWERS)) {
      const one = at[1]![name]!;
      const hundred = at[100]![name]!;
      const list = LISTS.has(name);
      if (list) assert.ok(hundred.body.courses.length <= 20, `${name}: a page`);
      const shown = (c: Cost) => (list ? Math.max(1, c.body.courses.length) : 1);
      for (const measure of ['statements', 'rows', 'bytes'] as const) {
        const per = (c: Cost) => (measure === 'statements' ? c[measure] : c[measure] / shown(c));
        // (A handful is a handful: 3 rows at 1 × may be 9 at 100 ×, or 10.)
        const allowed = Math.max(3 * per(one), measure === 'bytes' ? 1024 : 10);
        if (per(hundred) > allowed) over.push(`${name}: ${measure} ${per(one)} → ${per(hundred)}`);
      }
    }
    assert.deepEqual(over, []);
  });

  test('a calendar month holds its days and a page of its classes, and costs no more than 3 × at 100 ×', async () => {
    const [one, hundred] = [monthAt[1]!, monthAt[100]!];
    assert.equal(hundred.body.classes.length, 20, 'a page');
    assert.equal(hundred.body.classes_total, 100 * one.body.classes_total, 'every class counts');
    const sum = (c: Cost) => c.body.days.reduce((n: number, d: Json) => n + d.classes, 0);
    assert.equal(sum(hundred), hundred.body.classes_total);
    assert.deepEqual(
      hundred.body.days.map((d: Json) => d.date),
      one.body.days.map((d: Json) => d.date),
      'the same days (a copy starts minutes later)',
    );
    // Over 50 programmes are no choice to offer (the list is empty); the places are the seed's.
    assert.ok(one.body.filters.courses.length > 1);
    assert.deepEqual(hundred.body.filters.courses, []);
    assert.deepEqual(hundred.body.filters.locations, one.body.filters.locations);
    const over: string[] = [];
    for (const measure of ['statements', 'rows', 'bytes'] as const) {
      const allowed = Math.max(3 * one[measure], measure === 'bytes' ? 1024 : 10);
      if (hundred[measure] > allowed) over.push(`${measure}: ${one[measure]} → ${hundred[measure]}`);
    }
    assert.deepEqual(over, []);

    // The pages after it, and a day's classes, hold what the month's count says, each class once.
    await reset(100);
    const month = `/widget-api/v1/calendar?key=wk_demo_calendar&month=${months.at(-1)}`;
    const seen = new Set<string>();
    for (let page = 1; page <= Math.ceil(hundred.body.classes_total / 20); page++) {
      const next = await cost(`${month}&page=${page}`);
      assert.equal(next.body.page, page);
      for (const c of next.body.classes) assert.ok(!seen.has(c.id), `${c.id} is on one page only`);
      for (const c of next.body.classes) seen.add(c.id);
      assert.ok(next.statements <= 3 * one.statements && next.bytes <= Math.max(3 * one.bytes, 1024), `page ${page}`);
    }
    assert.equal(seen.size, hundred.body.classes_total);
    const busiest = hundred.body.days.reduce((a: Json, b: Json) => (b.classes > a.classes ? b : a));
    const day = await cost(`${month}&day=${busiest.date}`);
    assert.equal(day.body.classes_total, busiest.classes);
    assert.ok(day.body.classes.every((c: Json) => c.local_date === busiest.date));
    assert.deepEqual(
      day.body.classes.slice(0, 2).map((c: Json) => c.course_title),
      busiest.titles,
      'the day shows the titles of its first two classes',
    );
  });
});

/** An answer as it crosses the wire (fetch would decode it). */
const raw = (path: string, acceptEncoding?: string) =>
  new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(`${service.url}${path}`, {
      headers: { Origin: LOCAL_PAGE, ...(acceptEncoding !== undefined ? { 'Accept-Encoding': acceptEncoding } : {}) },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

describe('compressed answers', () => {
  test('JSON is sent brotli or gzip as the client asks, the same JSON once decoded; small answers and clients that ask for none get it plain', async () => {
    await reset(1);
    const path = '/widget-api/v1/widget?key=wk_demo_registration&type=registration';
    const plain = await raw(path);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(String(plain.headers.vary), /Accept-Encoding/);
    const json = JSON.parse(plain.body.toString('utf8'));

    const br = await raw(path, 'gzip, deflate, br, zstd');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(Number(br.headers['content-length']), br.body.length);
    assert.ok(br.body.length < plain.body.length / 3, `${plain.body.length} B → ${br.body.length} B`);
    assert.deepEqual(JSON.parse(brotliDecompressSync(br.body).toString('utf8')), json);

    const gzip = await raw(path, 'br;q=0, gzip');
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(gunzipSync(gzip.body).toString('utf8')), json);
    assert.equal((await raw(path, 'identity')).headers['content-encoding'], undefined);

    const small = await raw('/widget-api/v1/widget?key=wk_demo_checkout&type=checkout', 'br');
    assert.equal(small.headers['content-encoding'], undefined, 'under 1 KB: sent as it is');
    assert.match(String(small.headers.vary), /Accept-Encoding/);
    // An error is JSON too: compressed when it is worth it, never broken.
    const refused = await raw('/widget-api/v1/widget?key=wk_nope&type=registration', 'br');
    assert.equal(JSON.parse(refused.body.toString('utf8')).error.code, 'invalid-key');
  });
});
