import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Clock } from './clock.ts';
import { seed } from './seed.ts';

export type Db = Database.Database;

/** Bump when the schema or the seed changes: an older file is rebuilt on the next start. */
export const SCHEMA_VERSION = 4;
/** After this long the seeded classes drift into the past, so a start re-seeds. */
export const SEED_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

const SCHEMA = /* sql */ `
CREATE TABLE meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);

CREATE TABLE companies (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  contact_email TEXT NOT NULL   -- where contact messages are notified
);

CREATE TABLE courses (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies(id),
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  category TEXT NOT NULL
);
CREATE INDEX courses_company ON courses(company_id);

-- Times are epoch milliseconds (service clock); money is minor units.
CREATE TABLE classes (
  id TEXT PRIMARY KEY,
  course_id TEXT NOT NULL REFERENCES courses(id),
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  timezone TEXT NOT NULL,
  location TEXT NOT NULL,
  price_amount INTEGER NOT NULL CHECK (price_amount >= 0),
  currency TEXT NOT NULL,
  capacity INTEGER NOT NULL CHECK (capacity >= 0),
  waitlist INTEGER NOT NULL CHECK (waitlist IN (0, 1)),
  waitlist_capacity INTEGER -- NULL: no limit (only meaningful when waitlist = 1)
);
CREATE INDEX classes_course ON classes(course_id, starts_at);

-- People who book classes (the profile widget's users), per company.
CREATE TABLE participants (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies(id),
  email TEXT NOT NULL,          -- lower-cased
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  phone TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (company_id, email)
);

CREATE TABLE registrations (
  id TEXT PRIMARY KEY,
  class_id TEXT NOT NULL REFERENCES classes(id),
  participant_id TEXT NOT NULL REFERENCES participants(id),
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,          -- lower-cased
  phone TEXT,
  status TEXT NOT NULL CHECK (status IN ('confirmed', 'waitlisted', 'cancelled')),
  created_at INTEGER NOT NULL,
  widget_key TEXT,
  cancelled_at INTEGER
);
CREATE INDEX registrations_class ON registrations(class_id, status);
CREATE INDEX registrations_email ON registrations(email);

-- One row per (scope, Idempotency-Key): the hash of the request and the answer it got.
CREATE TABLE idempotency (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status INTEGER NOT NULL,
  response TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);

CREATE TABLE widget_keys (
  key TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies(id),
  type TEXT NOT NULL,
  origins TEXT NOT NULL,        -- JSON array of origin patterns
  options TEXT NOT NULL,        -- JSON object handed to the widget
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  revoked_at INTEGER,
  note TEXT NOT NULL
);

CREATE TABLE outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  to_addr TEXT NOT NULL,
  subject TEXT NOT NULL,
  text TEXT NOT NULL,
  link TEXT,
  pin TEXT,
  sent_at INTEGER NOT NULL
);

-- REST API: company users, their roles, applications, tokens, PINs.
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,   -- lower-cased
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  valid INTEGER NOT NULL CHECK (valid IN (0, 1))
);

CREATE TABLE memberships (
  user_id TEXT NOT NULL REFERENCES users(id),
  company_id TEXT NOT NULL REFERENCES companies(id),
  role TEXT NOT NULL CHECK (role IN ('owner', 'member', 'lecturer')),
  PRIMARY KEY (user_id, company_id)
);

CREATE TABLE class_lecturers (
  class_id TEXT NOT NULL REFERENCES classes(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  PRIMARY KEY (class_id, user_id)
);

CREATE TABLE applications (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies(id),
  name TEXT NOT NULL,
  api_key_hash TEXT NOT NULL UNIQUE,
  client_secret_hash TEXT NOT NULL,
  login_link TEXT NOT NULL      -- the page the emailed link opens (absolute, or relative to the service); ?key=<token> is added
);

-- The companies an application may act for (its own first).
CREATE TABLE application_companies (
  application_id TEXT NOT NULL REFERENCES applications(id),
  company_id TEXT NOT NULL REFERENCES companies(id),
  PRIMARY KEY (application_id, company_id)
);

CREATE TABLE tokens (
  hash TEXT PRIMARY KEY,        -- sha256 of the token; the token itself is never stored
  kind TEXT NOT NULL CHECK (kind IN ('user', 'participant')),
  subject_id TEXT NOT NULL,
  email TEXT NOT NULL,
  application_id TEXT,          -- users: the application
  company_id TEXT,              -- participants: their company
  created_at INTEGER NOT NULL,
  invalidated_at INTEGER,
  -- An emailed token (the sign-in link's key) dies unused after LINK_TTL_MS; its first use keeps it.
  emailed INTEGER NOT NULL DEFAULT 0 CHECK (emailed IN (0, 1)),
  used_at INTEGER,
  -- The link of an email change: its first use confirms that change (pins.id, kind 'email').
  confirms_pin INTEGER
);
CREATE INDEX tokens_email ON tokens(email);

CREATE TABLE pins (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- 'email': the PIN that confirms a participant's new address (email), sent to that address.
  kind TEXT NOT NULL CHECK (kind IN ('user', 'participant', 'email')),
  subject_id TEXT NOT NULL,
  email TEXT NOT NULL,
  application_id TEXT,
  company_id TEXT,
  pin_hash TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  used_at INTEGER,
  replaced_at INTEGER           -- a newer login replaced it
);
CREATE INDEX pins_email ON pins(email);

-- Messages from contact widgets. Spam (a filled honeypot) is kept, marked, and notifies nobody.
CREATE TABLE contact_messages (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies(id),
  widget_key TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  subject TEXT NOT NULL,
  topic TEXT,
  message TEXT NOT NULL,
  spam INTEGER NOT NULL CHECK (spam IN (0, 1)),
  form_issued_at INTEGER NOT NULL,
  form_nonce TEXT NOT NULL,     -- a form token sends one message
  created_at INTEGER NOT NULL,
  UNIQUE (widget_key, form_nonce)
);
CREATE INDEX contact_messages_company ON contact_messages(company_id, created_at);
`;

