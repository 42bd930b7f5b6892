/**
 * The video widget's player: a chunk of its own, fetched when the visitor asks to play. Native
 * `<video>` with the service's WebVTT captions, controls of our own (the browser's differ per browser
 * and hide the captions' choice), media-chrome's keyboard set, and the position kept per video for
 * the tab's session. It draws in the poster's place, at the poster's size.
 */
import { html, type ReactiveController, type TemplateResult } from 'lit';
import type { VideoMediaResponse } from '../../service/schemas.ts';
import { ApiError } from '../shared/api.ts';
import { translator } from '../shared/i18n.ts';
import { SessionController } from '../shared/session.ts';
import type { ServiceVideo, Video, VideoMedia } from './video.ts';

/** The player's words; German is in video-player.de.ts. */
export const en = {
  player: 'Video player: {title}',
  play: 'Play',
  pause: 'Pause',
  seek: 'Position',
  position: '{time} of {duration}',
  mute: 'Mute',
  volume: 'Volume',
  captions: 'Captions',
  captionsOff: 'Off',
  fullScreen: 'Full screen',
  failed: 'The video could not be played. Try again later.',
};

const t = translator(en, { de: () => import('./video-player.de.ts') });

/** Loads the player's words with the chunk, so that it never flashes English. */
export const loadWords = t.load;

/** Seconds an arrow key seeks. */
const SEEK_STEP = 5;
const VOLUME_STEP = 0.1;

/** The position of each video, for the tab's session (sessionStorage: it dies with the tab). */
const positionKey = (host: ServiceVideo, id: string) => `service-widgets:video-position:${host.url('')}:${id}`;
const storage = {
  get: (key: string) => {
    try {
      return Number(sessionStorage.getItem(key)) || 0;
    } catch {
      return 0;
    }
  },
  set: (key: string, seconds?: number) => {
    try {
      if (seconds) sessionStorage.setItem(key, String(seconds));
      else sessionStorage.removeItem(key);
    } catch {
      // Storage blocked: the position is not kept.
    }
  },
};

export class VideoPlayer implements ReactiveController {
  #video?: Video;
  #media?: VideoMedia;
  /** The captions' language, `''` for none: the widget's language where the video has it, then the visitor's choice. */
  #captions?: string;
  /** The video asked for a fresh signed link once after an error. */
  #renewed = false;
  #started = false;

  /** The page's participant sign-in (the profile widget's): a participants-only video's files are for it. */
  readonly #session: SessionController;

  constructor(private readonly host: ServiceVideo) {
    host.addController(this);
    this.#session = new SessionController(host, ({ session }) => session && host.signedIn());
  }

