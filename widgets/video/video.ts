import { html, nothing, type PropertyValues } from 'lit';
import type { VideoDetail } from '../../contract/index.ts';
import type { Video, VideoMedia, WidgetResponse } from '../../service/schemas.ts';
import { ServiceElement, ServiceEvent, define } from '../shared/base.ts';
import { firstView, firstViewStyles, fitFirstView } from '../shared/first-view.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import { baseStyles } from '../shared/styles.ts';
import { videoStyles } from './video.styles.ts';

export type { Video, VideoMedia };

/** The first render: the widget and its videos (one, with `video`). */
export type VideoData = WidgetResponse & { videos: Video[] };

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

/** The list's and the poster's words; German is in video.de.ts. The player's are in its own chunk. */
export const en = {
  heading: 'Videos of {company}',
  empty: 'There are no videos here yet.',
  play: 'Play “{title}”, {duration}',
  forParticipants: 'For participants',
  ask: 'This video is for participants of {company}. Sign in to watch it.',
  askElsewhere: 'This video is for participants of {company}. Sign in to your account on this site, then play it again.',
  signIn: 'Sign in',
  'invalid-token': 'Your sign-in has ended. Sign in again to watch this video.',
  showAll: 'Show all {count} videos',
};

export const t = translator(en, { de: () => import('./video.de.ts') });

