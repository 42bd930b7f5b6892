/** The company's course videos: their facts here, their files in service/media/. */

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