  /** A participants-only video's files for the signed-in participant; else the sign-in is asked for (undefined). */
  async signedMedia(video: Video): Promise<VideoMedia | undefined> {
    const { host } = this;
    const token = this.#session.session?.token;
    if (!token) return void host.askSignIn(video);
    try {
      return ((await host.api.request(`videos/${video.id}/media`, { body: {}, token })) as VideoMediaResponse).media;
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'invalid-token'))
        return void host.playFailed(video, host.toApiError(error).shown!);
      // The service ended the sign-in: the page's session goes, and the sign-in is asked for again.
      this.#session.write();
      return void host.askSignIn(video, 'invalid-token');
    }
  }

  hostConnected() {}

  /** After each render: the captions shown are the chosen ones. */
  hostUpdated() {
    const tracks = this.#element?.textTracks;
    for (const track of tracks ?? []) track.mode = track.language === this.#captions ? 'showing' : 'disabled';
  }

  get #element() {
    return this.host.renderRoot.querySelector('video') ?? undefined;
  }

  /** A video to play in the poster's place (the last one's player goes). */
  open(video: Video, media: VideoMedia) {
    this.#video = video;
    this.#media = media;
    this.#renewed = this.#started = false;
    const langs = media.tracks.map((track) => track.lang);
    if (this.#captions === undefined || (this.#captions && !langs.includes(this.#captions))) {
      this.#captions = langs.includes(this.host.resolvedLocale) ? this.host.resolvedLocale : '';
    }
  }

  /** Plays, with the focus on the play button (the visitor asked to play: the player is where they are). */
  start() {
    this.host.renderRoot.querySelector<HTMLElement>('.controls button')?.focus();
    void this.#element?.play().catch(() => this.host.requestUpdate());
  }

  render(video: Video): TemplateResult {
    const media = this.#media!;
    const el = this.#element;
    const locale = this.host.resolvedLocale;
    const paused = el?.paused ?? true;
    const duration = el?.duration || video.duration_s;
    const time = el?.currentTime ?? 0;
    const names = new Intl.DisplayNames([locale], { type: 'language' });
    const clock = (seconds: number) => this.host.clock(seconds);
    return html`<div class="media player" role="group" aria-label=${t(locale, 'player', { title: video.title })} @keydown=${this.#keys}>
      <div class="screen">
        <video
          crossorigin="anonymous"
          preload="metadata"
          playsinline
          width=${video.width}
          height=${video.height}
          poster=${this.host.url(video.poster)}
          src=${this.host.url(media.src)}
          @loadedmetadata=${this.#restore}
          @play=${this.#onPlay}
          @pause=${this.#remember}
          @timeupdate=${this.#remember}
          @volumechange=${this.#update}
          @durationchange=${this.#update}
          @ended=${this.#onEnded}
          @error=${this.#onError}
        >
          ${media.tracks.map(
            (track) =>
              html`<track kind="captions" srclang=${track.lang} label=${names.of(track.lang) ?? track.lang} src=${this.host.url(track.src)} />`,
          )}
        </video>
      </div>
      <div class="bar controls">
        <button class="icon" aria-label=${t(locale, paused ? 'play' : 'pause')} @click=${this.#toggle}>
          <span class=${paused ? 'i-play' : 'i-pause'} aria-hidden="true"></span>
        </button>
        <input
          class="seek"
          type="range"
          min="0"
          max=${duration}
          step="1"
          .value=${String(time)}
          aria-label=${t(locale, 'seek')}
          aria-valuetext=${t(locale, 'position', { time: clock(time), duration: clock(duration) })}
          @input=${(e: Event) => this.#seekTo(+(e.target as HTMLInputElement).value)}
        />
        <span class="time" aria-hidden="true">${clock(time)} / ${clock(duration)}</span>
        <button class="icon" aria-label=${t(locale, 'mute')} aria-pressed=${el?.muted ? 'true' : 'false'} @click=${this.#mute}>
          <span class=${el?.muted ? 'i-muted' : 'i-sound'} aria-hidden="true"></span>
        </button>
        <input
          class="volume"
          type="range"
          min="0"
          max="1"
          step=${VOLUME_STEP}
          .value=${String(el?.volume ?? 1)}
          aria-label=${t(locale, 'volume')}
          @input=${(e: Event) => this.#setVolume(+(e.target as HTMLInputElement).value)}
        />
        <select aria-label=${t(locale, 'captions')} @change=${(e: Event) => this.#choose((e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${!this.#captions}>${t(locale, 'captionsOff')}</option>
          ${media.tracks.map(
            (track) =>
              html`<option value=${track.lang} ?selected=${this.#captions === track.lang}>${names.of(track.lang)}</option>`,
          )}
        </select>
        <button class="icon" aria-label=${t(locale, 'fullScreen')} @click=${this.#fullScreen}>
          <span class="i-full" aria-hidden="true"></span>
        </button>
      </div>
    </div>`;
  }

  #update = () => this.host.requestUpdate();

  #toggle = () => {
    const el = this.#element!;
    if (el.paused) void el.play().catch(this.#update);
    else el.pause();
  };

  #seekTo(seconds: number) {
    const el = this.#element!;
    el.currentTime = Math.min(Math.max(0, seconds), el.duration || seconds);
  }

  #setVolume(volume: number) {
    const el = this.#element!;
    el.volume = Math.min(1, Math.max(0, Math.round(volume * 100) / 100));
    el.muted = el.volume === 0;
  }

  #mute = () => {
    const el = this.#element!;
    el.muted = !el.muted;
  };

  /** A language's captions, or none (`''`); `c` toggles between none and the last language (or the first). */
  #choose(lang: string) {
    this.#captions = lang;
    this.host.requestUpdate();
  }

  #lastCaptions = '';

  #toggleCaptions() {
    if (this.#captions) this.#lastCaptions = this.#captions;
    this.#choose(this.#captions ? '' : this.#lastCaptions || (this.#media?.tracks[0]?.lang ?? ''));
  }

  #fullScreen = () => {
    const root = this.host.shadowRoot!;
    if (root.fullscreenElement) void document.exitFullscreen();
    else void root.querySelector<HTMLElement>('.player')?.requestFullscreen();
  };

  /**
   * media-chrome's keyboard set, anywhere in the player: space or k plays and pauses, m mutes, f
   * full screen, c captions, ← → seek, ↑ ↓ volume. A focused control keeps its own keys: space and
   * Enter press a button, arrows move a slider, a menu takes letters.
   */
  #keys = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.composedPath()[0] as HTMLElement;
    const control = target.localName;
    if (control === 'select') return;
    const el = this.#element!;
    const actions: Record<string, (() => void) | undefined> = {
      ' ': control === 'button' ? undefined : this.#toggle,
      k: this.#toggle,
      m: this.#mute,
      f: this.#fullScreen,
      c: () => this.#toggleCaptions(),
      ...(control === 'input'
        ? {}
        : {
            ArrowLeft: () => this.#seekTo(el.currentTime - SEEK_STEP),
            ArrowRight: () => this.#seekTo(el.currentTime + SEEK_STEP),
            ArrowUp: () => this.#setVolume(el.volume + VOLUME_STEP),
            ArrowDown: () => this.#setVolume(el.volume - VOLUME_STEP),
          }),
    };
    const action = actions[event.key.length === 1 ? event.key.toLowerCase() : event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  /** The position kept for this tab's session: where the visitor left off. */
  #restore = () => {
    const el = this.#element!;
    const at = storage.get(positionKey(this.host, this.#video!.id));
    if (at && at < el.duration - 1) el.currentTime = at;
    this.host.requestUpdate();
  };

  #remember = () => {
    const el = this.#element!;
    if (el.currentTime) storage.set(positionKey(this.host, this.#video!.id), el.currentTime);
    this.host.requestUpdate();
  };

  #onPlay = () => {
    if (!this.#started) this.host.announce('started', this.#video!.id);
    this.#started = true;
    this.host.requestUpdate();
  };

  #onEnded = () => {
    storage.set(positionKey(this.host, this.#video!.id));
    this.host.announce('ended', this.#video!.id);
    this.host.requestUpdate();
  };

  /** A signed link that expired while the page was open is asked for anew, once; else the visitor is told. */
  #onError = async () => {
    const video = this.#video!;
    if (video.access === 'participants' && !this.#renewed) {
      this.#renewed = true;
      const media = await this.signedMedia(video);
      if (media) {
        this.#media = media;
        this.host.requestUpdate();
        return;
      }
    }
    this.host.playFailed(video, t(this.host.resolvedLocale, 'failed'));
  };
}
