/**
 * Every lookup of classes a request makes has an index, so that what it reads follows its answer and
 * not the company's size: a calendar's month by start (classes_start), a map's place by its next
 * classes (classes_location), a lecturer's classes (class_lecturers_user). Measured at 100 times the
 * seed's data (docs/service.md, "Growth").
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('classes_start').on('classes').column('starts_at').execute();
  await db.schema.createIndex('classes_location').on('classes').columns(['location', 'starts_at']).execute();
  await db.schema.createIndex('class_lecturers_user').on('class_lecturers').column('user_id').execute();
}
