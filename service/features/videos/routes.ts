/**
 * The video widget (docs/widget-api.md, "Videos"): the first render lists the company's videos with
 * their posters and, for public ones, their files; a participants-only video's files come only to a
 * signed-in participant, as links signed for a few minutes (media-link.ts). Every file answers range
 * requests, so that the player can seek.
 */
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ServiceDeps } from '../../http/context.ts';
import { sendJson } from '../../http/context.ts';
import { TOKEN_ERRORS, error } from '../../http/docs.ts';
import { ApiError } from '../../http/errors.ts';
import { send } from '../../http/static.ts';
import { SubApp } from '../../http/routes.ts';
import { WIDGET_API_PREFIX, widgetKey, type WidgetKeyRow } from '../../widget-api/keys.ts';
import { participantOfRequest } from '../../widget-api/signed-in.ts';
import { checkMediaLink, MEDIA_LINK_TTL_MS, signMediaLink } from './media-link.ts';
import { VideoMediaResponse } from '../../../contract/api/videos.ts';
import { captionLanguages, findVideo, hasUnpaidPlace, listVideos, mayWatch, publicVideo, videoMedia } from './store.ts';
import { isoTime } from '../../core/ids.ts';

/** The seeded videos' files (made once with ffmpeg: service/media/README.md). */
const MEDIA_DIR = fileURLToPath(new URL('../../media/', import.meta.url));

/** What `GET /widget?type=video` adds: the company's videos, or the one `video` names. */
async function videoFirstRender(deps: ServiceDeps, key: WidgetKeyRow, videoId: string | undefined) {
  const rows = await listVideos(deps.store.db, key.company_id, videoId);
  if (videoId !== undefined && rows.length === 0) {
    throw new ApiError(
      404,
      'video-not-found',
      `There is no video "${videoId}" for this key. Check data-service-video, or remove it to list every video.`,
    );
  }
  return { videos: rows.map(publicVideo) };
}

const notFound = () => new ApiError(404, 'not-found', 'There is no such video file.');

