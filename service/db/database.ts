/**
 * The service's store: one SQLite file (better-sqlite3) behind Kysely. Its schema is the migrations
 * of `migrations/` (Kysely's Migrator), applied at open: a schema change migrates the data, never
 * drops it. A development store is seeded with the demo data when it is empty (and on
 * `POST /dev/reset`); when its seed is older than a week its classes move forward by whole weeks, so
 * that the demo keeps upcoming classes and nothing is dropped. A production store is never seeded.
 */
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, Migrator, sql, type CompiledQuery, type LogEvent, type Migration, type Transaction } from 'kysely';
import type { Clock } from '../core/clock.ts';
import type { CoreTables } from '../core/tables.ts';
import type { DomainTables } from '../domain/tables.ts';
import type { CatalogTables } from '../features/catalog/tables.ts';
import type { CheckoutTables } from '../features/checkout/tables.ts';
import type { ContactTables } from '../features/contact/tables.ts';
import type { ParticipantTables } from '../features/participants/tables.ts';
import type { PlaceTables } from '../features/places/tables.ts';
import type { RegistrationTables } from '../features/registrations/tables.ts';
import type { RestTables } from '../features/rest/tables.ts';
import type { VideoTables } from '../features/videos/tables.ts';
import pg from 'pg';
import { postgresDialect, postgresPool, sqliteDialect, type DialectName } from './dialect.ts';
import { correctLocalDays, growStore } from './grow.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { seed } from './seed.ts';

export type Tables = CoreTables &
  CatalogTables &
  DomainTables &
  ParticipantTables &
  RegistrationTables &
  CheckoutTables &
  ContactTables &
  RestTables &
  VideoTables &
  PlaceTables;

/** The query builder over every table; a transaction is one too. */
export type Db = Kysely<Tables>;
export type Tx = Transaction<Tables>;

/** The last schema version of the files made before migrations: the first migration's schema. */
const PRE_MIGRATION_VERSION = 8;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** The advisory lock of a PostgreSQL store's migrations at open. */
const OPEN_LOCK = 72_010_003;
/** Beside the store: written when a store is created, so that a store gone missing is told from a new folder. */
const MARKER = 'store.json';

export interface SeedState {
  /**
   * created: a new development store, seeded now; kept: its seed is fresh; moved: its classes moved
   * forward by `weeks`; empty: a production store (never seeded); new: a new production store.
   */
  status: 'created' | 'kept' | 'moved' | 'empty' | 'new';
  weeks?: number;
  seededAt: number;
}

/** The store cannot be used (its file is gone, it is read-only or full): writes answer 503. */
export class StoreUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailable';
  }
}

/** A store that refuses to open, saying why and what to do. */
export class StoreOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreOpenError';
  }
}

export interface Store {
  db: Db;
  dialect: DialectName;
  file: string;
  seedState: SeedState;
  /** A random secret of this store (signs form tokens, media links, order tokens); kept across resets. */
  secret: string;
  /** The migrations applied at this open, by name (none when the store was up to date). */
  migrated: string[];
  /**
   * Runs `work` in one transaction: every read and write in it sees one state and commits together
   * or not at all (on SQLite it holds the write lock from its start). Refused (StoreUnavailable)
   * when the store's file is gone.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Whether the store answers and is the file it opened: what `/readyz` tells. */
  check(): Promise<void>;
  /** Empties every table and seeds again, relative to the clock's current time (development only). */
  /** Development: every row goes, then the seed comes again (`times` over: db/grow.ts). */
  reset(times?: number): Promise<void>;
  /**
   * A consistent copy of the whole store into a new file, taken while the service runs (SQLite's
   * online backup): what `npm run support -- store backup FILE` does.
   */
  backup(to: string): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Development seeds an empty store with the demo; production never seeds. */
  mode: 'development' | 'production';
  /** The schema's migrations (tests add one). */
  migrations?: Record<string, Migration>;
  /** Seed an empty development store with the demo (default: in development; the support tool never does). */
  seed?: boolean;
  /**
   * The service's own open of a SQLite store: one process at a time (`service.pid` beside it), since
   * its rate limits live in the process's memory. The support tool opens it beside. (On PostgreSQL
   * every process shares the store, the limits and the clock.)
   */
  exclusive?: boolean;
  /** Whether a store may be made where there is none (default: yes; the support tool: never, a typo in DATA_DIR would get one). */
  create?: boolean;
  /** A PostgreSQL database (`postgres://…`) instead of the SQLite file in the data folder. */
  databaseUrl?: string;
  /** Told every statement the store runs, as it runs it (the growth test reads what a request asks). */
  onQuery?: (query: CompiledQuery) => void;
}

