import { sharedWordsDe } from '../shared/i18n.de.ts';
import type { en } from './registration.ts';

/** The registration widget's words in German, a chunk of its own (see translator()). */
const de: typeof en & typeof sharedWordsDe = {
  ...sharedWordsDe,
  heading: 'Programme von {company}',
  search: 'Programme durchsuchen',
  results: '{count} Programme angezeigt',
  noMatch: 'Kein Programm passt zu „{query}“.',
  clearSearch: 'Suche löschen',
  empty: 'Zurzeit sind keine Programme zur Anmeldung offen. Schauen Sie bald wieder vorbei.',
  noDates: 'Noch keine kommenden Termine.',
  seatsLeft: 'Freie Plätze: {count}',
  waitlist: 'Ausgebucht – Warteliste offen',
  full: 'Ausgebucht',
  book: 'Anmelden',
  joinWaitlist: 'Auf die Warteliste',
  back: 'Zurück zu allen Programmen',
  formHeading: 'Anmeldung: {course}',
  waitlistNotice: 'Dieser Termin ist ausgebucht. Sie kommen auf die Warteliste und hören von uns, sobald ein Platz frei wird.',
  first_name: 'Vorname',
  last_name: 'Nachname',
  email: 'E-Mail',
  phone: 'Telefon',
  optional: '(optional)',
  consent: 'Ich bin einverstanden, dass {company} meine Angaben zur Bearbeitung dieser Anmeldung speichert.',
  sending: 'Wird gesendet …',
  fixFields: 'Bitte korrigieren Sie die markierten Felder.',
  classFull: 'Dieser Termin wurde gerade ausgebucht. Bitte wählen Sie einen anderen.',
  kept: 'Ihre Eingaben bleiben erhalten.',
  confirmed: 'Sie sind angemeldet',
  waitlisted: 'Sie stehen auf der Warteliste',
  confirmation: 'Wir haben eine Bestätigung an {email} gesendet.',
};

export default de;
