import type { sharedWords } from './i18n.ts';

/** The shared words in German; each widget's German chunk spreads them in. */
export const sharedWordsDe: typeof sharedWords = {
  loading: 'Wird geladen …',
  retry: 'Erneut versuchen',
  free: 'Kostenlos',
  'error.network': 'Der Buchungsdienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  'error.internal': 'Beim Buchungsdienst ist ein Fehler aufgetreten. Versuchen Sie es gleich noch einmal.',
  'error.unexpected': 'Etwas ist schiefgelaufen. Versuchen Sie es erneut.',
};
