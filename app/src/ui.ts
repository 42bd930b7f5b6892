/**
 * What the app's views share: the service's errors in the app's words, form fields with their hint
 * and error wired to the control, and copying. Everything is rendered by Lit as text (no HTML from
 * data), into the page's light DOM, styled by classes (the page's CSP allows no inline style).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ServiceApiError } from '../../contract/rest-client.ts';
import type { Words } from './i18n.ts';

/** A message to show: the app's own words, or the service's (English) where the app has none. */
export interface Said {
  text: string;
  /** The service's own words: English, whatever the page's language. */
  english?: boolean;
}

/** What a failed call says to the person, in the app's words where it knows the code. */
export function said(t: Words, error: unknown): Said {
  if (!(error instanceof ServiceApiError)) return { text: t.unknownError };
  switch (error.code) {
    case 'network':
      return { text: t.networkError };
    case 'rate-limited':
      return { text: t.rateLimited(error.retryAfter) };
    case 'role-not-allowed':
      return { text: t.roleNotAllowed };
    case 'company-not-allowed':
      return { text: t.companyNotAllowed };
    case 'csrf-failed':
      return { text: t.csrfFailed };
    case 'not-found':
      return { text: t.notFound };
    case 'invalid-pin':
      return { text: t.invalidPin };
    case 'invalid-link':
      return { text: t.invalidLink };
    case 'validation': {
      const fields = Object.keys(error.fields ?? {});
      const known = fields.map((f) => t.fieldErrors[f]).filter(Boolean);
      if (known.length === fields.length && known.length) return { text: known.join(' ') };
      break;
    }
  }
  return error.message ? { text: error.message, english: true } : { text: t.unknownError };
}

/** The message as text, the service's marked English (whatever the page's language). */
export const sayText = (message: Said) => (message.english ? html`<span lang="en">${message.text}</span>` : message.text);

/** The field errors of a 422, each in the app's words for its field (the service's where the app has none). */
export function fieldErrors(t: Words, error: unknown): Record<string, Said> | undefined {
  if (!(error instanceof ServiceApiError) || error.code !== 'validation' || !error.fields) return undefined;
  return Object.fromEntries(
    Object.entries(error.fields).map(([name, message]) => [
      name,
      t.fieldErrors[name] ? { text: t.fieldErrors[name]! } : { text: message, english: true },
    ]),
  );
}

interface FieldOptions {
  id: string;
  label: string | TemplateResult;
  hint?: string | TemplateResult | undefined;
  error?: Said | undefined;
  wide?: boolean;
  /** The control, given what it is described by and whether it is at fault. */
  control: (describedBy: string | typeof nothing, invalid: 'true' | 'false') => TemplateResult;
}

/** A label, the control, its hint and its error (beside it, named by `aria-describedby`). */
export function field({ id, label, hint, error, wide, control }: FieldOptions): TemplateResult {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class=${wide ? 'field wide' : 'field'}>
    <label for=${id}>${label}</label>
    ${control(described || nothing, error ? 'true' : 'false')}
    ${hint ? html`<p class="hint" id=${`${id}-hint`}>${hint}</p>` : nothing}
    ${error ? html`<p class="field-error" id=${`${id}-error`}>${sayText(error)}</p>` : nothing}
  </div>`;
}

/** A radio button in its card (`.choice`): named by its title, described by its hint if it has one. */
export function choice(
  name: string,
  value: string | number,
  checked: boolean,
  choose: () => void,
  title: string | TemplateResult,
  hint?: string,
): TemplateResult {
  const id = `${name}-${value}`;
  return html`<label class="choice">
    <input
      type="radio"
      name=${name}
      value=${value}
      .checked=${checked}
      aria-labelledby=${`${id}-title`}
      aria-describedby=${hint ? `${id}-hint` : nothing}
      @change=${choose}
    />
    <span class="choice-title" id=${`${id}-title`}>${title}</span>
    ${hint ? html`<span class="hint" id=${`${id}-hint`}>${hint}</span>` : nothing}
  </label>`;
}

/**
 * Copies `text`; where the browser refuses, selects the element that shows it, for Ctrl+C. Resolves
 * to what to say.
 */
export async function copy(t: Words, text: string, shown?: Element | null): Promise<string> {
  try {
    await navigator.clipboard.writeText(text);
    return t.copied;
  } catch {
    if (shown) getSelection()?.selectAllChildren(shown);
    return t.copyRefused;
  }
}
