import { sharedWordsDe } from '../shared/i18n.de.ts';
import type { en } from './calendar.ts';

/** The calendar's words in German, a chunk of its own (see translator()). */
const de: typeof en & typeof sharedWordsDe = {
  ...sharedWordsDe,
  heading: 'Termine von {company}',
  programme: 'Programm',
  allProgrammes: 'Alle Programme',
  place: 'Ort',
  allPlaces: 'Alle Orte',
  view: 'Ansicht',
  month: 'Monat',
  list: 'Liste',
  previous: 'Voriger Monat',
  next: 'Nächster Monat',
  today: 'Heute',
  classes: '{count} Termine',
  'classes.one': '{count} Termin',
  noClasses: 'keine Termine',
  noDay: 'An diesem Tag gibt es keine Termine.',
  emptyMonth: 'Im {month} gibt es keine Termine.',
  showMonth: '{month} zeigen',
  noUpcoming: 'Keine kommenden Termine passen.',
  failed: 'Die Termine im {month} konnten nicht geladen werden.',
  yourTime: '(Ihre Zeit: {time})',
  with: 'mit {names}',
  seatsLeft: 'Freie Plätze: {count}',
  waitlist: 'Ausgebucht – Warteliste offen',
  full: 'Ausgebucht',
  held: 'Letzte Plätze für unbezahlte Bestellungen reserviert – in {minutes} Min. erneut versuchen',
  book: 'Buchen',
  join: 'Auf die Warteliste',
  more: 'Mehr zeigen',
};

export default de;
