/**
 * What the app's views share: the service's errors in the app's words, form fields with their hint
 * and error wired to the control, and copying. Everything is rendered by Lit as text (no HTML from
 * data), into the page's light DOM, styled by classes (the page's CSP allows no inline style).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ServiceApiError } from '../../contract/rest-client.ts';
import type { Lang, Words } from './i18n.ts';

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

/** The message as text, marked English where the page is not. */
export const sayText = (lang: Lang, message: Said) =>
  message.english && lang !== 'en' ? html`<span lang="en">${message.text}</span>` : message.text;

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

export interface FieldOptions {
  id: string;
  label: string | TemplateResult;
  hint?: string | TemplateResult | undefined;
  error?: Said | undefined;
  lang: Lang;
  wide?: boolean;
  /** The control, given what it is described by and whether it is at fault. */
  control: (describedBy: string | typeof nothing, invalid: 'true' | 'false') => TemplateResult;
}

/** A label, the control, its hint and its error (beside it, named by `aria-describedby`). */
export function field({ id, label, hint, error, lang, wide, control }: FieldOptions): TemplateResult {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class=${wide ? 'field wide' : 'field'}>
    <label for=${id}>${label}</label>
    ${control(described || nothing, error ? 'true' : 'false')}
    ${hint ? html`<p class="hint" id=${`${id}-hint`}>${hint}</p>` : nothing}
    ${error ? html`<p class="field-error" id=${`${id}-error`}>${sayText(lang, error)}</p>` : nothing}
  </div>`;
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

/** An id for the app's own elements: letters, digits and hyphens. */
export const idOf = (text: string) => text.replace(/[^\w-]/g, '-');
