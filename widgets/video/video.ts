import { html, nothing, type PropertyValues } from 'lit';
import type { VideoDetail } from '../../contract/index.ts';
import type { Video, VideoMedia, WidgetResponse } from '../../contract/api/index.ts';
import { ServiceElement, ServiceEvent, define } from '../shared/base.ts';
import { FirstView, firstViewStyles } from '../shared/first-view.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import { baseStyles } from '../shared/styles.ts';
import { videoStyles } from './video.styles.ts';

export type { Video, VideoMedia };

/** The first render: the widget and its videos (one, with `video`). */
export type VideoData = WidgetResponse & { videos: Video[] };

/**
 * A video that cannot play now, drawn on its poster: the line that says why, what the visitor can do
 * (a button's label and action, or `below` the poster: the sign-in's step), and whether it waits for
 * the page's sign-in (`ask`: it plays once the participant has signed in).
 */
export interface Held {
  id: string;
  line: unknown;
  action?: [label: string, run: () => void];
  below?: () => unknown;
  ask?: boolean;
}

/** The visitor started a video. */
export class VideoStartedEvent extends ServiceEvent<VideoDetail> {
  constructor(detail: VideoDetail) {
    super('service-video-started', detail);
  }
}

/** The visitor watched a video to its end. */
export class VideoEndedEvent extends ServiceEvent<VideoDetail> {
  constructor(detail: VideoDetail) {
    super('service-video-ended', detail);
  }
}

/**
 * The list's and the poster's words; German is in video.de.ts. The player's (and the sign-in's it
 * asks for) are in its own chunk; that the chunk could not be loaded is said here.
 */
export const en = {
  heading: 'Videos of {company}',
  empty: 'There are no videos here yet.',
  play: 'Play “{title}”, {duration}',
  forParticipants: 'For participants',
  showAll: 'Show all {count} videos',
  playerFailed: 'The player could not be loaded. Check your connection and try again.',
};

export const t = translator(en, { de: () => import('./video.de.ts') });

/**
 * The player: a chunk of its own, fetched when the visitor asks to play (with its words), or with the
 * first render back from the sign-in link a video emailed.
 */
const playerChunk = () => import(/* first render: back from the emailed link */ './video-player.ts');

/** `6` → `0:06`, `3725` → `1:02:05`. */
const clock = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds || 0));
  const two = (n: number) => String(n).padStart(2, '0');
  return s >= 3600
    ? `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`
    : `${Math.floor(s / 60)}:${two(s % 60)}`;
};

/**
 * @tagname service-video
 * @summary The company's course videos: a list, or one video; poster first, the player on demand.
 *
 * @fires service-video-started - The visitor started a video; `detail: { id }`.
 * @fires service-video-ended - The visitor watched a video to its end; `detail: { id }`.
 *
 * @csspart base - The widget's outer container.
 * @csspart card - A video of the list.
 * @csspart button - The main buttons (play, sign in, try again).
 *
 * @cssprop [--service-accent=#1d4ed8] - Buttons, links and focus rings.
 * @cssprop [--service-on-accent=#fff] - Text on accent-coloured buttons.
 * @cssprop [--service-border=#767d89] - Borders of cards.
 * @cssprop [--service-danger=#b3261e] - Errors.
 * @cssprop [--service-radius=8px] - Corner radius.
 *
 * Each poster keeps its video's aspect ratio from the first render; the player's code (native
 * `<video>`, captions, keyboard controls) comes when the visitor asks to play. A participants-only
 * video asks for the page's participant sign-in (the profile widget's), or signs in below its poster.
 */
export class ServiceVideo extends ServiceElement<VideoData> {
  static override styles = [baseStyles, firstViewStyles, videoStyles];

  static override properties = {
    video: {},
    _playing: { state: true },
    _held: { state: true },
  };

  /** An unknown video (`data-service-video`) is a widget that is not available. */
  protected static override errorCodes = { 'video-not-found': 'not-available' } as const;

  /** Shows one video only (its id, `data-service-video` on a placeholder). */
  video = '';

  /** The video whose player is open. */
  private _playing?: string;
  /** A video that cannot play now, and why (the sign-in it waits for, a failure). */
  private _held?: Held;
  /** The list, held to its reserved space until the visitor asks to see every video, or plays one. */
  #view = new FirstView(this);
  #player?: InstanceType<Awaited<ReturnType<typeof playerChunk>>['VideoPlayer']>;

  protected override loadArgs: PropertyKey[] = ['key', 'baseUrl', 'video', 'locale'];

  protected override loadWords(locale: Locale) {
    return t.load(locale);
  }

  protected override load(signal: AbortSignal) {
    // Back from the sign-in link a video emailed (video-player.ts, LINK): the player takes it.
    if (location.search.includes('service-video=')) this.#playerOf().catch(() => {});
    return this.api.request('widget', { params: { type: 'video', video: this.video }, signal }) as Promise<VideoData>;
  }

  protected override step() {
    return this.video ? 'one' : 'list';
  }

  /** A path of the service's answer (a poster, a video file) as a URL of the service. */
  #url = (path: string) => new URL(path, this.baseUrl || location.origin).href;

