/**
 * What every form of the widgets shares: the state of a form (values, the faults of its fields, the
 * line above the button, sending), its check before sending, labelled fields with their hint and
 * error wired to `aria-describedby`, the consent box, the form-error block, its words, and their
 * styles. A chunk of its own: a widget without a form (video, map) never loads it, and the
 * registration widget only once a class is chosen.
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import type { ApiError, WidgetApi } from './api.ts';
import { toApiError, type ServiceElement } from './base.ts';

type Host = ServiceElement<unknown>;

/**
 * The words a form says itself. Each widget with a form spreads them into its own words (and
 * form.de.ts into its German), so that they come with the widget's language.
 */
export const formWords = {
  fixFields: 'Please correct the highlighted fields.',
  kept: 'Your entries are kept.',
  fillIn: 'Fill in this field.',
  pickOne: 'Choose one from the list.',
  tickBox: 'Tick the box to agree.',
};

/** A form's words, from its widget's translator. */
export type FormWords = (key: keyof typeof formWords) => string;

/**
 * A form's state, kept for the host (which it updates: it needs none of the host's life cycle).
 * `check()` stops a form with a required field left empty; `send()` runs a call with the button
 * disabled. Either way the faults go beside their fields, all at once, the line above the button
 * says what to do, what was typed stays, and the focus goes to the first field at fault.
 */
export class FormState {
  /** What was typed, by field name (a field not in here shows its default or prefill). */
  values: Record<string, string | boolean> = {};
  /** The message for each field at fault: the form's own (a required field left empty) or the service's. */
  errors: Record<string, string | undefined> = {};
  /** The line above the button (`#form-error`): what went wrong and what to do. */
  message = '';
  sending = false;
  /** The write in flight or last failed: the same contents keep its idempotency key. */
  #submission?: { payload: string; key: string };

  constructor(
    private readonly host: Host,
    private readonly words: FormWords,
  ) {}

