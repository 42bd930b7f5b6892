/** The company's course videos: their facts here, their files in service/media/. */
import { sql, type Kysely } from 'kysely';

export interface VideoTables {
  videos: {
    /** `vid_welcome`. */
    id: string;
    company_id: number;
    title: string;
    /** The programme the video belongs to, if any. */
    course_id: string | null;
    /** Seconds. */
    duration_s: number;
    /** Pixels of the picture: the widget reserves its aspect ratio before anything loads. */
    width: number;
    height: number;
    /** `public`: anyone; `participants`: a signed-in participant of the company, through a signed link. */
    access: 'public' | 'participants';
    /** The files' base name in service/media/: `<media>.webm`, `<media>.jpg`, `<media>.<lang>.vtt`. */
    media: string;
    /** JSON array of the caption languages (`["en","de"]`). */
    captions: string;
    /** The order of the company's list. */
    position: number;
  };
}

export async function createVideoTables(db: Kysely<never>): Promise<void> {
  await db.schema
    .createTable('videos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('course_id', 'text', (c) => c.references('courses.id'))
    .addColumn('duration_s', 'real', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('access', 'text', (c) => c.notNull().check(sql`access in ('public', 'participants')`))
    .addColumn('media', 'text', (c) => c.notNull())
    .addColumn('captions', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('videos_company').on('videos').columns(['company_id', 'position']).execute();
}
