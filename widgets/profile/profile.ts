import { html, nothing, type TemplateResult } from 'lit';
import type { ProfileLoginDetail, ProfileLogoutDetail } from '../../contract/index.ts';
import type { ApiError } from '../shared/api.ts';
import { ServiceElement, ServiceEvent, define, toApiError, type ChunkHost } from '../shared/base.ts';
import { formStyles } from '../shared/form.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import type { ParticipantMeResponse, ParticipantRegistration } from '../../contract/api/index.ts';
import { readSession, SessionController, type SessionChange } from '../shared/session.ts';
import type { SignIn } from '../shared/sign-in.ts';
import { baseStyles } from '../shared/styles.ts';

export type ProfileRegistration = ParticipantRegistration;

/** What the widget shows: the company, and, signed in, the participant's area (`participant/me`) and token. */
export type ProfileData = Pick<ParticipantMeResponse, 'widget'> & Partial<ParticipantMeResponse> & { token?: string };

/** A participant signed in with the PIN or the emailed link. */
export class ProfileLoginEvent extends ServiceEvent<ProfileLoginDetail> {
  constructor(detail: ProfileLoginDetail) {
    super('service-profile-login', detail);
  }
}

/** The participant signed out, or the service ended the session. */
export class ProfileLogoutEvent extends ServiceEvent<ProfileLogoutDetail> {
  constructor() {
    super('service-profile-logout', {});
  }
}

/**
 * The widget's own words; German is in profile.de.ts. The sign-in's (shared with the video widget) and
 * the signed-in view's are in their own chunks.
 */
const en = {
  heading: 'Your account at {company}',
  'invalid-token': 'You have been signed out. Sign in again to see your account.',
};

/** The widget's words, as profile.de.ts gives them in German. */
export type ProfileWords = typeof en;

const t = translator(en, { de: () => import('./profile.de.ts') });

/** The signed-in view: a chunk of its own, fetched with the participant's data (most visitors are signed out). */
const accountChunk = () => import(/* first render: signed in */ './profile-account.ts');
/**
 * The sign-in's steps (shared with the video widget): a chunk of its own, fetched with the first
 * render's data, whichever it is (signing out shows them at once).
 */
const signInChunk = () => import(/* first render */ /* first render: signed in */ '../shared/sign-in.ts');

/** What the signed-in view needs of the widget (and nothing else of it). */
export interface ProfileHost extends ChunkHost<ProfileData> {
  /** The page's sign-in, shared with every widget on it. */
  session: SessionController;
  /** The line above the step: what just happened (announced politely). */
  notice(): TemplateResult;
  /** Says a line above the step (`''`: none). */
  say(line: string): void;
  /** Ends the session here and everywhere on the page, with a line saying why (a code of the widget's words). */
  signOut(why?: string): void;
  /** Shows the participant's data as it is now (after a change of theirs). */
  show(data: ProfileData): void;
  /** Reads the participant's data again and shows it (it changed elsewhere on the page). */
  refresh(): void;
}

/**
 * @tagname service-profile
 * @summary The participant's own area: passwordless sign-in (email, then the emailed PIN or link),
 * their details, their upcoming and past registrations, cancelling, signing out.
 *
 * @fires service-profile-login - Signed in with the PIN or the emailed link; `detail: { id }` (the participant's id).
 * @fires service-profile-logout - Signed out (by the visitor, here or in another widget of the page, or because the service ended the session).
 * @fires service-registration-cancelled - A registration was cancelled; `detail: { id, course, class }`.
 *
 * @csspart base - The widget's outer container.
 * @csspart button - The main buttons.
 *
 * @cssprop [--service-accent=#1d4ed8] - Buttons, links and focus rings.
 * @cssprop [--service-on-accent=#fff] - Text on accent-coloured buttons.
 * @cssprop [--service-border=#767d89] - Borders of fields and lists.
 * @cssprop [--service-danger=#b3261e] - Errors.
 * @cssprop [--service-radius=8px] - Corner radius.
 */