/** What a store needs of its database: the query builder and what differs between SQLite and PostgreSQL. */
interface Backend {
  db: Db;
  dialect: DialectName;
  /** The SQLite file, or the database's URL without its password. */
  file: string;
  /** Whether the store was created at this open (no schema yet). */
  created: boolean;
  /** Throws StoreUnavailable when the store must not be written (its file is gone). */
  ensure(): void;
  backup(to: string): Promise<void>;
  /** Deletes every row of these tables in `tx`, whatever their foreign keys. */
  empty(tx: Tx, tables: string[]): Promise<void>;
  /**
   * After the store's rows were replaced at once (a reset): what the planner knows of them is made
   * new. PostgreSQL plans by its statistics, which autovacuum brings up to date only a while later:
   * until then it plans a grown company as the seed's few rows (a map's places took 8 ms each, not
   * 0.1). SQLite plans by its indexes alone: nothing to do.
   */
  refreshStatistics(tables: string[]): Promise<void>;
  /** Lets go of what the open took (the process's claim on a SQLite store). */
  release(): void;
  /** Runs `work` while no other process opening the store does (one process per SQLite store already). */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
}

/** The SQLite file of a data folder, with its checks: a production folder must exist and never loses its store unnoticed. */
async function openSqlite(
  dataDir: string,
  clock: Clock,
  production: boolean,
  exclusive: boolean,
  onQuery?: (query: CompiledQuery) => void,
): Promise<Backend> {
  const file = join(dataDir, 'service.sqlite');
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) {
    throw new StoreOpenError(`DATA_DIR ${dataDir} is a file, not a folder: name the folder the store lives in.`);
  }
  if (production) {
    if (!existsSync(dataDir)) {
      throw new StoreOpenError(`DATA_DIR ${dataDir} does not exist: create the folder (it holds the store), then start again.`);
    }
    if (!existsSync(file) && existsSync(join(dataDir, MARKER))) {
      throw new StoreOpenError(
        `The store ${file} is missing, but this folder held one (${MARKER}). Restore it from a backup; to start a new, empty store instead, remove ${join(dataDir, MARKER)}.`,
      );
    }
  } else {
    mkdirSync(dataDir, { recursive: true });
  }
  const created = !existsSync(file);
  if (created && production && readdirSync(dataDir).some((name) => name.startsWith('service.sqlite'))) {
    throw new StoreOpenError(
      `The store ${file} is missing but its journal (service.sqlite-wal, -shm) is there: restore the store from a backup; to start a new, empty store instead, delete the journal files and ${MARKER}.`,
    );
  }

  const pidFile = join(dataDir, 'service.pid');
  let raw: Sqlite.Database;
  try {
    // SQLite opens a file it may not write read-only, without a word: asked first.
    for (const path of [dataDir, ...(existsSync(file) ? [file] : [])]) accessSync(path, constants.W_OK);
    raw = new Sqlite(file);
    raw.pragma('journal_mode = WAL');
    raw.pragma('busy_timeout = 5000');
    raw.pragma('foreign_keys = ON');
    raw.pragma('synchronous = NORMAL');
    // lower() of every letter, as PostgreSQL's (SQLite's own lowers A–Z only): a search for
    // "ärztehaus" finds "Ärztehaus".
    raw.function('lower', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.toLowerCase() : text));
    // A store that opens but cannot be written (a read-only file) is no store to serve from.
    if (raw.readonly) throw Object.assign(new Error('the file is read-only'), { code: 'SQLITE_READONLY' });
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    const writable = (() => {
      try {
        accessSync(dataDir, constants.W_OK);
        return true;
      } catch {
        return false;
      }
    })();
    throw new StoreOpenError(
      `The store ${file} cannot be opened for writing (${code || (err as Error).message}: ${(err as Error).message}). ${
        writable
          ? 'Check that the file and its folder belong to the service’s user and the disk is not full.'
          : `DATA_DIR ${dataDir} is read-only: make it writable (is the disk mounted read-only?).`
      }`,
      { cause: err },
    );
  }
  if (exclusive) {
    try {
      claimStore(pidFile, file);
    } catch (err) {
      raw.close();
      throw err;
    }
  }
  const identity = () => {
    const info = statSync(file, { throwIfNoEntry: false });
    return info ? `${info.dev}:${info.ino}` : undefined;
  };
  const opened = identity();
  if (created) writeFileSync(join(dataDir, MARKER), `${JSON.stringify({ created_at: new Date(clock.now()).toISOString() })}\n`);
  /** The file the store opened, still there: a file deleted (or replaced) while running is never written into. */
  const ensureFile = () => {
    if (identity() !== opened) {
      throw new StoreUnavailable(
        `The store ${file} was deleted or replaced while the service ran: it no longer writes into it. Restore the file and restart the service.`,
      );
    }
  };
  const db = new Kysely<Tables>({ dialect: sqliteDialect(raw, ensureFile), ...queryLog(onQuery) });

  return {
    db,
    dialect: 'sqlite',
    file,
    created,
    ensure: ensureFile,
    release() {
      if (exclusive) rmSync(pidFile, { force: true });
    },
    exclusively: (work) => work(),
    async backup(to) {
      ensureFile();
      if (existsSync(to)) throw new StoreOpenError(`${to} exists already: name a new file for the backup.`);
      await raw.backup(to);
    },
    async empty(tx, tables) {
      // Checked at the commit, not per table.
      await sql`PRAGMA defer_foreign_keys = ON`.execute(tx);
      for (const table of tables) await tx.deleteFrom(table as keyof Tables).execute();
    },
    refreshStatistics: async () => {},
  };
}

