/**
 * The service's store: one SQLite file (better-sqlite3) behind Kysely. Each feature declares its own
 * tables (`features/<feature>/tables.ts`), the shared modules theirs (`domain/tables.ts`); this
 * module puts them together, versions the file, seeds it, and rebuilds it when the schema or the
 * seed is out of date.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, sql, type Transaction } from 'kysely';
import type { Clock } from '../core/clock.ts';
import { createCoreTables, type CoreTables } from '../core/tables.ts';
import { createDomainTables, type DomainTables } from '../domain/tables.ts';
import { createCatalogTables, type CatalogTables } from '../features/catalog/tables.ts';
import { createCheckoutTables, type CheckoutTables } from '../features/checkout/tables.ts';
import { createContactTables, type ContactTables } from '../features/contact/tables.ts';
import { createParticipantTables, type ParticipantTables } from '../features/participants/tables.ts';
import { createPlaceTables, type PlaceTables } from '../features/places/tables.ts';
import { createRegistrationTables, type RegistrationTables } from '../features/registrations/tables.ts';
import { createRestTables, type RestTables } from '../features/rest/tables.ts';
import { createVideoTables, type VideoTables } from '../features/videos/tables.ts';
import { sqliteDialect, type DialectName } from './dialect.ts';
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

/** Bump when the schema or the seed changes: an older file is rebuilt on the next start. */
export const SCHEMA_VERSION = 8;
/** After this long the seeded classes drift into the past, so a start re-seeds. */
export const SEED_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** In the order their references need. */
const CREATE_TABLES = [
  createCoreTables,
  createCatalogTables,
  createDomainTables,
  createParticipantTables,
  createCheckoutTables,
  createRegistrationTables,
  createContactTables,
  createRestTables,
  createVideoTables,
  createPlaceTables,
];

export interface SeedState {
  /** created: a new file; kept: the stored seed is fresh; reseeded: see `reason`. */
  status: 'created' | 'kept' | 'reseeded';
  reason?: string;
  seededAt: number;
}

export interface Store {
  db: Db;
  dialect: DialectName;
  file: string;
  seedState: SeedState;
  /** A random secret of this data file (signs contact form tokens); kept across re-seeds. */
  secret: string;
  /**
   * Runs `work` in one transaction: every read and write in it sees one state and commits together
   * or not at all (on SQLite it holds the write lock from its start).
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Drops every row and seeds again, relative to the clock's current time. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function openStore(dataDir: string, clock: Clock): Promise<Store> {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'service.sqlite');
  const raw = new Sqlite(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  raw.pragma('synchronous = NORMAL');
  const db = new Kysely<Tables>({ dialect: sqliteDialect(raw) });
  const transaction = <T>(work: (tx: Tx) => Promise<T>) => db.transaction().execute(work);

  const rebuild = () =>
    transaction(async (tx) => {
      const secret = (await readMeta(tx)).get('secret') ?? randomBytes(32).toString('base64url');
      // A table dropped before the tables that point to it is checked at the commit, not at once.
      await sql`PRAGMA defer_foreign_keys = ON`.execute(tx);
      for (const table of await tx.introspection.getTables()) await tx.schema.dropTable(table.name).ifExists().execute();
      for (const create of CREATE_TABLES) await create(tx as unknown as Kysely<never>);
      const at = clock.now();
      await seed(tx, at);
      await tx
        .insertInto('meta')
        .values([
          { k: 'schema_version', v: String(SCHEMA_VERSION) },
          { k: 'seeded_at', v: String(at) },
          { k: 'secret', v: secret },
        ])
        .execute();
    });

  const seededAt = async () => Number((await readMeta(db)).get('seeded_at'));
  const seedState = await (async (): Promise<SeedState> => {
    const meta = await readMeta(db);
    const version = Number(meta.get('schema_version'));
    const at = Number(meta.get('seeded_at'));
    if (!meta.has('schema_version') || !Number.isFinite(version) || !Number.isFinite(at)) {
      await rebuild();
      return { status: 'created', seededAt: await seededAt() };
    }
    let reason: string | undefined;
    if (version !== SCHEMA_VERSION) {
      reason = `the stored data has schema version ${version}, this service needs ${SCHEMA_VERSION}`;
    } else if (clock.now() - at > SEED_MAX_AGE_MS) {
      reason = 'the stored seed was older than 7 days, so its classes were in the past';
    }
    if (reason === undefined) return { status: 'kept', seededAt: at };
    await rebuild();
    return { status: 'reseeded', reason, seededAt: await seededAt() };
  })();

  // Every seeded file has one; this only repairs a file edited by hand.
  let secret = (await readMeta(db)).get('secret');
  if (secret === undefined) {
    secret = randomBytes(32).toString('base64url');
    await db.insertInto('meta').values({ k: 'secret', v: secret }).execute();
  }

  return {
    db,
    dialect: 'sqlite',
    file,
    seedState,
    secret,
    transaction,
    reset: async () => {
      await rebuild();
      seedState.seededAt = await seededAt();
    },
    close: () => db.destroy(),
  };
}

/** The `meta` rows, or none when the file has no such table yet. */
async function readMeta(db: Db): Promise<Map<string, string>> {
  const tables = await db.introspection.getTables();
  if (!tables.some((t) => t.name === 'meta')) return new Map();
  const rows = await db.selectFrom('meta').select(['k', 'v']).execute();
  return new Map(rows.map((r) => [r.k, r.v]));
}
