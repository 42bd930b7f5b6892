/**
 * The language of a request, for what the service writes to the person behind it (emails, and the
 * widget API's messages of a form's faults): the first of `Accept-Language` that the service speaks.
 * The widgets send their own language there (a header a page may set without a preflight); a browser
 * sends its visitor's.
 */
import type { MailLocale } from '../domain/format.ts';
import { WIDGET_API_PREFIX } from '../domain/links.ts';
import type { AppContext } from './context.ts';

export function requestLocale(c: AppContext): MailLocale {
  for (const part of (c.req.header('accept-language') ?? '').split(',')) {
    const tag = part.split(';')[0]!.trim().slice(0, 2).toLowerCase();
    if (tag === 'en' || tag === 'de') return tag;
  }
  return 'en';
}

/**
 * The language of an error's messages: the widget API's are the widget's (a visitor reads them beside
 * the fields), the REST API's and the others' English (a developer reads them).
 */
export const answerLocale = (c: AppContext): MailLocale =>
  c.req.path.startsWith(`${WIDGET_API_PREFIX}/`) ? requestLocale(c) : 'en';
