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
  /** `refused`: the PIN was wrong, used or expired, and a new one is offered beside it. */
  #errors: { email?: Said; pin?: Said & { refused?: boolean }; form?: Said } = {};
  #status = '';

  constructor(app: App) {
    this.#app = app;
  }

  title() {
    return this.#step === 'email' ? this.#app.t.signInTitle : this.#app.t.pinTitle;
  }

  #setStep(step: 'email' | 'pin') {
    this.#step = step;
    this.#errors = {};
    this.#status = '';
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
        this.#errors.pin = error.code === 'invalid-pin' ? { text: t.invalidPin, refused: true } : { text: t.pinFormat };
        this.#app.focusAfterRender('#pin');
      } else this.#errors.form = said(t, error);
    } finally {
      this.#busy = false;
      this.#app.update();
    }
  }

  /** The step's one field: the email address, or the PIN. */
  #field(email: boolean) {
    const { t } = this.#app;
    const id = email ? 'email' : 'pin';
    return field({
      id,
      label: email ? t.email : t.pin,
      hint: email ? t.emailHint : t.pinHint,
      error: this.#errors[id],
      control: (describedBy, invalid) =>
        html`<input
          id=${id}
          name=${id}
          class=${email ? nothing : 'pin-input'}
          type=${email ? 'email' : 'text'}
          inputmode=${email ? nothing : 'numeric'}
          autocomplete=${email ? 'email' : 'one-time-code'}
          maxlength=${email ? nothing : '7'}
          spellcheck="false"
          required
          .value=${email ? this.#email : this.#pin}
          aria-describedby=${describedBy}
          aria-invalid=${invalid}
          @input=${(e: Event) => {
            const { value } = e.target as HTMLInputElement;
            if (email) this.#email = value;
            else this.#pin = value;
          }}
        />`,
    });
  }

  render() {
    const app = this.#app;
    const { t, notice } = app;
    const email = this.#step === 'email';
    const noticeText =
      email &&
      notice &&
      {
        'session-ended': t.sessionEnded,
        'signed-out': t.signedOut,
        'invalid-link': t.invalidLink,
        'rate-limited': t.rateLimited(app.noticeRetryAfter),
      }[notice];
    const busy = this.#busy ? 'true' : 'false';
    return html`<div class="wrap page sign-in">
      <h1 id="sign-in-title" tabindex="-1">${this.title()}</h1>
      <p class="lead">${email ? t.signInLead : t.pinLead(this.#email)}</p>
      ${noticeText ? html`<p class="note">${noticeText}</p>` : nothing}
      <form
        class="card sign-in-card"
        novalidate
        aria-labelledby="sign-in-title"
        @submit=${(e: Event) => {
          e.preventDefault();
          if (!this.#busy) void (email ? this.#sendPin(false) : this.#signIn());
        }}
      >
        ${this.#errors.form ? html`<p class="note bad form-error" role="alert">${sayText(this.#errors.form)}</p>` : nothing}
        ${this.#field(email)}
        <p class="form-actions">
          <button type="submit" aria-disabled=${busy}>${email ? t.sendPin : t.signIn}</button>
          ${
            email
              ? nothing
              : html`<button
                    type="button"
                    class=${this.#errors.pin?.refused ? '' : 'secondary'}
                    aria-disabled=${busy}
                    @click=${() => void this.#sendPin(true)}
                  >
                    ${t.sendNewPin}
                  </button>
                  <button
                    type="button"
                    class="link-button"
                    @click=${() => {
                      this.#setStep('email');
                      app.update();
                    }}
                  >
                    ${t.otherEmail}
                  </button>`
          }
        </p>
        ${
          app.dev
            ? html`<p class="dev-note">
                <a href=${`${BASE_URL}/demo/outbox.html${this.#email ? `?to=${encodeURIComponent(this.#email.trim())}` : ''}`} target="_blank" rel="noopener"
                  >${t.devOutbox}</a
                >
                ${t.opensNewTab}
              </p>`
            : nothing
        }
      </form>
      <p class="status-text" role="status">${this.#status}</p>
    </div>`;
  }
}