/** A PostgreSQL database: it must answer at start; its schema is the same migrations'. */
async function openPostgres(url: string, onQuery?: (query: CompiledQuery) => void): Promise<Backend> {
  let shown = url;
  try {
    const parsed = new URL(url);
    parsed.password = parsed.password ? '***' : '';
    shown = parsed.href;
  } catch {
    throw new StoreOpenError('DATABASE_URL must be a URL such as postgres://booking:password@db.example.com:5432/booking.');
  }
  const pool = postgresPool(url);
  const db = new Kysely<Tables>({ dialect: postgresDialect(pool), ...queryLog(onQuery) });
  let created: boolean;
  try {
    const tables = await db.introspection.getTables();
    created = !tables.some((t) => t.name === 'schema_migrations');
  } catch (err) {
    await db.destroy();
    throw new StoreOpenError(
      `The database ${shown} does not answer: ${(err as Error).message}. Check DATABASE_URL, and that the server runs.`,
      { cause: err },
    );
  }
  return {
    db,
    dialect: 'postgres',
    file: shown,
    created,
    ensure: () => {},
    release: () => {},
    async exclusively(work) {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => {});
      await client.connect();
      try {
        await client.query(`select pg_advisory_lock(${OPEN_LOCK})`);
        return await work();
      } finally {
        await client.end(); // ends the session, and its lock
      }
    },
    backup() {
      throw new StoreOpenError(
        'A PostgreSQL store is backed up with pg_dump (pg_dump --format=custom DATABASE_URL > FILE), not by this tool.',
      );
    },
    async empty(tx, tables) {
      // Row by row, each table after those that refer to it: a TRUNCATE made new files for every
      // table and index, 75 to 110 ms of each reset of the seed's few rows. Numbers go on counting,
      // as SQLite's do. Only a development reset empties a store: its commit need not wait for the disk.
      await sql`set local synchronous_commit = off`.execute(tx);
      const refs = (
        await sql<{ child: string; parent: string }>`select conrelid::regclass::text as child, confrelid::regclass::text as parent
          from pg_constraint where contype = 'f' and conrelid <> confrelid`.execute(tx)
      ).rows;
      for (let left = [...tables]; left.length;) {
        const free = left.filter((t) => !refs.some((r) => r.parent === t && r.child !== t && left.includes(r.child)));
        if (!free.length) throw new Error(`The tables ${left.join(', ')} refer to each other: they cannot be emptied in turn.`);
        for (const table of free) await tx.deleteFrom(table as keyof Tables).execute();
        left = left.filter((t) => !free.includes(t));
      }
    },
    async refreshStatistics(tables) {
      // These tables only: the whole database's (its catalogs too) took 80 to 150 ms of each reset.
      if (tables.length) await sql`analyze ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
    },
  };
}

export async function openStore(dataDir: string, clock: Clock, opts: StoreOptions): Promise<Store> {
  const production = opts.mode === 'production';
  if (opts.create === false && !opts.databaseUrl && !existsSync(join(dataDir, 'service.sqlite'))) {
    throw new StoreOpenError(
      `There is no store in ${dataDir}: is DATA_DIR right? A new store is made by the service's first start (then run this again).`,
    );
  }
  const backend = opts.databaseUrl
    ? await openPostgres(opts.databaseUrl, opts.onQuery)
    : await openSqlite(dataDir, clock, production, opts.exclusive ?? false, opts.onQuery);
  if (opts.create === false && backend.created) {
    await backend.db.destroy();
    throw new StoreOpenError(
      `The database ${backend.file} holds no store yet: the service's first start makes it (then run this again).`,
    );
  }
  const { db, file, created } = backend;
  const transaction = <T>(work: (tx: Tx) => Promise<T>) => {
    backend.ensure();
    return db.transaction().execute(work);
  };

  try {
    if (backend.dialect === 'sqlite') await baseline(db, production);
  } catch (err) {
    await db.destroy();
    backend.release();
    throw err;
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(opts.migrations ?? MIGRATIONS) },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  // Processes that start together on one PostgreSQL database open it one after the other: Kysely
  // makes its own tables outside its lock, and two at once collide there; and whether the store is
  // new, its migrations and the mode it belongs to are one decision, which a second process must not
  // see half made (it would take a store migrated a moment ago, with no mode yet, for an old one).
  const opened = await backend.exclusively(async () => {
    const isNew = backend.dialect === 'postgres' ? !(await hasTable(db, 'schema_migrations')) : created;
    const outcome = await migrator.migrateToLatest();
    if (outcome.error) return { outcome, made: opts.mode };
    // A store belongs to the mode it was made in: development's reset and seed would overwrite a
    // production store, and a development store holds the demo's published keys and secrets. A store
    // without a mode is older than modes (seeded: development's), or was left before its first start
    // wrote one (empty: whoever opens it first).
    const meta = await readMeta(db);
    const made =
      meta.get('mode') ??
      (isNew || !(meta.has('seeded_at') || (await hasData(db)))
        ? opts.mode
        : meta.has('seeded_at')
          ? 'development'
          : 'production');
    if (made === opts.mode && !meta.has('mode'))
      await db
        .insertInto('meta')
        .values({ k: 'mode', v: made })
        .onConflict((oc) => oc.column('k').doNothing())
        .execute();
    return { outcome, made };
  });
  const { error, results = [] } = opened.outcome;
  const failed = results.find((r) => r.status === 'Error');
  if (error) {
    await db.destroy();
    backend.release();
    const message = String((error as Error).message ?? error);
    const unknown = /previously executed migration (\S+) is missing/.exec(message)?.[1];
    throw new StoreOpenError(
      unknown
        ? `The store ${file} was migrated by a newer version of the service (its migration ${unknown} is unknown to this one): start that version or a newer one. Nothing was changed.`
        : `The store ${file} could not be migrated${failed ? ` (migration ${failed.migrationName} failed)` : ''}: ${message}. The store is as it was before this start: fix the migration, or start the version that ran before.`,
      { cause: error },
    );
  }
  const migrated = results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
  if (opened.made !== opts.mode) {
    await db.destroy();
    backend.release();
    throw new StoreOpenError(
      opened.made === 'production'
        ? `The store ${file} belongs to a production service: development mode (its demo seed, /dev/reset) would overwrite it. Start it in production (no SERVICE_MODE or NODE_ENV of development, no --development), or give development a DATA_DIR of its own.`
        : `The store ${file} is a development store: it holds the demo's published keys and secrets, which production must never serve. Give production a new, empty DATA_DIR (or database), and open its companies with npm run support.`,
    );
  }

  // Two processes may open a new store at once: the first secret written is everybody's.
  await db
    .insertInto('meta')
    .values({ k: 'secret', v: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('k').doNothing())
    .execute();
  const secret = (await readMeta(db)).get('secret')!;

  const seedNow = (tx: Tx) => {
    const at = clock.now();
    return seed(tx, at)
      .then(() => setMeta(tx, 'seeded_at', String(at)))
      .then(() => at);
  };

  // Decided inside one (write-locked) transaction, so that two processes starting on one new
  // development store seed it once, and move a stale one forward once.
  const seedState: SeedState = production
    ? { status: created ? 'new' : 'empty', seededAt: 0 }
    : await db.transaction().execute(async (tx): Promise<SeedState> => {
        const meta = await readMeta(tx);
        if (opts.seed === false) return { status: 'kept', seededAt: Number(meta.get('seeded_at') ?? 0) };
        if (!(await hasData(tx))) return { status: 'created', seededAt: await seedNow(tx) };
        const seededAt = Number(meta.get('seeded_at') ?? clock.now());
        const weeks = Math.floor((clock.now() - seededAt) / WEEK_MS);
        if (weeks <= 0) return { status: 'kept', seededAt };
        await moveForward(tx, weeks * WEEK_MS, seededAt);
        return { status: 'moved', weeks, seededAt: seededAt + weeks * WEEK_MS };
      });

  /** The store's own tables, emptied by a reset. */
  let tables: string[] | undefined;
  return {
    db,
    dialect: backend.dialect,
    file,
    seedState,
    secret,
    migrated,
    transaction,
    async check() {
      backend.ensure();
      // SQLite: a write transaction that writes nothing, so that a file that became read-only or stays
      // locked is not ready. PostgreSQL: the server answers (its own checks are the server's).
      if (backend.dialect === 'postgres') await sql`select 1`.execute(db);
      else
        await db.transaction().execute(async (tx) => {
          await sql`select 1`.execute(tx);
        });
    },
    async reset(times = 1) {
      if (production) throw new Error('A production store is never reset.');
      backend.ensure();
      seedState.seededAt = await db.transaction().execute(async (tx) => {
        // Every row goes (the tables stay, and the store's secret), then the seed comes again. The
        // tables are looked up once (the migrations ran at the open): 16 ms of PostgreSQL's catalog.
        tables ??= (await tx.introspection.getTables())
          .map((t) => t.name)
          .filter((name) => !name.startsWith('schema_migrations') && name !== 'meta');
        await backend.empty(tx, tables);
        const at = await seedNow(tx);
        await growStore(tx, times);
        return at;
      });
      await backend.refreshStatistics(tables!);
      seedState.status = 'created';
    },
    backup: (to: string) => backend.backup(to),
    close: async () => {
      await db.destroy();
      backend.release();
    },
  };
}