  /**
   * The form's write (a POST with an idempotency key) through `api`: sent again with the same
   * contents, after a failure, it keeps its key, so that the service makes one record however often
   * it is retried.
   */
  async write<T>(api: WidgetApi, path: string, body: object, token?: string): Promise<T> {
    const payload = JSON.stringify([path, body]);
    if (this.#submission?.payload !== payload) this.#submission = { payload, key: crypto.randomUUID() };
    const answer = await api.request(path, { body, token, headers: { 'Idempotency-Key': this.#submission.key } });
    this.#submission = undefined;
    return answer as T;
  }

  /** The form's `@input`: what a field holds now is kept, and its error goes. */
  edit = (event: Event) => {
    const { name, type, value, checked } = event.target as HTMLInputElement;
    this.set(name, type === 'checkbox' ? checked : value);
  };

  /** A field changed: its value is kept and its error goes. */
  set(name: string, value: string | boolean) {
    this.values = { ...this.values, [name]: value };
    if (this.errors[name] != null) this.errors = { ...this.errors, [name]: undefined };
    this.host.requestUpdate();
  }

  /**
   * The form's `@submit`, before anything is sent: true when it may be sent. The widget checks, not
   * the browser (the forms are `novalidate`): the browser's bubbles speak its own language, show one
   * field at a time, and mark none. Every required field left empty (or blank) is marked at once with
   * what to do; the service's faults still shown stay, since their fields are unchanged. What else
   * the service refuses comes back from it in the widget's language.
   */
  check(event: Event) {
    event.preventDefault();
    const errors: Record<string, string> = {};
    // A disabled control (in a fieldset not asked for now) is not checked, as the browser's check does not.
    for (const control of (event.target as HTMLFormElement).elements as unknown as HTMLInputElement[])
      if (
        control.required &&
        !control.matches(':disabled') &&
        !(control.type === 'checkbox' ? control.checked : control.value.trim())
      )
        errors[control.name] = this.words(
          control.type === 'checkbox' ? 'tickBox' : control.localName === 'select' ? 'pickOne' : 'fillIn',
        );
    if (!Object.keys(errors).length) return true;
    this.errors = { ...this.errors, ...errors };
    void this.#fault(this.words('fixFields'));
    return false;
  }

  /** Says `message` above the button, and takes the focus to the first field at fault. */
  async #fault(message: string) {
    this.message = message;
    this.host.requestUpdate();
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }

  /** Empties the form (after a success), keeping `keep`. */
  reset(keep: Record<string, string | boolean> = {}) {
    Object.assign(this, { values: keep, errors: {}, message: '' });
    this.host.requestUpdate();
  }

  /**
   * Runs `call` once at a time (a double click sends once). A failure is explained by `explain` when
   * it returns a line (and sets `errors` itself if it wants), else the fields at fault are marked.
   */
  async send<T>(call: () => Promise<T>, explain: (error: ApiError) => string | void = () => {}): Promise<T | undefined> {
    if (this.sending) return undefined;
    // The control that sent: a button, disabled while sending, loses the focus (to the page's body);
    // it takes it back when nothing else did (a failure without a field at fault).
    const sender = (this.host.renderRoot as ShadowRoot).activeElement as HTMLElement | null;
    this.sending = true;
    this.message = '';
    this.errors = {};
    this.host.requestUpdate();
    try {
      return await call();
    } catch (failure) {
      const error = toApiError(failure, this.host.resolvedLocale);
      const fields = Object.keys(error.fields).length;
      if (fields) this.errors = error.fields;
      await this.#fault(explain(error) ?? (fields ? this.words('fixFields') : `${error.shown} ${this.words('kept')}`));
      return undefined;
    } finally {
      this.sending = false;
      this.host.requestUpdate();
      void this.host.updateComplete.then(() => {
        if (!(this.host.renderRoot as ShadowRoot).activeElement && document.activeElement === document.body) sender?.focus();
      });
    }
  }
}

/** The attributes a field's control takes from its field: `aria-invalid`, `aria-describedby`. */
export interface Wiring {
  invalid: 'true' | 'false';
  describedBy: string | typeof nothing;
}

/**
 * A labelled field: `control` draws the input, select or textarea with `id` and `name` = `name` and
 * the wiring; the hint (`#<name>-hint`) and its fault (`#<name>-error`) describe it.
 */
export const field = (
  form: FormState,
  name: string,
  label: unknown,
  control: (wiring: Wiring) => TemplateResult,
  hint?: unknown,
) => {
  // A field may be marked at fault without a message of its own (the line above the button says it,
  // and describes it: a screen reader on the field hears why, "That PIN is not right").
  const error = form.errors[name];
  const ids = [hint && `${name}-hint`, error ? `${name}-error` : error != null && form.message && 'form-error']
    .filter(Boolean)
    .join(' ');
  return html`<div class="field">
    <label for=${name}>${label}</label>
    ${control({ invalid: error != null ? 'true' : 'false', describedBy: ids || nothing })}
    ${hint ? html`<p class="hint" id="${name}-hint">${hint}</p>` : nothing}
    ${error ? html`<p class="error hint" id="${name}-error">${error}</p>` : nothing}
  </div>`;
};

export interface InputOptions {
  type?: string;
  /** What the field shows when nothing was typed (a prefill, the stored value). */
  value?: string;
  autocomplete?: string;
  /**
   * Only where a longer value can never be right (a PIN): elsewhere the browser would cut a pasted
   * text without a word, and the service's refusal says how long it may be, nothing typed lost.
   */
  maxlength?: number;
  required?: boolean;
  inputmode?: string;
}

/** A labelled text input; its value is kept by the form's `@input=${form.edit}`. */
export const input = (form: FormState, name: string, label: unknown, options: InputOptions = {}) => {
  const { type = 'text', value = '', autocomplete = 'off', maxlength, required = true, inputmode } = options;
  return field(
    form,
    name,
    label,
    ({ invalid, describedBy }) => html`<input
      id=${name}
      name=${name}
      type=${type}
      autocomplete=${autocomplete}
      maxlength=${maxlength ?? nothing}
      inputmode=${inputmode ?? nothing}
      ?required=${required}
      .value=${(form.values[name] as string | undefined) ?? value}
      aria-invalid=${invalid}
      aria-describedby=${describedBy}
    />`,
  );
};

/** The consent box: required, its error beside it. */
export const consent = (form: FormState, label: unknown) => {
  const error = form.errors.consent;
  return html`<div class="field">
    <div class="consent">
      <input
        id="consent"
        name="consent"
        type="checkbox"
        required
        .checked=${!!form.values.consent}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${error ? 'consent-error' : nothing}
      />
      <label for="consent">${label}</label>
    </div>
    ${error ? html`<p class="error hint" id="consent-error">${error}</p>` : nothing}
  </div>`;
};

/** The line above the button, announced when it appears; the form names it in `aria-describedby`. */
export const formError = (form: FormState) =>
  html`<div id="form-error" role="alert">${form.message ? html`<p class="notice error">${form.message}</p>` : nothing}</div>`;

/** The form's `aria-describedby`: its error line, while there is one. */
export const formDescribedBy = (form: FormState) => (form.message ? 'form-error' : nothing);

export const formStyles = css`
  form,
  .field {
    display: grid;
    gap: 1rem;
  }
  .field {
    gap: 0.25rem;
    align-content: start;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 1rem;
    align-items: start;
  }
  .row > * {
    flex: 1 1 12rem;
  }
  textarea {
    resize: vertical;
  }
  /* As specific as the base's field border (input:not([type=checkbox])), which it follows. */
  :is(input, select, textarea)[aria-invalid='true'] {
    border-color: var(--_danger);
  }
  label {
    font-weight: 600;
  }
  .consent {
    display: flex;
    gap: 0.5rem;
  }
  .consent input {
    width: 1.5rem;
    height: 1.5rem;
    flex: none;
  }
  .consent label {
    font-weight: 400;
  }
  .hint {
    font-size: 0.875rem;
  }
  form button {
    justify-self: start;
  }
`;
