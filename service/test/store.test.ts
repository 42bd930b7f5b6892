/**
 * The store keeps its data: across restarts, a week of clock and migrations; a production start
 * never seeds, drops or re-creates a store; a store that goes missing while the service runs is
 * noticed and never written into.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { sql, type Kysely, type Migration } from 'kysely';
import { Clock } from '../core/clock.ts';
import { localDay } from '../core/time-zones.ts';
import { StoreOpenError, openStore } from '../db/database.ts';
import { MIGRATIONS } from '../db/migrations/index.ts';
import { startService, type RunningService, type StartOptions } from '../server.ts';
import {
  MIGRATIONS_WITH_NOTE,
  openTestCompany,
  registrationBody,
  runSupport,
  supportOn,
  uniqueKey,
  writeHeaders,
  type Json,
} from './helpers.ts';
import { startSmtp } from './smtp.ts';

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-store-'));
  folders.push(dir);
  return dir;
};
after(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const PRODUCTION: StartOptions = { dev: false, publicUrl: 'https://booking.example.com' };
const SHOP = 'https://www.acme.example';

/** A service on `dataDir` whose log lines are kept. */
async function start(dataDir: string, opts: StartOptions = {}): Promise<RunningService & { logged: () => string }> {
  const log = new PassThrough();
  let text = '';
  log.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const service = await startService({ port: 0, dataDir, quiet: false, logDestination: log, logFormat: 'text', ...opts });
  return Object.assign(service, { logged: () => text });
}

/** Company 7, "Old Co", written straight into a store's file (a store of an older schema holds it). */
const OLD_COMPANY =
  "INSERT INTO companies (id, public_id, name, contact_email, vat_rate_bp, prices_include_tax, currency, order_prefix) VALUES (7, 'c_old', 'Old Co', 'old@example.org', 0, 1, 'EUR', 'O')";

/**
 * A store made by the migrations before `migration` (an older version of the service), holding
 * Old Co; the test writes the rest into its file (`db`, closed by the test), then starts it.
 */
async function storeBefore(migration: string) {
  const dataDir = folder();
  const migrations = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < migration));
  await (await openStore(dataDir, new Clock(), { mode: 'development', migrations, seed: false })).close();
  const db = new Database(join(dataDir, 'service.sqlite'));
  db.prepare(OLD_COMPANY).run();
  return { dataDir, db };
}

const read = <T = Json>(dataDir: string, query: string, ...params: unknown[]): T[] => {
  const db = new Database(join(dataDir, 'service.sqlite'), { readonly: true });
  try {
    return db.prepare(query).all(...params) as T[];
  } finally {
    db.close();
  }
};

const post = (service: RunningService, path: string, body: unknown, origin?: string) =>
  fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: writeHeaders(uniqueKey(), origin),
    body: JSON.stringify(body),
  });

