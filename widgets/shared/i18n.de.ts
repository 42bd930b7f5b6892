import type { sharedWords } from './i18n.ts';

/**
 * The shared words in German; each widget's German chunk spreads them in. `error.rate-limited`
 * exists here only: in English the service's own message says when to try again.
 */
export const sharedWordsDe: typeof sharedWords & { 'error.rate-limited': string } = {
  loading: 'Wird geladen …',
  retry: 'Erneut versuchen',
  free: 'Kostenlos',
  'error.network': 'Der Buchungsdienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  'error.internal': 'Beim Buchungsdienst ist ein Fehler aufgetreten. Versuchen Sie es gleich noch einmal.',
  'error.unexpected': 'Etwas ist schiefgelaufen. Versuchen Sie es erneut.',
  'error.unavailable': 'Dieser Teil der Seite kann gerade nicht angezeigt werden.',
  'error.rate-limited': 'Zu viele Versuche. Bitte versuchen Sie es in {n} Min. erneut.',
};