export class ServiceProfile extends ServiceElement<ProfileData> {
  static override styles = [baseStyles, formStyles];
  static override properties = {
    _notice: { state: true },
  };

  /** A line above the current step: what just happened (announced politely). */
  private _notice = '';

  /** The sign-in of the page, shared with every widget on it. */
  readonly #session = new SessionController(
    this,
    (change) => this.#followSession(change),
    // Another widget asks for the sign-in (a participants-only video): its field (the email's or the
    // PIN's) takes the focus, which brings it into view.
    // The email the visitor just gave elsewhere (a registration's) fills an empty email field.
    (show, { email }) => {
      const field = this.renderRoot.querySelector('input');
      if (show && email && field?.id === 'email' && !field.value) {
        field.value = email;
        this.#signInSteps!.form.values = { ...this.#signInSteps!.form.values, email };
      }
      if (show) field?.focus();
      return !!field;
    },
  );
  /** The sign-in: the email, then the PIN (the page's, as the video widget's is); there once the widget has data. */
  #signInSteps?: SignIn;
  #account?: InstanceType<Awaited<ReturnType<typeof accountChunk>>['ProfileAccount']>;
  /** A token being turned into the signed-in view (after the PIN, or from another widget's sign-in). */
  #pending?: string;

  protected override loadWords(locale: Locale) {
    return t.load(locale);
  }

  protected override async load(signal: AbortSignal): Promise<ProfileData> {
    // Arriving through the emailed link: take the token and take it out of the address bar.
    const url = new URL(location.href);
    const linkToken = url.searchParams.get('key');
    if (linkToken) {
      url.searchParams.delete('key');
      history.replaceState(history.state, '', url);
    }
    // An old emailed link must not end a session that still works: the stored token is tried next.
    let refused;
    const signedIn = async (...tokens: (string | null | undefined)[]) => {
      for (const token of new Set(tokens)) {
        if (!token) continue;
        try {
          const data = await this.#me(token, signal);
          if (token === linkToken) this.dispatchEvent(new ProfileLoginEvent({ id: data.participant!.id }));
          return data;
        } catch (error) {
          if (toApiError(error, this.resolvedLocale).status !== 401) throw error;
          refused = 1;
        }
      }
    };
    const signedInData = await signedIn(linkToken, this.#session.session?.token);
    if (signedInData) return signedInData;
    const [data, steps] = await Promise.all([
      this.api.request('widget', { params: { type: 'profile' }, signal }) as Promise<ProfileData>,
      this.#steps(),
    ]);
    // The page's sign-in made with another key of the company (a video's), which this key's first
    // answer names.
    const other = await signedIn(refused ? undefined : readSession(this.#session.baseUrl, data.widget.company.id)?.token);
    if (other) return other;
    if (refused) this.#signOut('invalid-token');
    steps.prefetch();
    return data;
  }

  /** The sign-in's steps, with their code and words (made once). */
  async #steps() {
    const chunk = await signInChunk();
    await chunk.loadWords(this.resolvedLocale);
    if (!this.#signInSteps) {
      this.#signInSteps = new chunk.SignIn({
        element: this,
        api: () => this.api,
        returnUrl: () => {
          const page = new URL(location.href);
          page.hash = '';
          return page.href;
        },
        enter: ({ token }) => this.#enter(token),
        notice: () => this.#renderNotice(),
        say: (line) => (this._notice = line),
        heading: (title) =>
          html`<h2 tabindex="-1" data-focus>${title ?? t(this.resolvedLocale, 'heading', { company: this.data!.widget.company.name })}</h2>`,
      });
    }
    return this.#signInSteps;
  }

  /** The signed-in first render, with the signed-in view's code and words, which takes it (the page's session follows). */
  async #me(token: string, signal?: AbortSignal): Promise<ProfileData> {
    const [data, chunk] = await Promise.all([
      this.api.request('participant/me', { body: {}, token, signal }) as Promise<ProfileData>,
      accountChunk().then(async (chunk) => (await chunk.loadWords(this.resolvedLocale), chunk)),
      this.#steps(),
    ]);
    return (this.#account ??= new chunk.ProfileAccount(this.#host())).take(token, data);
  }

  /** What the signed-in view gets of the widget. */
  #host(): ProfileHost {
    return {
      element: this,
      api: () => this.api,
      session: this.#session,
      notice: () => this.#renderNotice(),
      say: (line) => (this._notice = line),
      signOut: (why) => this.#signOut(why),
      show: (data) => (this.data = data),
      refresh: () => this.#signIn(this.data?.token),
    };
  }

  /**
   * Turns a token into the signed-in view (`quietly`: the focus stays where the visitor is); a token
   * the service no longer knows signs out.
   */
  async #signIn(token?: string, quietly?: boolean) {
    if (!token) return;
    try {
      const data = await this.#me(token);
      if (quietly) this.keepFocus();
      this.data = data;
    } catch (error) {
      this.#failed(error);
    }
  }

  /** Signed in or out in another widget on the page: follow, and the focus stays where the visitor is. */
  async #followSession({ session }: SessionChange) {
    const token = session?.token;
    const data = this.data;
    if (!data || token === data.token || (token && token === this.#pending)) return;
    this.keepFocus();
    this._notice = '';
    this.#signInSteps?.done();
    if (!token) {
      this.data = { widget: data.widget };
      // The page is told, as when the visitor signs out here (a video's "Sign in with another email").
      this.dispatchEvent(new ProfileLogoutEvent());
      return;
    }
    this.#pending = token;
    await this.#signIn(token, true);
    this.#pending = undefined;
  }

  /** Ends the session here and everywhere on the page, with a line saying why (a code of `en`). */
  #signOut(why = '') {
    const wasIn = !!this.data?.token;
    // The next sign-in begins with the address signed out of (changed since, the one typed then no
    // longer signed in, and no PIN came).
    const email = this.data?.participant?.email;
    if (this.data) this.data = { widget: this.data.widget };
    this.#session.write();
    this.#pending = undefined;
    this.#signInSteps?.done(email);
    this._notice = why && t(this.resolvedLocale, why as keyof typeof en);
    if (wasIn || why) this.dispatchEvent(new ProfileLogoutEvent());
  }

  /** A failure outside a form: a 401 ends the session; anything else is said above the step. */
  #failed(error: unknown) {
    const failed = toApiError(error, this.resolvedLocale);
    if (failed.code === 'invalid-token') return this.#signOut('invalid-token');
    this._notice = failed.shown!;
  }

  protected override step() {
    return this.data?.token ? 'account' : this.#signInSteps?.sentTo ? 'pin' : 'email';
  }

  override render(): TemplateResult {
    return this.renderState((data): unknown => (data.token ? this.#account!.render(data) : this.#signInSteps!.render()), 2);
  }

  /** The line above the step: what just happened. */
  #renderNotice() {
    return html`<div role="status">${this._notice ? html`<p class="notice">${this._notice}</p>` : nothing}</div>`;
  }

  /**
   * Signs in with a token (the PIN's): resolves true once the signed-in view shows. Until then the
   * token is this widget's, so that the page's session changing to it is no news.
   */
  async #enter(token: string) {
    this.#pending = token;
    const data = await this.#signInSteps!.form.send(
      () => this.#me(token),
      (error: ApiError) => (error.code === 'invalid-token' ? (this.#signOut('invalid-token'), '') : undefined),
    );
    this.#pending = undefined;
    if (!data) return false;
    this.#account!.expand();
    this.data = data;
    this.dispatchEvent(new ProfileLoginEvent({ id: data.participant!.id }));
    return true;
  }
}

define('service-profile', ServiceProfile);

declare global {
  interface HTMLElementTagNameMap {
    'service-profile': ServiceProfile;
  }
}
