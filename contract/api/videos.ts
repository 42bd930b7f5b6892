/** The video widget's answers: the company's videos, and the media of one for a signed-in participant. */
import { z } from 'zod';
import { named } from './registry.ts';
import { isoTime } from './common.ts';

export const VideoAccess = z.enum(['public', 'participants']).meta({
  description: 'public: anyone may watch; participants: a signed-in participant of the company, through a signed link',
});

const relativePath = (example: string) =>
  z.string().meta({ description: 'A path relative to `{base_url}` (the widget API’s base)', examples: [example] });

export const CaptionTrack = named(
  'CaptionTrack',
  z.object({
    lang: z.string().meta({ description: 'BCP 47 language of the captions', examples: ['en'] }),
    src: relativePath('media/videos/vid_welcome/captions.en.vtt'),
  }),
);

export const VideoMedia = named(
  'VideoMedia',
  z.object({
    src: relativePath('media/videos/vid_welcome/video.webm'),
    type: z.string().meta({ examples: ['video/webm'] }),
    tracks: z.array(CaptionTrack).meta({ description: 'WebVTT captions, one per language' }),
    expires_at: isoTime()
      .nullable()
      .meta({ description: 'When the signed paths stop working (service clock); null for a public video' }),
  }),
);
export type VideoMedia = z.output<typeof VideoMedia>;

export const Video = named(
  'Video',
  z.object({
    id: z.string().meta({ examples: ['vid_welcome'] }),
    title: z.string(),
    duration_s: z.number().min(0).meta({ description: 'Seconds' }),
    width: z.int().min(1).meta({ description: 'Pixels of the picture: its aspect ratio is reserved before it loads' }),
    height: z.int().min(1),
    course: z
      .object({ id: z.string(), title: z.string() })
      .nullable()
      .meta({ description: 'The programme the video belongs to' }),
    access: VideoAccess,
    poster: relativePath('media/videos/vid_welcome/poster.jpg'),
    media: VideoMedia.nullable().meta({
      description: 'The files of a public video; null for a participants-only one (ask for them with a participant token)',
    }),
  }),
);
export type Video = z.output<typeof Video>;

export const VideoMediaResponse = named(
  'VideoMediaResponse',
  z.object({
    media: VideoMedia,
    now: isoTime().meta({
      description: 'The service’s time when it answered: the signed paths work from now until `media.expires_at`',
    }),
  }),
);
export type VideoMediaResponse = z.output<typeof VideoMediaResponse>;
