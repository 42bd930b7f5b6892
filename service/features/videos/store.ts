/** The company's videos as the widget API shows them; their files live in service/media/. */
import type { Db, Tables } from '../../db/database.ts';
import type { Video, VideoMedia } from '../../../contract/api/videos.ts';

export type VideoRow = Tables['videos'] & { course_title: string | null };

const videosOf = (db: Db, companyId: number) =>
  db
    .selectFrom('videos as v')
    .leftJoin('courses as co', 'co.id', 'v.course_id')
    .selectAll('v')
    .select('co.title as course_title')
    .where('v.company_id', '=', companyId);

/** The company's videos in their order, or the one named. */
export async function listVideos(db: Db, companyId: number, videoId?: string): Promise<VideoRow[]> {
  return videosOf(db, companyId)
    .$if(videoId !== undefined, (q) => q.where('v.id', '=', videoId!))
    .orderBy('v.position')
    .execute();
}

export async function findVideo(db: Db, videoId: string): Promise<VideoRow | undefined> {
  return db
    .selectFrom('videos as v')
    .leftJoin('courses as co', 'co.id', 'v.course_id')
    .selectAll('v')
    .select('co.title as course_title')
    .where('v.id', '=', videoId)
    .executeTakeFirst();
}

export const captionLanguages = (row: VideoRow): string[] => JSON.parse(row.captions) as string[];

/** The paths of a video's files, relative to the widget API's base (`query`: a signature, for participants-only files). */
export function videoMedia(row: VideoRow, query = '', expiresAt: string | null = null): VideoMedia {
  const base = `media/videos/${row.id}`;
  return {
    src: `${base}/video.webm${query}`,
    type: 'video/webm',
    tracks: captionLanguages(row).map((lang) => ({ lang, src: `${base}/captions.${lang}.vtt${query}` })),
    expires_at: expiresAt,
  };
}

export function publicVideo(row: VideoRow): Video {
  return {
    id: row.id,
    title: row.title,
    duration_s: row.duration_s,
    width: row.width,
    height: row.height,
    course: row.course_id ? { id: row.course_id, title: row.course_title ?? '' } : null,
    access: row.access,
    poster: `media/videos/${row.id}/poster.jpg`,
    media: row.access === 'public' ? videoMedia(row) : null,
  };
}

/**
 * Whether a participant may watch a participants-only video: a confirmed place, paid where the class
 * costs money, in a class of the video's programme (of any of the company's classes when the video
 * belongs to none). Paid: a seat of an order paid by card (or that cost nothing), or a place the
 * company entered itself (no widget made it). Not a waitlist place, a cancelled one, a registration
 * a visitor made through the registration widget for a class that costs money (nothing was paid), a
 * seat of an order waiting for its card payment or still to be paid by invoice or on site.
 */
export async function mayWatch(db: Db, participantId: string, video: VideoRow): Promise<boolean> {
  const place = await confirmedPlaces(db, participantId, video)
    .where((eb) =>
      eb.or([
        eb('cl.price_amount', '=', 0),
        eb.and([eb('r.order_id', 'is', null), eb('r.widget_key', 'is', null)]),
        eb.and([eb('o.status', '=', 'confirmed'), eb('o.payment_status', 'in', ['paid', 'none'])]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return place !== undefined;
}

/** The participant's confirmed places in a class of the video's programme (of any of the company's classes for a video of none). */
const confirmedPlaces = (db: Db, participantId: string, video: VideoRow) =>
  db
    .selectFrom('registrations as r')
    .innerJoin('classes as cl', 'cl.id', 'r.class_id')
    .innerJoin('courses as co', 'co.id', 'cl.course_id')
    .leftJoin('orders as o', 'o.id', 'r.order_id')
    .select('r.id')
    .where('r.participant_id', '=', participantId)
    .where('co.company_id', '=', video.company_id)
    .$if(video.course_id !== null, (q) => q.where('cl.course_id', '=', video.course_id!))
    .where('r.status', '=', 'confirmed');

/**
 * For a participant `mayWatch` refused: whether they hold a confirmed place there all the same, one
 * not paid yet (an order to pay, a registration of a class that costs money), so that the refusal
 * can say the recording plays once it is paid.
 */
export async function hasUnpaidPlace(db: Db, participantId: string, video: VideoRow): Promise<boolean> {
  return (await confirmedPlaces(db, participantId, video).limit(1).executeTakeFirst()) !== undefined;
}
