/**
 * The video widget's player: a chunk of its own, fetched when the visitor asks to play. Native
 * `<video>` with the service's WebVTT captions, controls of our own (the browser's differ per browser
 * and hide the captions' choice), media-chrome's keyboard set, and the position kept per video for
 * the tab's session. It draws in the poster's place, at the poster's size. A participants-only video
 * asks for the page's sign-in (the profile widget's), or, on a page without one, signs in below its
 * poster (widgets/shared/sign-in.ts, on demand), and plays from links signed for a few minutes,
 * renewed as they expire. The sign-in's emailed link comes back to the page with the video's id: the
 * player, made at once for it, takes it.
 */
import { html, nothing, type ReactiveController, type TemplateResult } from 'lit';
import type { ParticipantMeResponse, VideoMediaResponse } from '../../contract/api/index.ts';
import type { PageRequest } from '../../contract/page.ts';
import { ApiError } from '../shared/api.ts';
import { toApiError, type ChunkHost } from '../shared/base.ts';
import { formStyles } from '../shared/form.ts';
import { translator } from '../shared/i18n.ts';
import { read, store } from '../shared/page-state.ts';
import { SessionController, SIGN_IN_EVENT } from '../shared/session.ts';
import type { SignIn } from '../shared/sign-in.ts';
import type { Held, Video, VideoData, VideoMedia } from './video.ts';
import { playerStyles } from './video-player.styles.ts';

/** The player's words, and the lines about the sign-in (its steps' words come with them); German is in video-player.de.ts. */
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
  failed: 'The video could not be played.',
  ask: 'This video is for participants of {company}. Sign in to watch it.',
  participantsOnly: 'This recording is for participants of {course}.',
  unpaid: 'Your place in {course} is not paid yet: this recording plays once it is.',
  signIn: 'Sign in',
  'invalid-token': 'Your sign-in has ended. Sign in again to watch this video.',
  signedIn: 'You are signed in as {name}.',
  playNow: 'Play now',
  linkEnded: 'This sign-in link has expired. Sign in again to watch this video.',
  signInFailed: 'The sign-in could not be loaded. Check your connection and try again.',
  otherEmail: 'Sign in with another email',
};

const t = translator(en, { de: () => import('./video-player.de.ts') });

/**
 * The parameter that brings a visitor back from the sign-in link this widget emailed, its value the
 * video's id beside the link's `key` (video.ts looks for it, to make the player at once).
 */
const LINK = 'service-video';

/** The sign-in's steps, shared with the profile widget: fetched when a video asks for them here. */
const signInChunk = () => import('../shared/sign-in.ts');

/** Loads the player's words with the chunk, so that it never flashes English. */
export const loadWords = t.load;

/** What the player needs of its widget (and nothing else of it). */
export interface PlayerHost extends Pick<ChunkHost<VideoData>, 'element' | 'api'> {
  /** A path of the service's answer as a URL of the service. */
  url(path: string): string;
  /** A duration as the widget writes it (`0:06`). */
  clock(seconds: number): string;
  /** Tells the page: the visitor started a video, or watched it to its end. */
  announce(what: 'started' | 'ended', id: string): void;
  /** A video cannot play now: its poster says why (the sign-in it waits for); resolves once it shows. */
  hold(held: Held): Promise<void>;
  /** A play failed: its poster says so, with a retry. */
  failed(video: Video, line: string): void;
  /** The page's sign-in came (or the visitor asks to play once it has): the video that waited for it plays. */
  signedIn(): void;
}

/** How long before a participants-only video's links expire the player asks for new ones. */
const RENEW_AHEAD_MS = 60_000;

/** Seconds an arrow key seeks. */
const SEEK_STEP = 5;
const VOLUME_STEP = 0.1;

/** The position of each video, for the tab's session (the page's storage: it dies with the tab). */
const positionKey = (host: PlayerHost, id: string) => `video-position:${host.url('')}:${id}`;
const position = {
  get: (key: string) => Number(read(key)) || 0,
  set: (key: string, seconds?: number) => store(key, seconds ? String(seconds) : undefined),
};

/** Language names, one per locale: the player renders on every `timeupdate`. */
const languageNames: Record<string, Intl.DisplayNames> = {};