/** A production company through the support tool, with a registration and an invoice order in it. */
async function companyWithBookings(dataDir: string, service: RunningService) {
  const company = await openTestCompany(
    { support: supportOn({ DATA_DIR: dataDir, SERVICE_MODE: 'production' }), dataDir },
    { origin: SHOP },
  );
  const { registration, checkout } = company.keys;
  const registered = await post(
    service,
    `/widget-api/v1/registrations?key=${registration}`,
    registrationBody({ class_id: company.paidClass, email: 'kept@example.org' }),
    SHOP,
  );
  assert.equal(registered.status, 201, await registered.clone().text());
  const ordered = await post(
    service,
    `/widget-api/v1/orders?key=${checkout}`,
    {
      items: [{ class_id: company.paidClass, seats: 1, attendees: [{ first_name: 'Grace', last_name: 'Hopper' }] }],
      buyer: {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.org',
        address: { line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' },
      },
      payment_method: 'invoice',
      return_url: `${SHOP}/checkout`,
      consent: true,
    },
    SHOP,
  );
  assert.equal(ordered.status, 201, await ordered.clone().text());
  return {
    company,
    registration: ((await registered.json()) as Json).registration.id as string,
    order: ((await ordered.json()) as Json).order.id as string,
  };
}

describe('a development store', () => {
  test('a restart keeps its data; a week later its classes move forward a week, and nothing is dropped', async () => {
    const dataDir = folder();
    const first = await start(dataDir);
    assert.equal(first.seed.status, 'created');
    assert.equal(
      (
        await post(
          first,
          '/widget-api/v1/registrations?key=wk_demo_registration',
          registrationBody({ email: 'kept@example.org' }),
        )
      ).status,
      201,
    );
    await first.close();

    const second = await start(dataDir);
    assert.equal(second.seed.status, 'kept');
    await second.close();
    const [before] = read(dataDir, "SELECT starts_at, local_day FROM classes WHERE id = 'cls_web_2'");

    // Eight days later (the seed's date, as a week of the clock leaves it).
    const db = new Database(join(dataDir, 'service.sqlite'));
    db.prepare("UPDATE meta SET v = ? WHERE k = 'seeded_at'").run(String(Date.now() - 8 * 86400_000));
    db.close();
    const third = await start(dataDir);
    assert.deepEqual([third.seed.status, third.seed.weeks], ['moved', 1]);
    assert.match(third.logged(), /its classes moved 1 week forward/);
    await third.close();
    const [moved] = read(dataDir, "SELECT starts_at, local_day FROM classes WHERE id = 'cls_web_2'");
    assert.equal(moved.starts_at - before.starts_at, 7 * 86400_000, 'a whole week, so the class keeps its weekday');
    assert.equal(moved.local_day - before.local_day, 7, 'and its day at the venue moves with it');
    for (const cl of read(dataDir, 'SELECT id, starts_at, timezone, local_day FROM classes'))
      assert.equal(cl.local_day, localDay(cl.starts_at, cl.timezone), `${cl.id}: the day it starts on at its venue`);
    assert.equal(
      read(dataDir, "SELECT id FROM registrations WHERE email = 'kept@example.org'").length,
      1,
      'the registration is kept',
    );
  });

  test('a store from before migrations: schema version 8 is taken with its data, an older one is seeded anew', async () => {
    const dataDir = folder();
    // The last schema before migrations is the first migration's: a store of it, without the migration table.
    const v8 = await openStore(dataDir, new Clock(), {
      mode: 'development',
      migrations: { '0001-initial': MIGRATIONS['0001-initial']! },
      seed: false,
    });
    await v8.close();
    const db = new Database(join(dataDir, 'service.sqlite'));
    db.exec('DROP TABLE schema_migrations; DROP TABLE schema_migrations_lock');
    db.prepare("INSERT INTO meta (k, v) VALUES ('schema_version', '8'), ('seeded_at', ?)").run(String(Date.now()));
    db.prepare(OLD_COMPANY).run();
    db.close();

    const taken = await start(dataDir);
    assert.deepEqual(taken.migrated, Object.keys(MIGRATIONS));
    assert.equal(taken.seed.status, 'kept', 'a store with data is not seeded over');
    await taken.close();
    assert.deepEqual(read(dataDir, 'SELECT name FROM companies'), [{ name: 'Old Co' }]);

    // Version 5: its data was the demo seed, which comes again.
    const older = folder();
    const old = new Database(join(older, 'service.sqlite'));
    old.exec(
      "CREATE TABLE meta (k TEXT PRIMARY KEY, v TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', '5'); CREATE TABLE classes (id TEXT)",
    );
    old.close();
    await assert.rejects(start(older, PRODUCTION), /schema version 5 from before migrations/);
    const seeded = await start(older);
    assert.equal(seeded.seed.status, 'created');
    await seeded.close();
  });
});

describe('a production store', () => {
  test('a new store is empty: no demo company, key or credential, and /dev is not served', async () => {
    const dataDir = folder();
    const service = await start(dataDir, PRODUCTION);
    try {
      assert.equal(service.seed.status, 'new');
      assert.equal(read(dataDir, 'SELECT id FROM companies').length, 0);
      assert.equal(read(dataDir, 'SELECT key FROM widget_keys').length, 0);
      const login = await fetch(`${service.url}/v1/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': 'rk_demo_acme' },
        body: JSON.stringify({ login: 'olivia@acme.example', verification_method: 'pin' }),
      });
      assert.equal(login.status, 401, 'the README’s demo REST key is no key here');
      assert.equal((await fetch(`${service.url}/dev/seed`)).status, 404);
      assert.equal((await fetch(`${service.url}/demo/`)).status, 404);
    } finally {
      await service.close();
    }
    // A restart finds it as it was: still empty, never seeded.
    const again = await start(dataDir, PRODUCTION);
    assert.equal(again.seed.status, 'empty');
    await again.close();
    assert.equal(read(dataDir, 'SELECT id FROM companies').length, 0);
  });

  test('migration 0007 gives each class of an older store the day it starts on at its venue', async () => {
    const { dataDir, db } = await storeBefore('0007');
    db.prepare("INSERT INTO courses (id, company_id, title, summary, category) VALUES ('crs_old', 7, 'Old', '', '')").run();
    const insert = db.prepare(
      "INSERT INTO classes (id, course_id, starts_at, ends_at, timezone, location, price_amount, currency, capacity, waitlist, waitlist_capacity) VALUES (?, 'crs_old', ?, ?, ?, 'Here', 0, 'EUR', 5, 0, NULL)",
    );
    // 23:30 UTC on 31 January is 1 February in Berlin; 03:00 UTC on 1 March is still 28 February in Chicago.
    const berlin = Date.UTC(2027, 0, 31, 23, 30);
    const chicago = Date.UTC(2027, 2, 1, 3);
    insert.run('cls_berlin', berlin, berlin + 3_600_000, 'Europe/Berlin');
    insert.run('cls_chicago', chicago, chicago + 3_600_000, 'America/Chicago');
    db.close();

    const migrated = await start(dataDir);
    assert.ok(migrated.migrated.includes('0007-class-local-day'));
    await migrated.close();
    const day = (date: string) => Date.parse(date) / 86_400_000;
    assert.deepEqual(read(dataDir, 'SELECT id, local_day FROM classes ORDER BY id'), [
      { id: 'cls_berlin', local_day: day('2027-02-01') },
      { id: 'cls_chicago', local_day: day('2027-02-28') },
    ]);
  });

  test('migration 0008 makes each widget key of an older store a widget: an id in the order they were made, a name of its type', async () => {
    const { dataDir, db } = await storeBefore('0008');
    const insert = db.prepare(
      "INSERT INTO widget_keys (key, company_id, type, origins, options, enabled, revoked_at, note, created_at) VALUES (?, 7, ?, '[\"https://old.example\"]', '{}', 1, NULL, '', ?)",
    );
    insert.run('wk_second', 'map', 2000);
    insert.run('wk_first', 'calendar', 1000);
    db.close();

    const migrated = await start(dataDir);
    assert.ok(migrated.migrated.includes('0008-widgets'));
    await migrated.close();
    assert.deepEqual(read(dataDir, 'SELECT key, id, name FROM widget_keys ORDER BY id'), [
      { key: 'wk_first', id: 1, name: 'Calendar' },
      { key: 'wk_second', id: 2, name: 'Map' },
    ]);
  });

  test('a migration that adds a column keeps every order and registration; a restart keeps them too', async () => {
    const dataDir = folder();
    const first = await start(dataDir, PRODUCTION);
    const made = await companyWithBookings(dataDir, first);
    await first.close();
    const before = {
      registrations: read(dataDir, 'SELECT * FROM registrations ORDER BY id'),
      orders: read(dataDir, 'SELECT * FROM orders ORDER BY id'),
      participants: read(dataDir, 'SELECT * FROM participants ORDER BY id'),
    };
    assert.ok(before.registrations.some((r) => r.id === made.registration));
    assert.ok(before.orders.some((o) => o.id === made.order));

    const migrated = await start(dataDir, { ...PRODUCTION, migrations: MIGRATIONS_WITH_NOTE });
    assert.deepEqual(migrated.migrated, ['0099-registration-note']);
    assert.match(migrated.logged(), /Migrated the store: 0099-registration-note/);
    // The service goes on with its data: the order is found with its token-less REST view too.
    await migrated.close();
    const after = {
      registrations: read(dataDir, 'SELECT * FROM registrations ORDER BY id'),
      orders: read(dataDir, 'SELECT * FROM orders ORDER BY id'),
      participants: read(dataDir, 'SELECT * FROM participants ORDER BY id'),
    };
    assert.deepEqual(
      after.registrations,
      before.registrations.map((r) => ({ ...r, note: '' })),
    );
    assert.deepEqual(after.orders, before.orders);
    assert.deepEqual(after.participants, before.participants);

    // Started again, nothing is migrated twice; an older version of the service, which lacks the
    // store's newest migration, refuses the store rather than misread it.
    const again = await start(dataDir, { ...PRODUCTION, migrations: MIGRATIONS_WITH_NOTE });
    assert.deepEqual(again.migrated, []);
    await again.close();
    await assert.rejects(
      start(dataDir, PRODUCTION),
      (err: Error) =>
        err instanceof StoreOpenError &&
        /migrated by a newer version of the service \(its migration 0099-registration-note is unknown/.test(err.message),
    );
    assert.deepEqual(read(dataDir, 'SELECT * FROM orders ORDER BY id'), before.orders);
  });

  test('a migration that fails leaves the store as it was, and the start says which one', async () => {
    const dataDir = folder();
    const first = await start(dataDir, PRODUCTION);
    await companyWithBookings(dataDir, first);
    await first.close();
    const broken: Record<string, Migration> = {
      ...MIGRATIONS,
      '0099-broken': {
        async up(db: Kysely<unknown>) {
          await db.schema.alterTable('orders').addColumn('half_done', 'text').execute();
          await sql`UPDATE orders SET half_done = 'yes'`.execute(db);
          throw new Error('this migration stops half way');
        },
      },
    };
    await assert.rejects(start(dataDir, { ...PRODUCTION, migrations: broken }), (err: Error) => {
      assert.ok(err instanceof StoreOpenError);
      assert.match(err.message, /migration 0099-broken failed/);
      assert.match(err.message, /this migration stops half way/);
      return true;
    });
    const columns = read<{ name: string }>(dataDir, 'PRAGMA table_info(orders)').map((c) => c.name);
    assert.ok(!columns.includes('half_done'), 'nothing of the failed migration stays');
    const service = await start(dataDir, PRODUCTION);
    assert.deepEqual(service.migrated, []);
    await service.close();
    assert.equal(read(dataDir, 'SELECT id FROM orders').length, 1);
  });

  test('a backup taken while the service runs restores every order and registration', async () => {
    const dataDir = folder();
    const service = await start(dataDir, PRODUCTION);
    const backup = join(folder(), 'backup.sqlite');
    try {
      await companyWithBookings(dataDir, service);
      const { code, out, err } = await runSupport(['store', 'backup', backup, '--json'], { DATA_DIR: dataDir });
      assert.equal(code, 0, err);
      assert.equal(JSON.parse(out).file, backup);
      const again = await runSupport(['store', 'backup', backup], { DATA_DIR: dataDir });
      assert.equal(again.code, 1);
      assert.match(again.err, /exists already: name a new file/);
    } finally {
      await service.close();
    }
    const kept = read(dataDir, 'SELECT id, status FROM orders UNION ALL SELECT id, status FROM registrations ORDER BY id');
    assert.ok(kept.length >= 2, 'the order, its seat and the registration');
    // Restored as the tool says: the store's files replaced by the copy.
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, `service.sqlite${suffix}`), { force: true });
    copyFileSync(backup, join(dataDir, 'service.sqlite'));
    const restored = await start(dataDir, PRODUCTION);
    await restored.close();
    assert.deepEqual(
      read(dataDir, 'SELECT id, status FROM orders UNION ALL SELECT id, status FROM registrations ORDER BY id'),
      kept,
    );
  });

  test('a store belongs to its mode: development never opens a production store, production never a development one', async () => {
    const production = folder();
    await (await start(production, PRODUCTION)).close();
    await assert.rejects(
      start(production),
      /belongs to a production service: development mode \(its demo seed, \/dev\/reset\) would overwrite it/,
    );
    const byTool = await runSupport(['company', 'list', '--development'], { DATA_DIR: production });
    assert.equal(byTool.code, 1);
    assert.match(byTool.err, /belongs to a production service/);

    const development = folder();
    await (await start(development)).close();
    await assert.rejects(
      start(development, PRODUCTION),
      /is a development store: it holds the demo's published keys and secrets/,
    );
  });

  test('a start never makes a new store over a missing one, nor over a missing folder', async () => {
    await assert.rejects(
      start(join(folder(), 'not-there'), PRODUCTION),
      /DATA_DIR .*not-there does not exist: create the folder/,
    );

    const dataDir = folder();
    const first = await start(dataDir, PRODUCTION);
    await companyWithBookings(dataDir, first);
    await first.close();
    unlinkSync(join(dataDir, 'service.sqlite'));
    await assert.rejects(
      start(dataDir, PRODUCTION),
      /is missing, but this folder held one \(store\.json\)\. Restore it from a backup/,
    );
    assert.ok(!existsSync(join(dataDir, 'service.sqlite')), 'no new, empty store was made');
  });

  test('a store deleted while the service runs: readiness fails, writes are refused with 503, nothing is written into the deleted file', async () => {
    const dataDir = folder();
    const service = await start(dataDir, PRODUCTION);
    try {
      const made = await companyWithBookings(dataDir, service);
      const keys = read<{ key: string; type: string }>(dataDir, 'SELECT key, type FROM widget_keys');
      const registrationKey = keys.find((k) => k.type === 'registration')!.key;
      assert.equal((await fetch(`${service.url}/readyz`)).status, 200);

      for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, `service.sqlite${suffix}`), { force: true });
      const ready = await fetch(`${service.url}/readyz`);
      assert.equal(ready.status, 503);
      assert.equal(((await ready.json()) as Json).error.code, 'not-ready');
      assert.equal((await fetch(`${service.url}/healthz`)).status, 200, 'the process still answers');

      // A REST sign-in by client secret writes a token outside any transaction: refused too.
      const signIn = await fetch(`${service.url}/v1/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': made.company.api_key },
        body: JSON.stringify({
          login: made.company.owner_email,
          verification_method: 'client_secret',
          client_secret: made.company.client_secret,
        }),
      });
      assert.equal(signIn.status, 503);
      const refused = await post(
        service,
        `/widget-api/v1/registrations?key=${registrationKey}`,
        registrationBody({ class_id: made.company.paidClass, email: 'lost@example.org' }),
        SHOP,
      );
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '30');
      const body = (await refused.json()) as Json;
      assert.equal(body.error.code, 'unavailable');
      assert.match(body.error.message, /Nothing was changed: try again in a few minutes/);
      assert.match(service.logged(), /the store cannot be written[\s\S]*was deleted or replaced while the service ran/);
    } finally {
      await service.close();
    }
    mkdirSync(dataDir, { recursive: true });
    await assert.rejects(start(dataDir, PRODUCTION), /Restore it from a backup/);
  });

  test('mail queued before the store was deleted is not sent again and again into the void', async () => {
    const smtp = await startSmtp();
    const dataDir = folder();
    const service = await start(dataDir, { smtp: { url: smtp.url, from: 'bookings@example.com' } });
    try {
      smtp.mode = 'refuse';
      const registered = await post(
        service,
        '/widget-api/v1/registrations?key=wk_demo_registration',
        registrationBody({ email: 'queued@example.org' }),
      );
      assert.equal(registered.status, 201);
      await service.mail.run(); // refused once: due again in 30 s
      // Due now, and the store gone, in one step (no round of the worker can come in between).
      const db = new Database(join(dataDir, 'service.sqlite'));
      db.prepare('UPDATE outbox SET next_attempt_at = 0').run();
      db.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, `service.sqlite${suffix}`), { force: true });
      smtp.mode = 'accept';
      await service.mail.run();
      await service.mail.run();
      assert.equal(smtp.received.length, 0, 'a message whose sending cannot be written down is not sent');
    } finally {
      await service.close();
      await smtp.close();
    }
  });

  test('the purge of old idempotency records on every write reads by an index, not the whole table', async () => {
    const dataDir = folder();
    await (await start(dataDir)).close();
    const plan = read<{ detail: string }>(dataDir, 'EXPLAIN QUERY PLAN DELETE FROM idempotency WHERE created_at <= 0').map(
      (r) => r.detail,
    );
    assert.deepEqual(plan, ['SEARCH idempotency USING INDEX idempotency_created (created_at<?)']);
  });
});
