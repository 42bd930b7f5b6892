import { sharedWordsDe } from '../shared/i18n.de.ts';
import type { en } from './map.ts';

/** The map widget's words in German, the map's included, a chunk of its own (see translator()). */
const de: typeof en & typeof sharedWordsDe = {
  ...sharedWordsDe,
  heading: 'Hier unterrichtet {company}',
  places: 'Orte',
  empty: 'Noch keine Orte.',
  online: 'Kein Ort auf der Karte: Diese Kurse finden online statt.',
  noClasses: 'Hier sind keine Kurse geplant.',
  nextClasses: 'Nächste Kurse',
  book: 'Buchen',
  bookClass: '{course} buchen, {when}',
  addToCart: 'In den Warenkorb',
  addClass: 'In den Warenkorb: {course}, {when}',
  seatsLeft: 'Freie Plätze: {count}',
  waitlist: 'Ausgebucht – Warteliste offen',
  full: 'Ausgebucht',
  held: 'Letzte Plätze für unbezahlte Bestellungen reserviert – in {minutes} Min. erneut versuchen',
  map: 'Karte der Orte',
  zoomIn: 'Vergrößern',
  zoomOut: 'Verkleinern',
  closePopup: 'Schließen',
  tilesFailed: 'Der Kartenhintergrund konnte nicht geladen werden. Die Orte und ihre Markierungen funktionieren weiter.',
  mapFailed: 'Die Karte konnte nicht geladen werden. Die Liste der Orte funktioniert weiter.',
  showAll: 'Alle {count} Orte zeigen',
  'showAll.one': 'Den Ort zeigen',
};

export default de;