export class VideoPlayer implements ReactiveController {
  #video?: Video;
  #media?: VideoMedia;
  /** The captions' language, `''` for none: the widget's language where the video has it, then the visitor's choice. */
  #captions?: string;
  /** The signed link was renewed after a failure and has not loaded since: another failure is a failure. */
  #renewing = false;
  /** Where the video goes on once a renewed link has loaded: its position, and whether it was playing. */
  #resume?: { at: number; playing: boolean };
  /**
   * Where the video begins, from the position kept for the tab's session: a media fragment (`#t=`)
   * of its address, so that it begins there from its first frame, whenever its metadata comes.
   */
  #from = 0;
  /** The service's clock ahead of this browser's (ms), from its last answer: links expire by the service's clock. */
  #skew = 0;
  /** The next renewal of the links, before they expire. */
  #renewal?: ReturnType<typeof setTimeout>;
  #started = false;

  /** The page's participant sign-in (the profile widget's, or this widget's): a participants-only video's files are for it. */
  readonly #session: SessionController;
  /** The sign-in below a poster, on a page where no widget offers it. */
  #signIn?: SignIn;
  /** The video whose poster shows the sign-in (its link comes back to it). */
  #asking = '';
  /** "Sign in with another email" was pressed: its sign-out is on its way. */
  #signingOut = false;
  /** The sign-in's line above its step (`''`: none). */
  #notice = '';
  /** Back from the link the sign-in emailed: the video it was for, and the link's token. */
  #link?: { id: string; token: string | null };

