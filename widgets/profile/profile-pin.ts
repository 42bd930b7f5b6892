/**
 * The profile widget's PIN step: the emailed PIN, a new one, or another email. A chunk of its own,
 * fetched when the browser is idle after the email step, or when a PIN is asked for.
 */
import { html, type TemplateResult } from 'lit';
import type { ApiError } from '../shared/api.ts';
import { formDescribedBy, formError, input } from '../shared/form.ts';
import { translator } from '../shared/i18n.ts';
import type { ProfileHost } from './profile.ts';

/** The PIN step's words; German is in profile-pin.de.ts. */
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

const t = translator(en, { de: () => import('./profile-pin.de.ts') });

/** Loads the step's words with the chunk, so the step never flashes English. */
export const loadWords = t.load;

export class ProfilePin {
  /**
   * The token the PIN gave: a PIN works once, so when the account could not be fetched after it,
   * the next try uses its token.
   */
  #token?: string;

  constructor(private readonly host: ProfileHost) {}

  /** A PIN was sent (`again`: a new one, from this step): the old PIN's token is no use. */
  sent(again: boolean) {
    this.#token = undefined;
    if (again) this.host.say(t(this.host.element.resolvedLocale, 'newPinSent'));
  }

  render(): TemplateResult {
    const { host } = this;
    const locale = host.element.resolvedLocale;
    const form = host.form;
    return html`<h2 tabindex="-1" data-focus>${t(locale, 'checkEmail')}</h2>
      <p>${t(locale, 'pinSent', { email: host.email() })}</p>
      ${host.notice()}
      <form novalidate @submit=${this.#verify} @input=${form.edit} aria-describedby=${formDescribedBy(form)}>
        ${input(form, 'pin', t(locale, 'pin'), { autocomplete: 'one-time-code', maxlength: 12, inputmode: 'numeric' })} ${formError(form)}
        <button part="button" ?disabled=${form.sending}>${t(locale, 'signIn')}</button>
      </form>
      <p class="bar">
        <button class="link" ?disabled=${form.sending} @click=${host.requestPin}>${t(locale, 'newPin')}</button>
        <button class="link" @click=${host.otherEmail}>${t(locale, 'otherEmail')}</button>
      </p>`;
  }

  /** A PIN's refusal in the visitor's words, with the field marked (not described again). */
  #refused = (error: ApiError) => {
    if (!(error.code in en)) return;
    this.host.form.errors = { pin: '' };
    return t(this.host.element.resolvedLocale, error.code as keyof typeof en, { left: String(error.details?.attempts_left) });
  };

  #verify = async (event: Event) => {
    const { host } = this;
    const form = host.form;
    if (!form.check(event)) return;
    const pin = (((form.values.pin as string | undefined) ?? '').match(/\d/g) ?? []).join('');
    host.say('');
    this.#token ??= (
      await form.send(
        () => host.api().request('participant/verify', { body: { email: host.email(), pin } }) as Promise<{ token: string }>,
        this.#refused,
      )
    )?.token;
    if (this.#token && (await host.enter(this.#token))) this.#token = undefined;
  };
}