  override render() {
    return this.renderState((data) => (this.video ? this.#renderOne(data.videos[0]!) : this.#renderList(data)), 2);
  }

  #renderOne(video: Video) {
    return html`<article class="one" aria-labelledby="title-${video.id}">
      ${this.#renderMedia(video)}
      <h2 id="title-${video.id}" tabindex="-1" data-focus>${video.title}</h2>
      ${this.#renderFacts(video)}
    </article>`;
  }

  #renderList({ widget, videos }: VideoData) {
    const locale = this.resolvedLocale;
    return this.#view.render(
      html`<h2 tabindex="-1" data-focus>${t(locale, 'heading', { company: widget.company.name })}</h2>
        ${videos.length ? nothing : html`<p class="notice">${t(locale, 'empty')}</p>`}
        <ul class="videos fill">
          ${videos.map(
            (video) =>
              html`<li
                class="card ${this._playing === video.id || this._held?.id === video.id ? 'active' : ''}"
                part="card"
                aria-labelledby="title-${video.id}"
              >
                ${this.#renderMedia(video)}
                <h3 id="title-${video.id}">${video.title}</h3>
                ${this.#renderFacts(video)}
              </li>`,
          )}
        </ul>`,
      t(locale, 'showAll', { count: videos.length }),
      this.#focusHeading,
    );
  }

  /** Duration, programme, and whether it is for participants. */
  #renderFacts(video: Video) {
    const locale = this.resolvedLocale;
    return html`<p class="facts">
      <span>${clock(video.duration_s)}</span>
      ${video.course ? html`<span>${video.course.title}</span>` : nothing}
      ${video.access === 'participants' ? html`<span class="badge">${t(locale, 'forParticipants')}</span>` : nothing}
    </p>`;
  }

  /** The poster with its play button (or why it cannot play now), or the player in its place. */
  #renderMedia(video: Video) {
    if (this._playing === video.id && this.#player) return this.#player.render(video);
    const held = this._held?.id === video.id ? this._held : undefined;
    return html`<div class="media poster">
      <div class="screen">
        <img src=${this.#url(video.poster)} width=${video.width} height=${video.height} alt="" />
        ${
          held
            ? html`<div class="held" role="alert" tabindex="-1">
              <p>${held.line}</p>
              ${held.action ? html`<button part="button" @click=${held.action[1]}>${held.action[0]}</button>` : nothing}
            </div>`
            : html`<button
              class="play"
              part="button"
              aria-label=${t(this.resolvedLocale, 'play', { title: video.title, duration: clock(video.duration_s) })}
              @click=${() => this.#play(video)}
            >
              <span aria-hidden="true"></span>
            </button>`
        }
      </div>
    </div>${held?.below?.()}`;
  }

  /**
   * Plays a video: the player's code comes now (and for a participants-only video the page's sign-in
   * with it: its files are signed for the participant, or the sign-in is asked for). Code that does
   * not come (the network dropped) is said on the poster, with a retry.
   */
  async #play(video: Video) {
    this._held = undefined;
    let player;
    try {
      player = await this.#playerOf();
    } catch {
      return this.#failed(video, t(this.resolvedLocale, 'playerFailed'));
    }
    const media = video.media ?? (await player.signedMedia(video));
    if (!media) return;
    player.open(video, media);
    this.#view.all = true;
    this._playing = video.id;
    await this.updateComplete;
    player.start();
  }

  /** The player's code and words, and the player (one per widget). */
  async #playerOf() {
    const chunk = await playerChunk();
    await chunk.loadWords(this.resolvedLocale);
    return (this.#player ??= new chunk.VideoPlayer({
      element: this,
      api: () => this.api,
      url: this.#url,
      clock,
      announce: (what, id) =>
        this.dispatchEvent(what === 'started' ? new VideoStartedEvent({ id }) : new VideoEndedEvent({ id })),
      hold: (held) => this.#hold(held),
      failed: (video, line) => this.#failed(video, line),
      signedIn: () => {
        const asked = this._held?.ask && this.data?.videos.find((v) => v.id === this._held!.id);
        if (asked) void this.#play(asked);
      },
    }));
  }

  /** A video that cannot play now: its poster says why, and the focus goes to what the visitor can do. */
  async #hold(held: Held) {
    this.#view.all = true;
    Object.assign(this, { _held: held, _playing: undefined });
    await this.updateComplete;
    const box = this.renderRoot.querySelector<HTMLElement>('.held');
    (box?.querySelector('button') ?? box)?.focus();
  }

  /** A play that failed: said on the poster, with a retry. */
  #failed(video: Video, line: string) {
    return this.#hold({ id: video.id, line, action: [t(this.resolvedLocale, 'retry'), () => void this.#play(video)] });
  }

  /** Everything shows: the focus goes to the list's heading (the button it was on is gone). */
  #focusHeading = async () => {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  };

  protected override willUpdate(changed: PropertyValues<this>) {
    // New data (another video, key, service or locale): the open player and what held a video go.
    if (changed.has('data')) Object.assign(this, { _playing: undefined, _held: undefined });
    super.willUpdate(changed);
  }
}

define('service-video', ServiceVideo);

declare global {
  interface HTMLElementTagNameMap {
    'service-video': ServiceVideo;
  }
}
