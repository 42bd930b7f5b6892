/**
 * The schema's history: one migration per change, forward only, in the order of their names, the
 * same for every store. A start applies those a store has not had (Kysely's Migrator); a change of
 * the schema is a new file here, never an edit of an older one, and never drops data.
 */
import type { Migration } from 'kysely';
import * as initial from './0001-initial.ts';
import * as mailQueue from './0002-mail-queue.ts';
import * as widgetKeyCreated from './0003-widget-key-created.ts';
import * as rateLimitHits from './0004-rate-limit-hits.ts';
import * as idempotencyAge from './0005-idempotency-age.ts';
import * as classLookups from './0006-class-lookups.ts';
import * as classLocalDay from './0007-class-local-day.ts';
import * as widgets from './0008-widgets.ts';

export const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-mail-queue': mailQueue,
  '0003-widget-key-created': widgetKeyCreated,
  '0004-rate-limit-hits': rateLimitHits,
  '0005-idempotency-age': idempotencyAge,
  '0006-class-lookups': classLookups,
  '0007-class-local-day': classLocalDay,
  '0008-widgets': widgets,
};