export interface SeedState {
  /** created: a new file; kept: the stored seed is fresh; reseeded: see `reason`. */
  status: 'created' | 'kept' | 'reseeded';
  reason?: string;
  seededAt: number;
}

export interface Store {
  db: Db;
  file: string;
  seedState: SeedState;
  /** A random secret of this data file (signs contact form tokens); kept across re-seeds. */
  secret: string;
  /** Drops every row and seeds again, relative to the clock's current time. */
  reset(): void;
  close(): void;
}

export function openStore(dataDir: string, clock: Clock): Store {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'service.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');

  const rebuild = () => {
    db.transaction(() => {
      const secret = readSecret(db) ?? randomBytes(32).toString('base64url');
      dropAll(db);
      db.exec(SCHEMA);
      const at = clock.now();
      seed(db, at);
      const setMeta = db.prepare('INSERT INTO meta (k, v) VALUES (?, ?)');
      setMeta.run('schema_version', String(SCHEMA_VERSION));
      setMeta.run('seeded_at', String(at));
      setMeta.run('secret', secret);
    }).immediate();
  };

  const seedState = ((): SeedState => {
    const meta = readMeta(db);
    let reason: string | undefined;
    if (!meta) {
      rebuild();
      return { status: 'created', seededAt: seededAt(db) };
    }
    if (meta.version !== SCHEMA_VERSION) {
      reason = `the stored data has schema version ${meta.version}, this service needs ${SCHEMA_VERSION}`;
    } else if (clock.now() - meta.seededAt > SEED_MAX_AGE_MS) {
      reason = 'the stored seed was older than 7 days, so its classes were in the past';
    }
    if (reason === undefined) return { status: 'kept', seededAt: meta.seededAt };
    rebuild();
    return { status: 'reseeded', reason, seededAt: seededAt(db) };
  })();

  // Every seeded file has one; this only repairs a file edited by hand.
  let secret = readSecret(db);
  if (secret === undefined) {
    secret = randomBytes(32).toString('base64url');
    db.prepare('INSERT INTO meta (k, v) VALUES (?, ?)').run('secret', secret);
  }

  return {
    db,
    file,
    seedState,
    secret,
    reset: () => {
      rebuild();
      seedState.seededAt = seededAt(db);
    },
    close: () => db.close(),
  };
}

function readMeta(db: Db): { version: number; seededAt: number } | undefined {
  const hasMeta = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
    .get();
  if (!hasMeta) return undefined;
  const rows = db.prepare('SELECT k, v FROM meta').all() as { k: string; v: string }[];
  const map = new Map(rows.map((r) => [r.k, r.v]));
  const version = Number(map.get('schema_version'));
  const at = Number(map.get('seeded_at'));
  if (!Number.isFinite(version) || !Number.isFinite(at)) return undefined;
  return { version, seededAt: at };
}

function readSecret(db: Db): string | undefined {
  const hasMeta = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
    .get();
  if (!hasMeta) return undefined;
  const row = db.prepare("SELECT v FROM meta WHERE k = 'secret'").get() as { v: string } | undefined;
  return row?.v;
}

function seededAt(db: Db): number {
  const row = db.prepare("SELECT v FROM meta WHERE k = 'seeded_at'").get() as { v: string };
  return Number(row.v);
}

function dropAll(db: Db): void {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as { name: string }[];
  db.pragma('defer_foreign_keys = ON');
  for (const { name } of tables) db.exec(`DROP TABLE IF EXISTS "${name}"`);
}
