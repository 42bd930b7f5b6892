import { sharedWordsDe } from '../shared/i18n.de.ts';
import type { en } from './registration.ts';

/** The registration widget's list in German, a chunk of its own (see translator()). */
const de: typeof en & typeof sharedWordsDe = {
  ...sharedWordsDe,
  heading: 'Programme von {company}',
  search: 'Programme durchsuchen',
  results: '{count} Programme angezeigt',
  'results.one': '{count} Programm angezeigt',
  noMatch: 'Kein Programm passt zu „{query}“.',
  clearSearch: 'Suche löschen',
  empty: 'Zurzeit sind keine Programme zur Anmeldung offen. Schauen Sie bald wieder vorbei.',
  noDates: 'Noch keine kommenden Termine.',
  seatsLeft: 'Freie Plätze: {count}',
  waitlist: 'Ausgebucht – Warteliste offen',
  full: 'Ausgebucht',
  held: 'Letzte Plätze für unbezahlte Bestellungen reserviert – in {minutes} Min. erneut versuchen',
  book: 'Anmelden',
  joinWaitlist: 'Auf die Warteliste',
  showAll: 'Alle {count} Programme zeigen',
  more: 'Weitere Programme zeigen ({count} von {total})',
  moreFailed: 'Weitere Programme konnten nicht geladen werden: {message}',
  addToCart: 'In den Warenkorb',
};

export default de;