/**
 * One service process per SQLite store: a second would keep rate limits of its own (and one file
 * gives it no more writes). A claim whose process has ended (a crash) is taken over.
 */
function claimStore(pidFile: string, file: string): void {
  const holder = Number(existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim() : NaN);
  if (Number.isInteger(holder) && holder > 0 && holder !== process.pid) {
    let alive = true;
    try {
      process.kill(holder, 0);
    } catch (err) {
      alive = (err as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (alive) {
      throw new StoreOpenError(
        `Another service (process ${holder}) uses the store ${file}: one service process per SQLite store (for several, use PostgreSQL: DATABASE_URL). If no service runs, delete ${pidFile}.`,
      );
    }
  }
  writeFileSync(pidFile, `${process.pid}\n`);
}

/**
 * A store made before migrations has a `meta.schema_version` and no migration table. One of the last
 * such schema takes the first migration as done (it creates exactly that schema, if not there yet);
 * an older development store is emptied (its data was the seed, which comes again); an older
 * production store cannot be taken as it is.
 */
async function baseline(db: Db, production: boolean): Promise<void> {
  const tables = (await db.introspection.getTables()).map((t) => t.name);
  if (tables.includes('schema_migrations') || !tables.includes('meta')) return;
  const version = Number((await readMeta(db)).get('schema_version'));
  if (version === PRE_MIGRATION_VERSION) return;
  if (production) {
    throw new StoreOpenError(
      `The store has schema version ${version} from before migrations, older than ${PRE_MIGRATION_VERSION}: it cannot be migrated. Export what you need and start with an empty DATA_DIR.`,
    );
  }
  await db.transaction().execute(async (tx) => {
    await sql`PRAGMA defer_foreign_keys = ON`.execute(tx);
    for (const table of tables) if (table !== 'meta') await tx.schema.dropTable(table).ifExists().execute();
    await tx.deleteFrom('meta').where('k', '<>', 'secret').execute();
    // Stores before migrations were all the demo's.
    await tx.insertInto('meta').values({ k: 'mode', v: 'development' }).execute();
  });
}

/** Kysely's log, telling `onQuery` each statement run. */
const queryLog = (onQuery?: (query: CompiledQuery) => void) =>
  onQuery ? { log: (event: LogEvent) => (event.level === 'query' ? onQuery(event.query) : undefined) } : {};

/** Whether the store holds any company: an empty store is a new one. */
async function hasData(db: Db): Promise<boolean> {
  return (await db.selectFrom('companies').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Moves a development store's dates forward by `by` ms (whole weeks, so a class keeps its weekday):
 * its classes and its vouchers' expiry, and the seed's own date. Nothing is dropped.
 */
async function moveForward(tx: Tx, by: number, seededAt: number): Promise<void> {
  await tx
    .updateTable('classes')
    .set((eb) => ({
      starts_at: eb('starts_at', '+', by),
      ends_at: eb('ends_at', '+', by),
      local_day: eb('local_day', '+', Math.round(by / 86_400_000)),
    }))
    .execute();
  // (Whole weeks are whole days, but a class near midnight may cross one where the clocks change.)
  await correctLocalDays(tx);
  await tx
    .updateTable('vouchers')
    .set((eb) => ({ expires_at: eb('expires_at', '+', by) }))
    .where('expires_at', 'is not', null)
    .execute();
  await setMeta(tx, 'seeded_at', String(seededAt + by));
}

async function hasTable(db: Db, name: string): Promise<boolean> {
  return (await db.introspection.getTables()).some((t) => t.name === name);
}

async function readMeta(db: Db): Promise<Map<string, string>> {
  if (!(await hasTable(db, 'meta'))) return new Map();
  const rows = await db.selectFrom('meta').select(['k', 'v']).execute();
  return new Map(rows.map((r) => [r.k, r.v]));
}

async function setMeta(db: Db, k: string, v: string): Promise<void> {
  await db
    .insertInto('meta')
    .values({ k, v })
    .onConflict((oc) => oc.column('k').doUpdateSet({ v }))
    .execute();
}
