/** The widgets' words. English is bundled; other locales are chunks of their own, loaded on demand. */
export type Locale = 'en' | 'de';

/** Words every widget uses. Their German is in `i18n.de.ts`, spread into each widget's German chunk. */
export const sharedWords = {
  loading: 'Loading…',
  retry: 'Try again',
  free: 'Free',
  'error.network': 'The booking service could not be reached. Check your connection and try again.',
  'error.internal': 'The booking service had a problem. Try again in a moment.',
  'error.unexpected': 'Something went wrong. Try again.',
  'error.unavailable': 'This part of the page cannot be shown right now.',
};

export type SharedKey = keyof typeof sharedWords;

/** The first of the candidates (attribute, `lang`, browser language) that is supported; else English. */
export const resolveLocale = (...candidates: (string | null | undefined)[]): Locale =>
  (candidates.map((c) => c?.slice(0, 2).toLowerCase()).find((c) => c === 'en' || c === 'de') as Locale) ?? 'en';

/** The shared words of each locale loaded so far (every widget's German chunk holds them). */
const shared: Partial<Record<Locale, Record<string, string>>> = { en: sharedWords };

/** A shared word in the locale (English until the locale's words have come). */
export const sharedText = (locale: Locale, key: SharedKey) => (shared[locale] ?? sharedWords)[key];

/**
 * The visitor's words for an error code where the visitor can act on it (network, service failures,
 * a rate limit in other locales than English: `{n}` minutes to wait); undefined for the others, whose
 * message is the service's (it says how to fix it) or the visitor's line of an unavailable widget.
 */
export const errorText = (locale: Locale, code: string, details?: { retry_after?: number }): string | undefined =>
  (shared[locale] ?? (sharedWords as Record<string, string>))[`error.${code}`]?.replace(
    '{n}',
    Math.ceil((details?.retry_after as number) / 60) as never,
  );

/**
 * A translator over a widget's own English words plus the shared ones. `t.load(locale)` fetches
 * another locale's chunk (in parallel with the widget's data), so a page pays only for its own
 * language. `{name}` in a message is replaced by `params.name`.
 */
/** One plural rule set per locale: a count is worded on every day cell and every class. */
const pluralRules: Partial<Record<Locale, Intl.PluralRules>> = {};

export const translator = <K extends string>(
  en: Record<K, string>,
  // Each locale's chunk is typed against the English words in its own file.
  others: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Record<string, string> }>>,
) => {
  const words: Partial<Record<Locale, Record<string, string>>> = { en: { ...sharedWords, ...en } };
  const t = (locale: Locale, key: K | SharedKey, params: Record<string, string | number> = {}) => {
    const own = words[locale] ?? words.en!;
    // A count picks its plural form where the words have one (`results.one`: "1 programme shown").
    const plural =
      params.count != null && own[`${key}.${(pluralRules[locale] ??= new Intl.PluralRules(locale)).select(+params.count)}`];
    return (plural || own[key]!).replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));
  };
  /** Loads a locale's words; if its chunk cannot be fetched, the widget stays in English. */
  t.load = async (locale: Locale) => {
    if (locale === 'en' || words[locale]) return;
    try {
      words[locale] = (await others[locale]()).default;
      shared[locale] ??= words[locale];
    } catch {
      // English it is.
    }
  };
  return t;
};
