/**
 * The SQL dialects of the store: SQLite (better-sqlite3), the embedded default, and PostgreSQL (pg),
 * for several processes on one database. The stores are written once, with Kysely; what differs
 * between the two lives in this file: how a write transaction starts, and the column types of ids
 * and times.
 */
import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresDriver,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type ColumnDefinitionBuilder,
  type DatabaseConnection,
  type Dialect,
  type Kysely,
  type SqliteDatabase,
  type TransactionSettings,
} from 'kysely';
import { createHash } from 'node:crypto';
import pg from 'pg';

export type DialectName = 'sqlite' | 'postgres';

/**
 * SQLite has one connection, which Kysely lends to one query or transaction at a time. A
 * transaction starts `BEGIN IMMEDIATE`, so that it holds the write lock from its first read: a seat
 * counted inside it cannot be taken by anyone else before it commits (another process included).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * SQLite rolls a transaction back itself on some errors (a full disk, an I/O error): the rollback
   * that follows then fails with "no transaction is active", which would hide the real cause.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (err) {
      if (!/no transaction is active/i.test((err as Error).message)) throw err;
    }
  }
}

/**
 * SQLite changes its schema inside a transaction as well as its rows (Kysely's adapter says it does
 * not, to be safe): the migrations of a start run in one transaction, so a migration that fails
 * leaves the store exactly as it was, not half-changed.
 */
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * better-sqlite3 behind Kysely, with its prepared statements kept: the query builder asks to
 * prepare each query every time, and preparing is most of a small query's cost.
 */
export function sqliteDialect(raw: Database.Database, beforeWrite: () => void = () => {}): Dialect {
  const statements = new Map<string, ReturnType<SqliteDatabase['prepare']>>();
  const database: SqliteDatabase = {
    close: () => raw.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= 1000) statements.clear();
        const prepared = raw.prepare(sql);
        // Every statement that writes asks first whether it may (the store's file is still there):
        // inside a transaction or not, nothing is written into a deleted file.
        statement = (prepared.reader
          ? prepared
          : {
              reader: false,
              all: (parameters: readonly unknown[]) => (beforeWrite(), prepared.all(...parameters)),
              run: (parameters: readonly unknown[]) => (beforeWrite(), prepared.run(...parameters)),
              iterate: (parameters: readonly unknown[]) => (beforeWrite(), prepared.iterate(...parameters)),
            }) as unknown as ReturnType<SqliteDatabase['prepare']>;
        statements.set(sql, statement);
      }
      return statement;
    },
  };
  return {
    createAdapter: () => new TransactionalSqliteAdapter(),
    createDriver: () => new ImmediateSqliteDriver({ database }),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

/**
 * The one write lock of a PostgreSQL store, held by every transaction from its start to its end
 * (`pg_advisory_xact_lock`): writes are taken one at a time, across every process on the database,
 * as SQLite's `BEGIN IMMEDIATE` takes them on one file. A seat counted inside a transaction cannot be
 * taken by another process before it commits; reads outside transactions never wait for it.
 */
export const WRITE_LOCK = 72_010_001;

class LockingPostgresDriver extends PostgresDriver {
  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await super.beginTransaction(connection, settings);
    await connection.executeQuery(CompiledQuery.raw(`select pg_advisory_xact_lock(${WRITE_LOCK})`));
  }
}

// Numbers come back as numbers: times are bigint (int8), and count() and sum() answer int8 or numeric,
// which pg would give as strings. Every value the service keeps fits a double exactly.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/** A pool of connections to a PostgreSQL database (`postgres://user:password@host:port/database`). */
export function postgresPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 30_000 });
  // A connection the server ends (a restart, a dropped database) fails its query, if it has one, and
  // is replaced: its error event, idle or in use, is never the end of the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Statements worth preparing once per connection: the queries of requests, not DDL or locks of a migration. */
const PREPARED = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * The pool as Kysely sees it, with each query a named (prepared) statement of its connection: the
 * server parses it once per connection, and after a few runs plans it once too. Unnamed, every
 * query is parsed and planned again, which took more of PostgreSQL's CPU than the service's own
 * work (0.2 to 0.6 ms of planning for a first render's query of 0.1 ms).
 */
function preparingPool(pool: pg.Pool) {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) {
      if (names.size >= 10_000) names.clear(); // (the same text gets the same name again)
      name = `q_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  const clients = new WeakMap<pg.PoolClient, pg.PoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let named = clients.get(client);
      if (!named) {
        named = Object.assign(Object.create(client) as pg.PoolClient, {
          query: (text: unknown, values?: unknown[]) =>
            typeof text === 'string' && PREPARED.test(text)
              ? client.query({ name: nameOf(text), text, values })
              : client.query(text as string, values),
          release: (err?: Error | boolean) => client.release(err),
        });
        clients.set(client, named);
      }
      return named;
    },
    end: () => pool.end(),
  } as unknown as pg.Pool;
}

export function postgresDialect(pool: pg.Pool): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new LockingPostgresDriver({ pool: preparingPool(pool) }),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

/** Which dialect a query builder speaks (a migration's `db`). */
export const dialectOf = (db: Kysely<unknown>): DialectName =>
  db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';

/**
 * An integer primary key the database numbers: `autoincrement` on SQLite, an identity column on
 * PostgreSQL. `db` is the migration's.
 */
export const autoId = (db: Kysely<unknown>) => (column: ColumnDefinitionBuilder) =>
  dialectOf(db) === 'postgres' ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement();
/** Times are epoch milliseconds of the service clock: 64-bit integers. */
export const TIME = 'bigint' as const;

/** A floating-point column of 8 bytes (SQLite's `real` is; PostgreSQL's is 4, `double precision` 8). */
export const REAL = (db: Kysely<unknown>) => (dialectOf(db) === 'postgres' ? 'double precision' : 'real');
