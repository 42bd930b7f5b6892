/**
 * The SQL dialect of the store. SQLite (better-sqlite3) is the embedded default; the stores are
 * written with Kysely so that PostgreSQL adds a dialect here, not a rewrite. What differs between
 * the two lives in this file: how a transaction starts, and the column types of ids and times.
 */
import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type ColumnDefinitionBuilder,
  type DatabaseConnection,
  type Dialect,
  type Kysely,
  type SqliteDatabase,
} from 'kysely';

export type DialectName = 'sqlite';

/**
 * SQLite has one connection, which Kysely lends to one query or transaction at a time. A
 * transaction starts `BEGIN IMMEDIATE`, so that it holds the write lock from its first read: a seat
 * counted inside it cannot be taken by anyone else before it commits (another process included).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * better-sqlite3 behind Kysely, with its prepared statements kept: the query builder asks to
 * prepare each query every time, and preparing is most of a small query's cost.
 */
export function sqliteDialect(raw: Database.Database): Dialect {
  const statements = new Map<string, Database.Statement>();
  const database: SqliteDatabase = {
    close: () => raw.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= 1000) statements.clear();
        statement = raw.prepare(sql);
        statements.set(sql, statement);
      }
      return statement as unknown as ReturnType<SqliteDatabase['prepare']>;
    },
  };
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ImmediateSqliteDriver({ database }),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

/** An integer primary key the database numbers (`serial` on PostgreSQL). */
export const autoId = (column: ColumnDefinitionBuilder) => column.primaryKey().autoIncrement();
/** Times are epoch milliseconds of the service clock: 64-bit integers. */
export const TIME = 'bigint' as const;
