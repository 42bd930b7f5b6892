/**
 * Sign-in, passwordless: an email address, then the 6-digit PIN the service emails (or the emailed
 * link, which opens the app signed in). The service sets the session as an HttpOnly cookie: the page
 * never holds a token, and keeps no PIN once it is sent.
 */
import { html, nothing } from 'lit';
import { ServiceApiError } from '../../contract/rest-client.ts';
import { BASE_URL, type App, type View } from './app.ts';
import { field, said, sayText, type Said } from './ui.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class SignInView implements View {
  #app: App;
  #step: 'email' | 'pin' = 'email';
  #email = '';
  #pin = '';
  #busy = false;
  #errors: { email?: Said; pin?: Said; form?: Said } = {};
  #status = '';
  /** The PIN was refused as wrong, used or expired: offer a new one beside it. */
  #offerNewPin = false;

  constructor(app: App) {
    this.#app = app;
  }

  title() {
    return this.#step === 'email' ? this.#app.t.signInTitle : this.#app.t.pinTitle;
  }

  #setStep(step: 'email' | 'pin') {
    this.#step = step;
    this.#errors = {};
    this.#offerNewPin = false;
    this.#app.focusAfterRender('main h1');
  }

  async #sendPin(again: boolean) {
    if (this.#busy) return;
    const { t, api } = this.#app;
    const email = this.#email.trim();
    this.#errors = {};
    if (!email) this.#errors.email = { text: t.emailMissing };
    else if (!EMAIL.test(email)) this.#errors.email = { text: t.emailInvalid };
    if (this.#errors.email) {
      this.#app.focusAfterRender('#email');
      return this.#app.update();
    }
    this.#busy = true;
    this.#app.update();
    try {
      await api.loginByEmail(email);
      this.#email = email;
      this.#pin = '';
      if (again) {
        this.#errors = {};
        this.#offerNewPin = false;
        this.#status = t.newPinSent;
        this.#app.focusAfterRender('#pin');
      } else this.#setStep('pin');
    } catch (error) {
      const fault = error instanceof ServiceApiError && error.fields?.login ? { text: t.emailInvalid } : undefined;
      if (fault && !again) {
        this.#errors.email = fault;
        this.#app.focusAfterRender('#email');
      } else this.#errors.form = said(t, error);
    } finally {
      this.#busy = false;
      this.#app.update();
    }
  }

  async #signIn() {
    const { t, api } = this.#app;
    const pin = this.#pin.replace(/\s/g, '');
    this.#errors = {};
    this.#status = '';
    this.#offerNewPin = false;
    if (!pin) this.#errors.pin = { text: t.pinMissing };
    else if (!/^\d{6}$/.test(pin)) this.#errors.pin = { text: t.pinFormat };
    if (this.#errors.pin) {
      this.#app.focusAfterRender('#pin');
      return this.#app.update();
    }
    this.#busy = true;
    this.#status = t.signingIn;
    this.#app.update();
    try {
      await api.signIn({ email: this.#email, pin });
      this.#pin = '';
      this.#status = '';
      await this.#app.signedIn();
    } catch (error) {
      this.#status = '';
      if (error instanceof ServiceApiError && (error.code === 'invalid-pin' || error.fields?.pin)) {
        this.#errors.pin = error.code === 'invalid-pin' ? { text: t.invalidPin } : { text: t.pinFormat };
        this.#offerNewPin = error.code === 'invalid-pin';
        this.#app.focusAfterRender('#pin');
      } else this.#errors.form = said(t, error);
    } finally {
      this.#busy = false;
      this.#app.update();
    }
  }

  render() {
    const app = this.#app;
    const { t, lang, notice } = app;
    const noticeText =
      notice === 'session-ended'
        ? t.sessionEnded
        : notice === 'signed-out'
          ? t.signedOut
          : notice === 'invalid-link'
            ? t.invalidLink
            : notice === 'rate-limited'
              ? t.rateLimited(app.noticeRetryAfter)
              : '';
    const outbox = app.dev
      ? html`<p class="dev-note">
          <a href=${`${BASE_URL}/demo/outbox.html${this.#email ? `?to=${encodeURIComponent(this.#email.trim())}` : ''}`} target="_blank" rel="noopener"
            >${t.devOutbox}</a
          >
          ${t.opensNewTab}
        </p>`
      : nothing;
    const formError = this.#errors.form
      ? html`<p class="note bad form-error" role="alert">${sayText(lang, this.#errors.form)}</p>`
      : nothing;

    const body =
      this.#step === 'email'
        ? html`<p class="lead">${t.signInLead}</p>
            ${noticeText && this.#step === 'email' ? html`<p class="note">${noticeText}</p>` : nothing}
            <form
              class="card sign-in-card"
              novalidate
              aria-labelledby="sign-in-title"
              @submit=${(e: Event) => {
                e.preventDefault();
                if (!this.#busy) void this.#sendPin(false);
              }}
            >
              ${formError}
              ${field({
                id: 'email',
                label: t.email,
                hint: t.emailHint,
                error: this.#errors.email,
                lang,
                control: (describedBy, invalid) =>
                  html`<input
                    id="email"
                    name="email"
                    type="email"
                    autocomplete="email"
                    spellcheck="false"
                    required
                    .value=${this.#email}
                    aria-describedby=${describedBy}
                    aria-invalid=${invalid}
                    @input=${(e: Event) => (this.#email = (e.target as HTMLInputElement).value)}
                  />`,
              })}
              <p class="form-actions">
                <button type="submit" aria-disabled=${this.#busy ? 'true' : 'false'}>${t.sendPin}</button>
              </p>
              ${outbox}
            </form>`
        : html`<p class="lead">${t.pinLead(this.#email)}</p>
            <form
              class="card sign-in-card"
              novalidate
              aria-labelledby="sign-in-title"
              @submit=${(e: Event) => {
                e.preventDefault();
                if (!this.#busy) void this.#signIn();
              }}
            >
              ${formError}
              ${field({
                id: 'pin',
                label: t.pin,
                hint: t.pinHint,
                error: this.#errors.pin,
                lang,
                control: (describedBy, invalid) =>
                  html`<input
                    id="pin"
                    name="pin"
                    class="pin-input"
                    type="text"
                    inputmode="numeric"
                    autocomplete="one-time-code"
                    maxlength="7"
                    spellcheck="false"
                    required
                    .value=${this.#pin}
                    aria-describedby=${describedBy}
                    aria-invalid=${invalid}
                    @input=${(e: Event) => (this.#pin = (e.target as HTMLInputElement).value)}
                  />`,
              })}
              <p class="form-actions">
                <button type="submit" aria-disabled=${this.#busy ? 'true' : 'false'}>${t.signIn}</button>
                <button
                  type="button"
                  class=${this.#offerNewPin ? '' : 'secondary'}
                  aria-disabled=${this.#busy ? 'true' : 'false'}
                  @click=${() => void this.#sendPin(true)}
                >
                  ${t.sendNewPin}
                </button>
                <button
                  type="button"
                  class="link-button"
                  @click=${() => {
                    this.#setStep('email');
                    this.#status = '';
                    app.update();
                  }}
                >
                  ${t.otherEmail}
                </button>
              </p>
              ${outbox}
            </form>`;
    return html`<div class="wrap page sign-in">
      <h1 id="sign-in-title" tabindex="-1">${this.title()}</h1>
      ${body}
      <p class="status-text" role="status">${this.#status}</p>
    </div>`;
  }
}
