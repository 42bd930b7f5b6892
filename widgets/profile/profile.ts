import { html, nothing, type PropertyValues } from 'lit';
import { ApiError } from '../shared/api.ts';
import { ServiceElement, define } from '../shared/base.ts';
import { translator, type Locale } from '../shared/i18n.ts';
import { readSession, writeSession, SESSION_EVENT, type Participant } from '../shared/session.ts';
import { baseStyles } from '../shared/styles.ts';
import { profileStyles } from './profile.styles.ts';

export interface ProfileRegistration {
  id: string;
  status: 'confirmed' | 'waitlisted';
  course: { id: string; title: string };
  class: { id: string; starts_at: string; ends_at: string; timezone?: string; location: string };
  /** The class has started, by the service's clock. */
  past: boolean;
  cancellable: boolean;
  cancel_until?: string;
}

interface Company {
  id: string;
  name: string;
}

/** What the widget shows: the company, and the participant when logged in. */
export interface ProfileData {
  widget: { company: Company };
  participant?: Participant;
  /** A new email waiting for the PIN (or link) sent to it. */
  email_change?: { email: string; expires_at: string } | null;
  registrations?: ProfileRegistration[];
  token?: string;
}

/** The sign-in's words; German is in profile.de.ts. The signed-in view's are in its own chunk. */
export const en = {
  heading: 'Your account at {company}',
  intro: 'Sign in with your email address: we will send you a PIN.',
  email: 'Email',
  sendPin: 'Send PIN',
  checkEmail: 'Check your email',
  pinSent: 'If {email} belongs to an account, we have sent it a 6-digit PIN and a sign-in link. The PIN works for 5 minutes.',
  pin: 'PIN',
  signIn: 'Sign in',
  newPin: 'Send a new PIN',
  newPinSent: 'A new PIN is on its way.',
  otherEmail: 'Use another email',
  'pin-wrong': 'That PIN is not right. Tries left: {left}.',
  'pin-expired': 'This PIN has expired. Send a new one.',
  'pin-used': 'This PIN has been used already. Send a new one.',
  'pin-locked': 'Too many wrong tries: this PIN no longer works. Send a new one.',
  'pin-missing': 'This is not the PIN of the latest email we sent. Enter that one, or send a new one.',
  'invalid-token': 'You have been signed out. Sign in again to see your account.',
  fixFields: 'Please correct the highlighted fields.',
  kept: 'Your entries are kept.',
};

export const t = translator(en, { de: () => import('./profile.de.ts') });

/** Remembers which company a key belongs to, so a returning visitor's session is found before the first answer. */
const companyOf = (base: string, key: string) => sessionStorage.getItem(`service-widgets:company:${base}:${key}`) ?? '';

