/**
 * Each class knows the day it starts on in its venue's time zone (`local_day`, days since
 * 1970-01-01), so that a calendar's month is counted by day and paged in the store, reading what its
 * answer holds and not the month's every class (docs/service.md, "Growth"). The store has no time
 * zones (SQLite), so the service writes it with every start (`localDay`), and here for the classes
 * there are.
 */
import type { Kysely } from 'kysely';
import { localDay } from '../../core/time-zones.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('classes').addColumn('local_day', 'integer').execute();
  const classes = db as unknown as Kysely<{ classes: { id: string; starts_at: number; timezone: string; local_day: number } }>;
  for (const cl of await classes.selectFrom('classes').select(['id', 'starts_at', 'timezone']).execute()) {
    await classes
      .updateTable('classes')
      .set({ local_day: localDay(Number(cl.starts_at), cl.timezone) })
      .where('id', '=', cl.id)
      .execute();
  }
  await db.schema.createIndex('classes_local_day').on('classes').columns(['local_day', 'starts_at']).execute();
}