  constructor(private readonly host: PlayerHost) {
    const { element } = host;
    const root = element.shadowRoot!;
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, playerStyles.styleSheet!];
    element.addController(this);
    this.#session = new SessionController(element, ({ session }) => session && host.signedIn());
    // The link's token and video go from the address at once (a token never stays in a URL); the
    // sign-in follows once the widget has its videos.
    const url = new URL(location.href);
    const id = url.searchParams.get(LINK);
    if (id !== null) {
      this.#link = { id, token: url.searchParams.get('key') };
      url.searchParams.delete(LINK);
      url.searchParams.delete('key');
      history.replaceState(history.state, '', url);
      element.requestUpdate();
    }
  }

  /**
   * A participants-only video's files for the signed-in participant (links signed for a few minutes);
   * else (undefined) the sign-in is asked for, or the failure said.
   */
  async signedMedia(video: Video): Promise<VideoMedia | undefined> {
    const { element } = this.host;
    const token = this.#session.session?.token;
    if (token) {
      try {
        const { media, now } = (await this.host
          .api()
          .request(`videos/${video.id}/media`, { body: {}, token })) as VideoMediaResponse;
        this.#skew = Date.parse(now) - Date.now();
        return media;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'participants-only') {
          // Signed in, but not a participant of this video's programme (or not yet: a place not paid
          // yet, which the service says): nothing to try again, but
          // another email to sign in with (a page without a profile widget offers no sign-out).
          const course = (error.details?.course as { title: string } | null | undefined)?.title;
          const locale = element.resolvedLocale;
          return void this.host.hold({
            id: video.id,
            line: t(locale, error.details?.unpaid ? 'unpaid' : 'participantsOnly', {
              course: course ?? element.data!.widget.company.name,
            }),
            action: [t(locale, 'otherEmail'), () => void this.#signOut(video, token)],
          });
        }
        if (!(error instanceof ApiError && error.code === 'invalid-token')) {
          return void this.host.failed(video, toApiError(error, element.resolvedLocale).shown!);
        }
        // The service ended the sign-in: the page's session goes, and the sign-in is asked for again.
        this.#session.write();
      }
    }
    const locale = element.resolvedLocale;
    const line = token ? t(locale, 'invalid-token') : t(locale, 'ask', { company: element.data!.widget.company.name });
    // A widget of the page that offers the sign-in (the profile) shows its own; else it is here.
    if (!this.#askSignIn(false)) return void this.#signInHere(video, line);
    void this.host.hold({ id: video.id, line, action: [t(locale, 'signIn'), () => this.#askSignIn(true)], ask: true });
  }

  /**
   * Ends the page's sign-in (at the service too, where it can: a failure there ends it in the page
   * all the same), and asks for the sign-in again for this video.
   */
  async #signOut(video: Video, token: string) {
    if (this.#signingOut) return;
    this.#signingOut = true;
    try {
      await this.host
        .api()
        .request('participant/logout', { body: {}, token })
        .catch(() => null);
      this.#session.write();
      // The sign-in here, if it was used, begins again with an empty email field.
      this.#signIn?.done();
      this.#signIn?.form.reset();
      await this.signedMedia(video);
    } finally {
      this.#signingOut = false;
    }
  }

  /**
   * The sign-in below the video's poster (no widget on the page offers it), with the focus in its
   * field; once signed in, the video plays. Its code that does not come is said, with a retry.
   */
  async #signInHere(video: Video, line: unknown) {
    const { element } = this.host;
    let signIn;
    try {
      const chunk = await signInChunk();
      await chunk.loadWords(element.resolvedLocale);
      signIn = this.#signIn ??= this.#newSignIn(chunk);
    } catch {
      return this.host.failed(video, t(element.resolvedLocale, 'signInFailed'));
    }
    this.#asking = video.id;
    signIn.prefetch();
    await this.host.hold({ id: video.id, line, ask: true, below: () => html`<div class="sign-in">${signIn.render()}</div>` });
    element.renderRoot.querySelector<HTMLElement>('.sign-in input')?.focus();
  }

  /** The sign-in's steps in this widget: its emailed link comes back to this page and video; its token is the page's sign-in. */
  #newSignIn({ SignIn }: Awaited<ReturnType<typeof signInChunk>>) {
    const { element } = this.host;
    const root = element.shadowRoot!;
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, formStyles.styleSheet!];
    return new SignIn({
      element,
      api: this.host.api,
      returnUrl: () => {
        const page = new URL(location.href);
        page.hash = '';
        page.searchParams.set(LINK, this.#asking);
        return page.href;
      },
      // The page's session changes: the video that waits for it plays (the constructor's controller).
      enter: async ({ token, participant }) => (this.#session.write({ token, participant }), true),
      notice: () => html`<div role="status">${this.#notice ? html`<p class="notice">${this.#notice}</p>` : nothing}</div>`,
      say: (line) => {
        this.#notice = line;
        element.requestUpdate();
      },
    });
  }

  /**
   * Back from the sign-in's link: its token signs in (the page's session), and its video says so, with
   * the focus on its play button (the visitor came back to watch it). A link that no longer works asks
   * for the sign-in again, unless the page is signed in already.
   */
  async #fromLink({ id, token }: { id: string; token: string | null }) {
    const { element } = this.host;
    const locale = element.resolvedLocale;
    const video = element.data!.videos.find((v) => v.id === id);
    if (!token) return;
    try {
      const { participant } = (await this.host.api().request('participant/me', { body: {}, token })) as ParticipantMeResponse;
      this.#session.write({ token, participant });
      const [before, after] = t(locale, 'signedIn', { name: '\u0000' }).split('\u0000');
      const name = `${participant.first_name} ${participant.last_name}`;
      if (video)
        await this.host.hold({
          id,
          line: html`${before}<bdi>${name}</bdi>${after}`,
          action: [t(locale, 'playNow'), () => this.host.signedIn()],
          ask: true,
        });
    } catch (error) {
      if (this.#session.session || !video) return;
      if (error instanceof ApiError && error.code === 'invalid-token') return this.#signInHere(video, t(locale, 'linkEnded'));
      this.host.failed(video, toApiError(error, locale).shown!);
    }
  }

  /**
   * Asks the page's sign-in (session.ts): whether a widget on the page offers it for this service and
   * company; with `show`, it shows it.
   */
  #askSignIn(show: boolean) {
    const { baseUrl, company } = this.#session;
    return !dispatchEvent(new CustomEvent<PageRequest>(SIGN_IN_EVENT, { cancelable: true, detail: { baseUrl, company, show } }));
  }

  /** Back on the page: the links are renewed in time again. */
  hostConnected() {
    if (this.#media) this.#use(this.#media);
  }

  hostDisconnected() {
    clearTimeout(this.#renewal);
  }

  /** After each render: the captions shown are the chosen ones; a link's sign-in begins once the videos are there. */
  hostUpdated() {
    const tracks = this.#element?.textTracks;
    for (const track of tracks ?? []) track.mode = track.language === this.#captions ? 'showing' : 'disabled';
    const link = this.#link;
    if (link && this.host.element.data) {
      this.#link = undefined;
      void this.#fromLink(link);
    }
  }

  get #element() {
    return this.host.element.renderRoot.querySelector('video') ?? undefined;
  }

  /** A video to play in the poster's place (the last one's player goes). */
  open(video: Video, media: VideoMedia) {
    this.#video = video;
    this.#renewing = this.#started = false;
    this.#resume = undefined;
    // A position kept for the session is no place to go on from once the video has (nearly) ended.
    const kept = position.get(positionKey(this.host, video.id));
    this.#from = kept < video.duration_s - 1 ? kept : 0;
    this.#use(media);
    const langs = media.tracks.map((track) => track.lang);
    const locale = this.host.element.resolvedLocale;
    if (this.#captions === undefined || (this.#captions && !langs.includes(this.#captions))) {
      this.#captions = langs.includes(locale) ? locale : '';
    }
  }

  /** Plays, with the focus on the play button (the visitor asked to play: the player is where they are). */
  start() {
    this.host.element.renderRoot.querySelector<HTMLElement>('.controls button')?.focus();
    void this.#element?.play().catch(this.#update);
  }

  render(video: Video): TemplateResult {
    const media = this.#media!;
    const el = this.#element;
    const locale = this.host.element.resolvedLocale;
    const paused = el?.paused ?? true;
    const duration = el?.duration || video.duration_s;
    const time = el?.currentTime ?? 0;
    const names = (languageNames[locale] ??= new Intl.DisplayNames([locale], { type: 'language' }));
    const { clock, url } = this.host;
    return html`<div class="media player" role="group" aria-label=${t(locale, 'player', { title: video.title })} @keydown=${this.#keys}>
      <div class="screen">
        <video
          crossorigin="anonymous"
          preload="metadata"
          playsinline
          width=${video.width}
          height=${video.height}
          poster=${url(video.poster)}
          src=${url(media.src) + (this.#from ? `#t=${this.#from}` : '')}
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
              html`<track kind="captions" srclang=${track.lang} label=${names.of(track.lang) ?? track.lang} src=${url(track.src)} />`,
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

  #update = () => this.host.element.requestUpdate();

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
    this.#update();
  }

  #lastCaptions = '';

  #toggleCaptions() {
    if (this.#captions) this.#lastCaptions = this.#captions;
    this.#choose(this.#captions ? '' : this.#lastCaptions || (this.#media?.tracks[0]?.lang ?? ''));
  }

  #fullScreen = () => {
    const root = this.host.element.shadowRoot!;
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

  /**
   * Whether an event is of the video open now: one the visitor has just left still tells of its
   * pause, which is none of the next one's position.
   */
  #current(event: Event) {
    return event.target === this.#element;
  }

  /**
   * Once the file's metadata has come: the video goes on where it was before its link was renewed.
   */
  #restore = (event: Event) => {
    if (!this.#current(event)) return;
    const el = event.target as HTMLVideoElement;
    const resume = this.#resume;
    this.#renewing = false;
    this.#resume = undefined;
    // (Where the session left it, the address's fragment has begun it.)
    if (resume?.at) el.currentTime = resume.at;
    if (resume?.playing) void el.play().catch(this.#update);
    this.#update();
  };

  #remember = (event: Event) => {
    if (!this.#current(event)) return;
    const el = event.target as HTMLVideoElement;
    if (el.currentTime) position.set(positionKey(this.host, this.#video!.id), el.currentTime);
    this.#update();
  };

  #onPlay = (event: Event) => {
    if (!this.#current(event)) return;
    if (!this.#started) this.host.announce('started', this.#video!.id);
    this.#started = true;
    this.#update();
  };

  #onEnded = (event: Event) => {
    if (!this.#current(event)) return;
    position.set(positionKey(this.host, this.#video!.id));
    this.host.announce('ended', this.#video!.id);
    this.#update();
  };

  /**
   * The files to play; a participants-only video's links are renewed a minute before they expire
   * (by the service's clock), for as long as the player is open.
   */
  #use(media: VideoMedia) {
    this.#media = media;
    clearTimeout(this.#renewal);
    if (media.expires_at) {
      const due = Date.parse(media.expires_at) - (Date.now() + this.#skew) - RENEW_AHEAD_MS;
      this.#renewal = setTimeout(() => void this.#renew(), Math.max(0, due));
    }
  }

  /**
   * New links for the video open, which goes on where it is (its position, playing or paused); the
   * player draws it from them. Undefined when they cannot come (the poster then says why).
   */
  async #renew() {
    const el = this.#element;
    const video = this.#video!;
    if (!el) return;
    this.#resume = { at: el.currentTime, playing: !el.paused };
    const media = await this.signedMedia(video);
    if (!media || this.#video !== video) return;
    this.#use(media);
    this.#update();
  }

  /**
   * A participants-only video's links live a few minutes: one that has expired all the same (a device
   * that slept through its renewal) is renewed each time the player meets it. A renewed link that
   * fails before it has loaded, or a public video that fails, is said.
   */
  #onError = async (event: Event) => {
    if (!this.#current(event)) return;
    const video = this.#video!;
    if (video.access === 'participants' && !this.#renewing) {
      this.#renewing = true;
      return this.#renew();
    }
    this.host.failed(video, t(this.host.element.resolvedLocale, 'failed'));
  };
}
