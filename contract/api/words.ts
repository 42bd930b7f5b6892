/**
 * The German of what a visitor can read in a widget of the service's answers: each field rule's
 * messages, and the refusals of a form's fields. The widget API answers a write in the widget's
 * language (its `Accept-Language`, service/http/locale.ts), so that a widget carries no words of the
 * service's rules; the schemas, the REST API and /openapi.json keep the English. Each German is
 * written where its English is (`say()`), so that a rule and its words stay in one place. A
 * developer's fault (a wrong type, an unknown field) has no German: developers read English.
 */
export type AnswerLocale = 'en' | 'de';

const german = new Map<string, string>();

/** `en`, the message as the schemas and the REST API say it, with `de`, its German for a visitor. */
export function say(en: string, de: string): string {
  const known = german.get(en);
  // One English, one German: a lookup by the English must not depend on which rule said it first.
  if (known !== undefined && known !== de) throw new Error(`Two German wordings of "${en}": "${known}", "${de}".`);
  german.set(en, de);
  return en;
}

/** A message of an answer in `locale`: the German said with it, else (a developer's fault) the English. */
export const inLocale = (message: string, locale: AnswerLocale): string => (locale === 'de' && german.get(message)) || message;