/**
 * @summary The participant's own area: passwordless sign-in (email, then the emailed PIN or link),
 * their details, their upcoming and past registrations, cancelling, signing out.
 *
 * @fires service-profile-login - Signed in with the PIN or the emailed link; `detail: { id }` (the participant's id).
 * @fires service-profile-logout - Signed out (by the visitor, or because the service ended the session).
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
  static override styles = [baseStyles, profileStyles];
  static override properties = {
    _email: { state: true },
    _pinSent: { state: true },
    _message: { state: true },
    _errors: { state: true },
    _sending: { state: true },
    _editing: { state: true },
    _confirming: { state: true },
  };

  private _email = '';
  private _pinSent = false;
  /** A notice above the current step (an error, or what just happened). */
  _message = '';
  _errors: Record<string, string | undefined> = {};
  _sending = false;
  _editing = false;
  _confirming = '';

  protected override loadArgs: PropertyKey[] = ['key', 'baseUrl', 'locale'];
  /** The signed-in view: a chunk of its own, fetched with the participant's data (most visitors are signed out). */
  #account?: typeof import('./profile-account.ts');

  /** @internal For the signed-in view (profile-account.ts). */
  get _data() {
    return this.data!;
  }
  set _data(data: ProfileData) {
    this.data = data;
  }
  /** @internal Fires one of the widget's events; all bubble and are composed. */
  _fire(name: string, detail: object) {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }
  /** @internal */
  _call(path: string, options: Parameters<ServiceElement['api']['request']>[1]) {
    return this.api.request(path, options);
  }

  protected override loadWords(locale: Locale) {
    return t.load(locale);
  }

  /** @internal */
  get _base() {
    return this.baseUrl || location.origin;
  }

  protected override async load(signal: AbortSignal): Promise<ProfileData> {
    // Arriving through the emailed link: take the token and take it out of the address bar.
    const url = new URL(location.href);
    const linkToken = url.searchParams.get('key');
    if (linkToken) {
      url.searchParams.delete('key');
      history.replaceState(history.state, '', url);
    }
    const stored = readSession(this._base, companyOf(this._base, this.key))?.token;
    // An old emailed link must not end a session that still works: the stored token is tried next.
    let refused;
    for (const token of new Set([linkToken, stored])) {
      if (!token) continue;
      try {
        const data = await this.#me(token, signal);
        if (token == linkToken) this._fire('service-profile-login', { id: data.participant!.id });
        return data;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) throw error;
        refused = 1;
      }
    }
    if (refused) this._signedOut('invalid-token');
    const data = (await this.api.request('widget', { params: { type: 'profile' }, signal })) as ProfileData;
    sessionStorage.setItem(`service-widgets:company:${this._base}:${this.key}`, data.widget.company.id);
    return data;
  }

  async #me(token: string, signal?: AbortSignal) {
    const [data, account] = await Promise.all([
      this.api.request('participant/me', { body: {}, token, signal }) as Promise<ProfileData>,
      import('./profile-account.ts').then(async (chunk) => (await chunk.loadWords(this.resolvedLocale), chunk)),
    ]);
    this.#account = account;
    const company = data.widget.company.id;
    sessionStorage.setItem(`service-widgets:company:${this._base}:${this.key}`, company);
    writeSession(this._base, company, { token, participant: data.participant });
    return { ...data, token };
  }

  override connectedCallback() {
    super.connectedCallback();
    // A registration made on this page shows here without a reload; a sign-out elsewhere signs out here.
    document.addEventListener('service-registration-created', this.#refresh);
    addEventListener(SESSION_EVENT, this.#sessionChanged);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    document.removeEventListener('service-registration-created', this.#refresh);
    removeEventListener(SESSION_EVENT, this.#sessionChanged);
  }

  #refresh = async () => {
    const token = this.data?.token;
    if (!token) return;
    try {
      this.data = await this.#me(token);
    } catch (error) {
      this.#failed(error);
    }
  };

  #sessionChanged = async (event: Event) => {
    const { baseUrl, company, session } = (event as CustomEvent).detail;
    const token = session?.token;
    const data = this.data;
    if (baseUrl != this._base || !data || company != data.widget.company.id || token == data.token || (token && token == this.#pending)) return;
    // Signed in or out in another widget: follow, and the focus stays where the visitor is.
    this.#view = '';
    this._pinSent = false;
    this._message = '';
    if (!token) return void (this.data = { widget: data.widget });
    this.#pending = token;
    try {
      this.data = await this.#me(token);
    } catch (error) {
      this.#failed(error);
    }
    this.#pending = undefined;
  };

  /** @internal Ends the session here and everywhere on the page, with a message saying why. */
  _signedOut(code = '') {
    const company = this.data?.widget.company.id ?? companyOf(this._base, this.key);
    const wasIn = !!this.data?.token;
    if (this.data) this.data = { widget: this.data.widget };
    writeSession(this._base, company);
    this.#pending = undefined;
    this._message = code && t(this.resolvedLocale, code as keyof typeof en);
    this._pinSent = this._editing = false;
    if (wasIn || code) this._fire('service-profile-logout', {});
  }

  /** Handles a failed call: a 401 ends the session; anything else becomes the current message. */
  #failed(error: unknown) {
    if (error instanceof ApiError && error.code === 'invalid-token') return this._signedOut('invalid-token');
    const e = this.toApiError(error);
    const locale = this.resolvedLocale;
    // A PIN problem in the visitor's words, announced once (the field is marked, not described again);
    // network trouble keeps the form; else the service's words.
    const pin = e.code in en && t(locale, e.code as keyof typeof en, { left: String(e.details?.attempts_left) });
    this._errors = pin ? { pin: '' } : e.fields;
    this._message =
      pin ||
      (Object.keys(e.fields).length ? t(locale, 'fixFields') : e.retryable ? `${e.message} ${t(locale, 'kept')}` : e.message);
  }

  /** @internal Runs one call with the buttons disabled and errors shown; resolves with its answer or undefined. */
  async _send<T>(call: () => Promise<unknown>): Promise<T | undefined> {
    if (this._sending) return undefined;
    this._sending = true;
    this._message = '';
    this._errors = {};
    try {
      return (await call()) as T;
    } catch (error) {
      this.#failed(error);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return undefined;
    } finally {
      this._sending = false;
    }
  }

  #requestPin = async (event?: Event) => {
    event?.preventDefault();
    this.#pending = undefined;
    const returnUrl = new URL(location.href);
    returnUrl.hash = '';
    const sent = await this._send(() =>
      this.api.request('participant/login', { body: { email: this._email, return_url: returnUrl.href } }),
    );
    if (sent) {
      // Asked again from the PIN step: say so, and clear the old PIN.
      if (this._pinSent) this._message = t(this.resolvedLocale, 'newPinSent');
      this._pinSent = true;
      await this.updateComplete;
      const pin = this.renderRoot.querySelector<HTMLInputElement>('#pin')!;
      pin.value = '';
      pin.focus();
    }
  };

  #verify = async (event: Event) => {
    event.preventDefault();
    const pin = (this.renderRoot.querySelector<HTMLInputElement>('#pin')!.value.match(/\d/g) ?? []).join('');
    // A PIN works once: when the account could not be fetched after it, the next try uses its token.
    const token = (this.#pending ??= (
      await this._send<{ token: string }>(() => this.api.request('participant/verify', { body: { email: this._email, pin } }))
    )?.token);
    if (!token) return;
    const data = await this._send<ProfileData>(() => this.#me(token));
    if (data) {
      this.data = data;
      this._pinSent = false;
      this.#pending = undefined;
      this._fire('service-profile-login', { id: data.participant!.id });
    }
  };

  /** A token being turned into the signed-in view (after the PIN, or from another widget's sign-in). */
  #pending?: string;

  #view = '';

  protected override updated(changed: PropertyValues<this>) {
    // A new step (sign-in, PIN, account) takes the focus to its heading; a refresh of the same step
    // does not, nor does the first one (the page keeps its focus), nor loading (the next step will).
    const view = this.loadState + !!this.data?.token + this._pinSent;
    if (view !== this.#view && this.#view) this.renderRoot.querySelector<HTMLElement>('[data-focus]')?.focus();
    if (this.loadState !== 'loading') this.#view = view;
    super.updated(changed);
  }

  override render() {
    const { loadState, data, error } = this;
    return html`<section part="base" aria-busy=${loadState === 'loading' ? 'true' : 'false'}>
      ${loadState === 'error'
        ? html`<div class="notice error" role="alert">
            <p>${error!.message}</p>
            ${error!.retryable ? html`<p><button class="secondary" @click=${() => this.reload()}>${t(this.resolvedLocale, 'retry')}</button></p>` : nothing}
          </div>`
        : loadState === 'loading' || !data
          ? html`<p class="visually-hidden" role="status">${t(this.resolvedLocale, 'loading')}</p>
              <div class="skeleton"></div>
              <div class="skeleton"></div>`
          : data.token
            ? (this.#account?.renderAccount(this, data) ?? nothing)
            : this.#renderSignIn(data.widget.company)}
    </section>`;
  }

  /** @internal */
  _notice() {
    return html`<div role="status">${this._message ? html`<p class="notice">${this._message}</p>` : nothing}</div>`;
  }

  /** @internal */
  _field(name: string, label: string, type: string, value: string, autocomplete: string) {
    const error = this._errors[name];
    return html`<div class="field">
      <label for=${name}>${label}</label>
      <input
        id=${name}
        name=${name}
        type=${type}
        autocomplete=${autocomplete}
        .value=${value}
        ?required=${name !== 'phone'}
        maxlength=${name === 'pin' ? 12 : 254}
        inputmode=${name === 'pin' ? 'numeric' : nothing}
        aria-invalid=${error != null ? 'true' : 'false'}
        aria-describedby=${error ? `${name}-error` : nothing}
        @input=${(e: Event) => {
          if (error != null) this._errors = { ...this._errors, [name]: undefined };
          if (name == 'email' && !this.data?.token) this._email = (e.target as HTMLInputElement).value.trim();
        }}
      />
      ${error ? html`<p class="error" id="${name}-error">${error}</p>` : nothing}
    </div>`;
  }

  #renderSignIn(company: Company) {
    const locale = this.resolvedLocale;
    if (this._pinSent) {
      return html`<h2 tabindex="-1" data-focus>${t(locale, 'checkEmail')}</h2>
        <p>${t(locale, 'pinSent', { email: this._email })}</p>
        ${this._notice()}
        <form @submit=${this.#verify}>
          ${this._field('pin', t(locale, 'pin'), 'text', '', 'one-time-code')}
          <button part="button" ?disabled=${this._sending}>${t(locale, 'signIn')}</button>
        </form>
        <p class="row">
          <button class="link" ?disabled=${this._sending} @click=${() => this.#requestPin()}>${t(locale, 'newPin')}</button>
          <button class="link" @click=${() => ((this._pinSent = false), (this._message = ''))}>${t(locale, 'otherEmail')}</button>
        </p>`;
    }
    return html`<h2 tabindex="-1" data-focus>${t(locale, 'heading', { company: company.name })}</h2>
      <p>${t(locale, 'intro')}</p>
      ${this._notice()}
      <form @submit=${this.#requestPin}>
        ${this._field('email', t(locale, 'email'), 'email', this._email, 'email')}
        <button part="button" ?disabled=${this._sending}>${t(locale, 'sendPin')}</button>
      </form>`;
  }
}

define('service-profile', ServiceProfile);

declare global {
  interface HTMLElementTagNameMap {
    'service-profile': ServiceProfile;
  }
}
