/**
 * The store on PostgreSQL (`DATABASE_URL`): the same migrations as SQLite's, applied at start and
 * kept across restarts; a migration that fails leaves the database as it was; a production store is
 * never seeded and never opened in development; several processes share it. `npm test`
 * runs this in its PostgreSQL round (SERVICE_TEST_DATABASE_URL names the server).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Kysely, Migrator, type Migration } from 'kysely';
import pg from 'pg';
import { postgresDialect, postgresPool } from '../../db/dialect.ts';
import { MIGRATIONS } from '../../db/migrations/index.ts';
import { startService, type StartOptions } from '../../server.ts';
import {
  TEST_POSTGRES,
  freshDatabase,
  openTestCompany,
  registrationBody,
  runSupport,
  supportOn,
  uniqueKey,
  writeHeaders,
  type Json,
  MIGRATIONS_WITH_NOTE,
} from '../helpers.ts';

if (!TEST_POSTGRES)
  throw new Error('These tests need a PostgreSQL server: SERVICE_TEST_DATABASE_URL=postgres://… (npm test finds or starts one).');

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});
const database = async () => {
  const db = await freshDatabase();
  cleanups.push(() => db.drop());
  return db.url;
};
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-pg-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const query = async <T = Json>(url: string, sql: string): Promise<T[]> => {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
};

const PRODUCTION = (databaseUrl: string, more: StartOptions = {}): StartOptions => ({
  port: 0,
  dataDir: folder(),
  databaseUrl,
  dev: false,
  quiet: true,
  publicUrl: 'https://booking.example.com',
  ...more,
});

describe('a production store on PostgreSQL', () => {
  test('made by the migrations, never seeded; support’s company and a registration outlive a restart and a new migration', async () => {
    const plain = new URL(await database());
    plain.password = 's3cret-word'; // (trust authentication takes any)
    const url = plain.href;
    const first = await startService(PRODUCTION(url));
    assert.deepEqual(first.seed.status, 'new');
    assert.deepEqual(first.migrated, Object.keys(MIGRATIONS));
    assert.ok(!first.dataFile.includes('s3cret-word'), `no password shown: ${first.dataFile}`);
    const env = { DATABASE_URL: url, DATA_DIR: folder() };
    const support = supportOn(env);
    try {
      assert.deepEqual(await query(url, 'select id from companies'), []);
      const company = await openTestCompany({ support, dataDir: env.DATA_DIR }, { types: ['registration'] });
      const key = company.keys.registration;
      const registered = await fetch(`${first.url}/widget-api/v1/registrations?key=${key}`, {
        method: 'POST',
        headers: writeHeaders(uniqueKey(), 'https://www.acme.example'),
        body: JSON.stringify(registrationBody({ class_id: company.freeClass, email: 'kept@example.org' })),
      });
      assert.equal(registered.status, 201, await registered.clone().text());
      // Coordinates keep their digits (a double, not PostgreSQL's 4-byte real).
      assert.deepEqual(await query(url, 'select lat, lng from places'), [{ lat: 52.5290123, lng: 13.4011234 }]);
    } finally {
      await first.close();
    }

    const second = await startService(PRODUCTION(url, { migrations: MIGRATIONS_WITH_NOTE }));
    assert.deepEqual(second.migrated, ['0099-registration-note']);
    assert.equal(second.seed.status, 'empty');
    await second.close();
    assert.deepEqual(await query(url, "select email, status, note from registrations where email = 'kept@example.org'"), [
      { email: 'kept@example.org', status: 'confirmed', note: '' },
    ]);
  });

  test('a migration that fails leaves the database as it was', async () => {
    const url = await database();
    await (await startService(PRODUCTION(url))).close();
    const broken: Record<string, Migration> = {
      ...MIGRATIONS,
      '0099-broken': {
        async up(db: Kysely<unknown>) {
          await db.schema.alterTable('orders').addColumn('half_done', 'text').execute();
          throw new Error('this migration stops half way');
        },
      },
    };
    await assert.rejects(
      startService(PRODUCTION(url, { migrations: broken })),
      /migration 0099-broken failed\): this migration stops half way/,
    );
    assert.deepEqual(
      await query(
        url,
        "select column_name from information_schema.columns where table_name = 'orders' and column_name = 'half_done'",
      ),
      [],
    );
    await (await startService(PRODUCTION(url))).close();
    // Backups of a PostgreSQL store are pg_dump's: the tool says so rather than copy a file.
    const backup = await runSupport(['store', 'backup', join(folder(), 'b.sqlite')], { DATABASE_URL: url, DATA_DIR: folder() });
    assert.equal(backup.code, 1);
    assert.match(backup.err, /backed up with pg_dump/);
  });

  test('several processes share one database; development never opens a production store', async () => {
    const url = await database();
    const first = await startService(PRODUCTION(url));
    const second = await startService(PRODUCTION(url));
    try {
      assert.equal(second.seed.status, 'empty', 'the second finds the first one’s store');
      assert.equal((await fetch(`${second.url}/readyz`)).status, 200);
    } finally {
      await second.close();
      await first.close();
    }
    await assert.rejects(startService({ ...PRODUCTION(url), dev: true }), /belongs to a production service: development mode/);
  });
});

describe('a development store on PostgreSQL', () => {
  test('seeded once when empty, reset to the seed, and the demo answers', async () => {
    const url = await database();
    const service = await startService({ port: 0, dataDir: folder(), databaseUrl: url, quiet: true });
    try {
      assert.equal(service.seed.status, 'created');
      const widget = await fetch(`${service.url}/widget-api/v1/widget?key=wk_demo_registration&type=registration`, {
        headers: { Origin: 'http://localhost:5173' },
      });
      assert.equal(widget.status, 200);
      const before = await query(url, 'select count(*)::int as n from registrations');
      assert.equal(
        (
          await fetch(`${service.url}/widget-api/v1/registrations?key=wk_demo_registration`, {
            method: 'POST',
            headers: writeHeaders(uniqueKey()),
            body: JSON.stringify(registrationBody()),
          })
        ).status,
        201,
      );
      const reset = await fetch(`${service.url}/dev/reset`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
      assert.equal(reset.status, 200);
      assert.deepEqual(await query(url, 'select count(*)::int as n from registrations'), before);
    } finally {
      await service.close();
    }
  });

  test('a store migrated a moment ago by a process starting beside it, before it wrote its mode, is a new store', async () => {
    const url = await database();
    // What a second process saw between the first one's migrations and its mode (the start of two
    // processes at once failed with "belongs to a production service" when it looked then).
    const db = new Kysely<unknown>({ dialect: postgresDialect(postgresPool(url)) });
    try {
      const migrator = new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve(MIGRATIONS) },
        migrationTableName: 'schema_migrations',
        migrationLockTableName: 'schema_migrations_lock',
      });
      const { error } = await migrator.migrateToLatest();
      assert.equal(error, undefined);
    } finally {
      await db.destroy();
    }
    const service = await startService({ port: 0, dataDir: folder(), databaseUrl: url, quiet: true });
    try {
      assert.equal(service.seed.status, 'created');
      assert.deepEqual(await query(url, "select v from meta where k = 'mode'"), [{ v: 'development' }]);
    } finally {
      await service.close();
    }
  });

  test('two development processes started at once on an empty database both start, again and again', async () => {
    for (let round = 0; round < 4; round++) {
      const url = await database();
      const started = await Promise.allSettled(
        [0, 1].map(() => startService({ port: 0, dataDir: folder(), databaseUrl: url, quiet: true })),
      );
      for (const s of started) if (s.status === 'fulfilled') await s.value.close();
      assert.deepEqual(
        started.map((s) => (s.status === 'fulfilled' ? 'started' : String(s.reason))),
        ['started', 'started'],
      );
      assert.deepEqual(await query<{ n: number }>(url, 'select count(*)::int as n from companies'), [{ n: 2 }], 'seeded once');
    }
  });

  test('a reset brings the planner’s statistics up to date: a grown company is planned as the rows it has', async () => {
    const url = await database();
    const service = await startService({ port: 0, dataDir: folder(), databaseUrl: url, quiet: true });
    try {
      const reset = await fetch(`${service.url}/dev/reset`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ times: 20 }),
      });
      assert.equal(reset.status, 200);
      // What the planner believes of the classes (pg_class.reltuples) is what they hold: without a
      // new ANALYZE it is still the seed's (autovacuum comes a minute later, or never for a test).
      const [{ n, planned }] = await query<{ n: number; planned: number }>(
        url,
        "select (select count(*)::int from classes) as n, (select reltuples::int from pg_class where relname = 'classes') as planned",
      );
      assert.ok(n > 100, `the classes grew (${n})`);
      assert.equal(planned, n);
    } finally {
      await service.close();
    }
  });
});
