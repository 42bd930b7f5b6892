/**
 * The sign-in's PIN step (sign-in.ts): the emailed PIN, a new one, or another email, with its look. A
 * chunk of its own, fetched when the browser is idle after the email step, or when a PIN is asked for.
 */
import { css, html, type TemplateResult } from 'lit';
import type { ParticipantTokenResponse } from '../../contract/api/index.ts';
import type { ApiError } from './api.ts';
import { formDescribedBy, formError, input } from './form.ts';
import { translator } from './i18n.ts';
import type { SignIn } from './sign-in.ts';

/** The PIN step's words; German is in sign-in-pin.de.ts. */
export const en = {
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
};

const t = translator(en, { de: () => import('./sign-in-pin.de.ts') });

/** Loads the step's words with the chunk, so the step never flashes English. */
export const loadWords = t.load;

/** The link row under the PIN; adopted by the widget with the step. */
const pinStyles = css`
  .pin-links {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: center;
  }
`;

export class SignInPin {
  /**
   * The PIN's answer: a PIN works once, so when the widget could not finish the sign-in after it
   * (its account could not be fetched), the next try uses its token.
   */
  #answer?: ParticipantTokenResponse;

  constructor(private readonly signIn: SignIn) {
    const root = signIn.host.element.shadowRoot!;
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, pinStyles.styleSheet!];
  }

  /**
   * Sends the email typed a PIN (again, from this step: a new one, and the old PIN's token is no use),
   * then shows the step with the focus in its field; within the sign-in's `requestPin()`, which says
   * a failure.
   */
  async request() {
    const { host, form } = this.signIn;
    const { element } = host;
    const email = ((form.values.email as string | undefined) ?? '').trim();
    host.say('');
    await host.api().request('participant/login', { body: { email, return_url: host.returnUrl() } });
    this.#answer = undefined;
    if (this.signIn.sentTo) host.say(t(element.resolvedLocale, 'newPinSent'));
    this.signIn.sentTo = email;
    form.set('pin', '');
    await element.updateComplete;
    element.renderRoot.querySelector<HTMLInputElement>('#pin')!.focus();
  }

  /** Back to the email step, for another email (what was typed stays), with the focus in its field. */
  #otherEmail = async () => {
    const { host } = this.signIn;
    host.say('');
    this.signIn.done();
    await host.element.updateComplete;
    // Unless the widget took it to its step's heading: the button that had it is gone.
    if (!host.element.shadowRoot!.activeElement) host.element.renderRoot.querySelector<HTMLElement>('#email')?.focus();
  };

  render(): TemplateResult {
    const { host, form, sentTo } = this.signIn;
    const locale = host.element.resolvedLocale;
    return html`${host.heading?.(t(locale, 'checkEmail'))}
      <p>${t(locale, 'pinSent', { email: sentTo })}</p>
      ${host.notice()}
      <form novalidate @submit=${this.#verify} @input=${form.edit} aria-describedby=${formDescribedBy(form)}>
        ${input(form, 'pin', t(locale, 'pin'), { autocomplete: 'one-time-code', maxlength: 12, inputmode: 'numeric' })} ${formError(form)}
        <button part="button" ?disabled=${form.sending}>${t(locale, 'signIn')}</button>
      </form>
      <p class="pin-links">
        <button class="link" ?disabled=${form.sending} @click=${this.signIn.requestPin}>${t(locale, 'newPin')}</button>
        <button class="link" @click=${this.#otherEmail}>${t(locale, 'otherEmail')}</button>
      </p>`;
  }

  /** A PIN's refusal in the visitor's words, with the field marked (not described again). */
  #refused = (error: ApiError) => {
    if (!(error.code in en)) return;
    this.signIn.form.errors = { pin: '' };
    return t(this.signIn.host.element.resolvedLocale, error.code as keyof typeof en, {
      left: String(error.details?.attempts_left),
    });
  };

  #verify = async (event: Event) => {
    const { signIn } = this;
    const { host, form } = signIn;
    if (!form.check(event)) return;
    const pin = (((form.values.pin as string | undefined) ?? '').match(/\d/g) ?? []).join('');
    host.say('');
    this.#answer ??= await form.send(
      () =>
        host.api().request('participant/verify', { body: { email: signIn.sentTo, pin } }) as Promise<ParticipantTokenResponse>,
      this.#refused,
    );
    if (this.#answer && (await host.enter(this.#answer))) {
      this.#answer = undefined;
      signIn.done();
    }
  };
}
