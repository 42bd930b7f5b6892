/**
 * The participant's passwordless sign-in, one for the widgets that offer it: the profile, and a
 * participants-only video on a page without a profile. The email step is here; the PIN step is a chunk
 * of its own (sign-in-pin.ts, with its look and the way back to another email), fetched when the
 * browser is idle after the email step, or when a PIN is asked for. The service emails a 6-digit PIN and a link back to the widget's page (its `key`
 * parameter a token), which the widget takes when it loads. A chunk of its own: the profile's first
 * render imports it, a video widget loads it when a visitor asks to play a video for participants.
 */
import { html, type TemplateResult } from 'lit';
import type { ParticipantTokenResponse } from '../../contract/api/index.ts';
import type { ChunkHost } from './base.ts';
import { formDescribedBy, formError, FormState, formWords, input } from './form.ts';
import { translator } from './i18n.ts';

/** The email step's words; German is in sign-in.de.ts. The PIN step's are in its chunk. */
const en = {
  ...formWords,
  intro: 'Sign in with your email address: we will send you a PIN.',
  email: 'Email',
  sendPin: 'Send PIN',
};

/** The email step's words, as sign-in.de.ts gives them in German. */
export type SignInWords = typeof en;

const t = translator(en, { de: () => import('./sign-in.de.ts') });

/** Loads the email step's words, so that the step never flashes English. */
export const loadWords = t.load;

const pinChunk = () => import('./sign-in-pin.ts');

/** What the sign-in needs of its widget (and nothing else of it). */
export interface SignInHost extends ChunkHost<unknown> {
  /** The page the emailed link leads back to (the service adds its `key`). */
  returnUrl(): string;
  /** Signs in with the PIN's token: resolves true once the widget shows the participant signed in. */
  enter(answer: ParticipantTokenResponse): Promise<boolean>;
  /** The line above the step: what just happened (announced politely). */
  notice(): unknown;
  /** Says a line above the step (`''`: none). */
  say(line: string): void;
  /**
   * The step's heading, as the widget heads its steps (a compact step has none): the PIN step's
   * `title`, or, for the email step, the widget's own.
   */
  heading?(title?: string): unknown;
}

/**
 * A widget's sign-in: the email, then the emailed PIN, whose token goes to the widget (`enter`),
 * which makes it the page's sign-in. What was typed stays while the widget lives.
 */
export class SignIn {
  /** The sign-in's form: the email, then the PIN. */
  readonly form: FormState;
  /** The email the PIN was sent to, while the PIN step shows (`''`: the email step). */
  sentTo = '';
  /** The PIN step, and what the email step only starts (sending a PIN, another email): its chunk. */
  #pin?: InstanceType<Awaited<ReturnType<typeof pinChunk>>['SignInPin']>;

  constructor(readonly host: SignInHost) {
    this.form = new FormState(host.element, (key) => t(host.element.resolvedLocale, key));
  }

  /** Fetches the PIN step's code while the visitor types their email. */
  prefetch() {
    (window.requestIdleCallback ?? setTimeout)(() => pinChunk().catch(() => {}));
  }

  /** The step the visitor is at. */
  render(): TemplateResult {
    if (this.sentTo) return this.#pin!.render();
    const { host, form } = this;
    const locale = host.element.resolvedLocale;
    return html`${host.heading?.()}
      <p>${t(locale, 'intro')}</p>
      ${host.notice()}
      <form
        novalidate
        @submit=${(event: Event) => form.check(event) && this.requestPin()}
        @input=${form.edit}
        aria-describedby=${formDescribedBy(form)}
      >
        ${input(form, 'email', t(locale, 'email'), { type: 'email', autocomplete: 'email' })} ${formError(form)}
        <button part="button" ?disabled=${form.sending}>${t(locale, 'sendPin')}</button>
      </form>`;
  }

  /**
   * Sends the email a PIN (again, from the PIN step), then shows the PIN step with the focus in its
   * field: the PIN step's code does it (fetched while the visitor types their email, else now), one
   * send at a time, a failure said above the button.
   */
  requestPin = () =>
    this.form.send(async () => {
      const chunk = await pinChunk();
      await chunk.loadWords(this.host.element.resolvedLocale);
      await (this.#pin ??= new chunk.SignInPin(this)).request();
    });

  /** Signed in (or out) elsewhere: the next sign-in begins with the email again (`email`, the one signed out of, if known). */
  done(email?: string) {
    this.sentTo = '';
    if (email) this.form.values = { ...this.form.values, email };
    this.host.element.requestUpdate();
  }
}