export function videoRoutes(deps: ServiceDeps): SubApp[] {
  const app = new SubApp(WIDGET_API_PREFIX);
  const files = new SubApp('/media');
  const { store, clock } = deps;
  deps.firstRenders.add('video', (key, query) => videoFirstRender(deps, key, query('video') || undefined));

  deps.api.add(
    app,
    {
      method: 'post',
      path: `${WIDGET_API_PREFIX}/videos/{id}/media`,
      tags: ['Widget API'],
      operationId: 'videoMedia',
      summary: 'The files of a video for the signed-in participant: paths signed for a few minutes (video keys)',
      description: `A POST because the participant’s token travels in a header, never in a URL. A participants-only video plays for a signed-in participant with a confirmed place, paid where the class costs money, in a class of its programme (any of the company’s classes for a video of no programme): a seat of an order paid by card or free, or a place the company entered itself; not a waitlist place, a cancelled one, a registration made through the registration widget for a class that costs money, or a seat of an order still to be paid (card, invoice, on site); others get 403 \`participants-only\` (with \`course\`, the programme it is for, and \`unpaid\`: whether they hold a confirmed place there that is not paid yet). The paths carry an expiry and a signature, not the token, and work for ${MEDIA_LINK_TTL_MS / 60000} minutes of the service clock from \`now\` (then 403 \`media-link-expired\`: ask again). A public video answers its public paths and \`expires_at: null\`.`,
      security: [{ widgetKey: [], participantToken: [] }],
      parameters: [{ name: 'id', in: 'path', required: true, description: 'The video id', schema: { type: 'string' } }],
      responses: {
        '200': { description: 'The video’s files', schema: VideoMediaResponse },
        ...TOKEN_ERRORS,
        '403': error(
          '`origin-not-allowed`, `type-mismatch`, `not-available`; `participants-only`: the participant has no paid (or free) place in a class of the video’s programme (`course` names it; `unpaid`: a confirmed place there is not paid yet)',
        ),
        '404': error('`not-found`: the company has no video with this id'),
      },
    },
    async (c) => {
      const key = await widgetKey(store.db, c, 'video');
      const participant = await participantOfRequest(deps, c, key);
      const row = await findVideo(store.db, c.req.param('id') ?? '');
      if (!row || row.company_id !== key.company_id) throw new ApiError(404, 'not-found', 'This company has no such video.');
      const now = clock.now();
      if (row.access === 'public') return sendJson({ media: videoMedia(row), now: isoTime(now) } satisfies VideoMediaResponse);
      if (!(await mayWatch(store.db, participant.id, row))) {
        const whose = row.course_title ?? key.company_name;
        const unpaid = await hasUnpaidPlace(store.db, participant.id, row);
        throw new ApiError(
          403,
          'participants-only',
          unpaid
            ? `This recording plays once the participant's place in ${whose} is paid.`
            : `This recording is for participants of ${whose}: it plays for a paid (or free) place in one of its classes.`,
          undefined,
          {},
          { course: row.course_id ? { id: row.course_id, title: row.course_title ?? '' } : null, unpaid },
        );
      }
      const { query, expiresAt } = signMediaLink(store.secret, row.id, now);
      return sendJson({ media: videoMedia(row, query, isoTime(expiresAt)), now: isoTime(now) } satisfies VideoMediaResponse);
    },
  );

  // CORS for any origin on every answer, refusals included: the player fetches the picture and the
  // captions with CORS (a refusal it cannot read is a network error), and a link is its own permission.
  files.use('*', async (c, next) => {
    await next();
    c.res.headers.set('Access-Control-Allow-Origin', '*');
    c.res.headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
  });

  // The files: the poster always; the picture and captions of a participants-only video only with a
  // signed link.
  const path = (name: string, description: string, example: string) => ({
    name,
    in: 'path',
    required: true,
    description,
    schema: { type: 'string', examples: [example] },
  });
  const query = (name: string, description: string) => ({
    name,
    in: 'query',
    required: false,
    description,
    schema: { type: 'string' },
  });
  const FILES = ['image/jpeg', 'video/webm', 'text/vtt'];
  deps.api.add(
    files,
    {
      method: 'get',
      path: '/media/videos/{id}/{file}',
      tags: ['Widget API'],
      operationId: 'videoFile',
      summary: 'A file of a video: its poster, its picture or its captions (range requests answered)',
      description: `Every answer, refusals included, carries \`Access-Control-Allow-Origin: *\`. A participants-only video’s picture and captions need the signed query of \`POST ${WIDGET_API_PREFIX}/videos/{id}/media\`; its poster is public.`,
      security: [],
      parameters: [
        path('id', 'The video id', 'vid_welcome'),
        path('file', '`poster.jpg`, `video.webm` or `captions.<lang>.vtt`', 'poster.jpg'),
        query('expires', 'Of a signed link: when it expires (milliseconds of the service clock)'),
        query('signature', 'Of a signed link: its signature'),
      ],
      responses: {
        '200': { description: 'The whole file', files: FILES },
        '206': { description: 'The byte range asked for (`Range: bytes=…`)', files: FILES },
        '403': error('`media-link-invalid` (no signed query, or an altered one), `media-link-expired` (ask for a new one)'),
        '404': error('`not-found`: no such video, or no such file of it'),
      },
    },
    async (c) => {
      const row = await findVideo(store.db, c.req.param('id') ?? '');
      const file = c.req.param('file') ?? '';
      const caption = /^captions\.([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\.vtt$/.exec(file)?.[1];
      const name =
        file === 'poster.jpg'
          ? `${row?.media}.jpg`
          : file === 'video.webm'
            ? `${row?.media}.webm`
            : caption && row && captionLanguages(row).includes(caption)
              ? `${row.media}.${caption}.vtt`
              : undefined;
      if (!row || !name) throw notFound();
      const locked = row.access === 'participants' && file !== 'poster.jpg';
      if (locked) {
        const verdict = checkMediaLink(store.secret, row.id, c.req.query('expires'), c.req.query('signature'), clock.now());
        if (verdict === 'expired') {
          throw new ApiError(403, 'media-link-expired', 'This link to the video has expired: the widget asks for a new one.');
        }
        if (verdict === 'invalid') {
          throw new ApiError(
            403,
            'media-link-invalid',
            'This video is for participants: its files come only through a signed link, which a signed-in participant gets from POST /widget-api/v1/videos/{id}/media.',
          );
        }
      }
      const location = MEDIA_DIR + name;
      const info = await stat(location).catch(() => undefined);
      if (!info?.isFile()) throw notFound();
      return send(c.req.raw, location, info, { 'Cache-Control': locked ? 'private, max-age=60' : 'public, max-age=3600' });
    },
  );
  return [app, files];
}