/** The player: a chunk of its own, fetched when the visitor asks to play (with its words). */
const playerChunk = () => import('./video-player.ts');

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
 * @csspart button - The main buttons (play, sign in).
 *
 * @cssprop [--service-accent=#1d4ed8] - Buttons, links and focus rings.
 * @cssprop [--service-on-accent=#fff] - Text on accent-coloured buttons.
 * @cssprop [--service-border=#767d89] - Borders of cards.
 * @cssprop [--service-danger=#b3261e] - Errors.
 * @cssprop [--service-radius=8px] - Corner radius.
 *
 * Each poster keeps its video's aspect ratio from the first render; the player's code (native
 * `<video>`, captions, keyboard controls) comes when the visitor asks to play. A participants-only
 * video asks for the page's participant sign-in (the profile widget's) first.
 */
export class ServiceVideo extends ServiceElement<VideoData> {
  static override styles = [baseStyles, firstViewStyles, videoStyles];

  static override properties = {
    video: {},
    _playing: { state: true },
    _asked: { state: true },
    _all: { state: true },
    _notice: { state: true },
    _failed: { state: true },
  };

  /** An unknown video (`data-service-video`) is a widget that is not available. */
  static override errorCodes = { 'video-not-found': 'not-available' };

  /** Shows one video only (its id, `data-service-video` on a placeholder). */
  video = '';

  /** The video whose player is open. */
  private _playing?: string;
  /** A participants-only video the visitor asked to play while signed out: it plays once they sign in. */
  private _asked?: string;
  /** The visitor asked to see every video (the list is no longer held to its reserved space). */
  private _all = false;
  /** A line about the last play that failed, or why the sign-in is asked for again; for the video `_asked` or `_failed`. */
  private _notice = '';
  /** The video whose play failed. */
  private _failed?: string;
  #player?: InstanceType<Awaited<ReturnType<typeof playerChunk>>['VideoPlayer']>;

  protected override loadArgs: PropertyKey[] = ['key', 'baseUrl', 'video', 'locale'];

  protected override loadWords(locale: Locale) {
    return t.load(locale);
  }

  protected override load(signal: AbortSignal) {
    return this.api.request('widget', { params: { type: 'video', video: this.video }, signal }) as Promise<VideoData>;
  }

  protected override step() {
    return this.video ? 'one' : 'list';
  }

  /** @internal A path of the service's answer (a poster, a video file) as a URL of the service. */
  url(path: string) {
    return new URL(path, this.baseUrl || location.origin).href;
  }

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
    return firstView(
      this,
      !this._all,
      html`<h2 tabindex="-1" data-focus>${t(locale, 'heading', { company: widget.company.name })}</h2>
        ${videos.length ? nothing : html`<p class="notice">${t(locale, 'empty')}</p>`}
        <ul class="videos fill">
          ${videos.map(
            (video) =>
              html`<li class="card ${this._playing === video.id ? 'playing' : ''}" part="card" aria-labelledby="title-${video.id}">
                ${this.#renderMedia(video)}
                <h3 id="title-${video.id}">${video.title}</h3>
                ${this.#renderFacts(video)}
              </li>`,
          )}
        </ul>`,
      t(locale, 'showAll', { count: videos.length }),
      this.#showAll,
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

  /** The poster with its play button (or the sign-in it asks for), or the player; the same size. */
  #renderMedia(video: Video) {
    if (this._playing === video.id && this.#player) return this.#player.render(video);
    const locale = this.resolvedLocale;
    const company = this.data!.widget.company.name;
    const asking = this._asked === video.id;
    const profile = document.querySelector('service-profile');
    return html`<div class="media">
      <div class="screen">
        <img src=${this.url(video.poster)} width=${video.width} height=${video.height} alt="" />
        ${
          asking
            ? html`<div class="ask" role="alert" tabindex="-1">
              <p>${this._notice || t(locale, profile ? 'ask' : 'askElsewhere', { company })}</p>
              ${profile ? html`<button part="button" @click=${() => this.#goToSignIn(profile)}>${t(locale, 'signIn')}</button>` : nothing}
            </div>`
            : html`<button
              class="play"
              part="button"
              aria-label=${t(locale, 'play', { title: video.title, duration: clock(video.duration_s) })}
              @click=${() => this.play(video)}
            >
              <span aria-hidden="true"></span>
            </button>`
        }
      </div>
      <p class="bar" role="status">${this._failed === video.id ? this._notice : ''}</p>
    </div>`;
  }

  /** The page's profile widget takes the visitor to its sign-in. */
  #goToSignIn(profile: Element) {
    profile.scrollIntoView({ block: 'center' });
    const root = profile.shadowRoot;
    (root?.querySelector('input') ?? root?.querySelector<HTMLElement>('[data-focus]'))?.focus();
  }

  /**
   * @internal Plays a video: the player's code comes now (and for a participants-only video the
   * page's sign-in with it: its files are signed for the participant, or the sign-in is asked for).
   */
  async play(video: Video) {
    Object.assign(this, { _notice: '', _failed: undefined });
    const chunk = await playerChunk().then(async (chunk) => (await chunk.loadWords(this.resolvedLocale), chunk));
    const player = (this.#player ??= new chunk.VideoPlayer(this));
    const media = video.media ?? (await player.signedMedia(video));
    if (!media) return;
    player.open(video, media);
    Object.assign(this, { _asked: undefined, _playing: video.id, _all: true });
    await this.updateComplete;
    player.start();
  }

  /** @internal Asks for the page's sign-in before this video plays (`why`: a line saying why it is asked again). */
  async askSignIn(video: Video, why: '' | 'invalid-token' = '') {
    this._asked = video.id;
    this._notice = why && t(this.resolvedLocale, why);
    await this.updateComplete;
    const ask = this.renderRoot.querySelector<HTMLElement>('.ask');
    (ask?.querySelector('button') ?? ask)?.focus();
  }

  /** @internal Signed in elsewhere on the page: the video the visitor asked for plays. */
  signedIn() {
    const asked = this.data?.videos.find((v) => v.id === this._asked);
    if (asked) void this.play(asked);
  }

  /** @internal A play that failed: the poster (back in the player's place) says so. */
  playFailed(video: Video, message: string) {
    Object.assign(this, { _playing: undefined, _failed: video.id, _notice: message });
  }

  /** @internal A duration as the widget writes it (`0:06`). */
  clock(seconds: number) {
    return clock(seconds);
  }

  /** @internal The player tells the page: the visitor started a video, or watched it to its end. */
  announce(what: 'started' | 'ended', id: string) {
    this.dispatchEvent(what === 'started' ? new VideoStartedEvent({ id }) : new VideoEndedEvent({ id }));
  }

  #showAll = async () => {
    this._all = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  };

  protected override willUpdate(changed: PropertyValues<this>) {
    // Another video, or other data: the open player and a pending ask go.
    if (changed.has('video') || changed.has('key')) Object.assign(this, { _playing: undefined, _asked: undefined });
    super.willUpdate(changed);
  }

  protected override updated() {
    fitFirstView(this.renderRoot, this);
    super.updated();
  }
}

define('service-video', ServiceVideo);

declare global {
  interface HTMLElementTagNameMap {
    'service-video': ServiceVideo;
  }
}
