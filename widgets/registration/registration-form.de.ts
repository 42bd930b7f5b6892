import { formWordsDe } from '../shared/form.de.ts';
import type { en } from './registration-form.ts';

/** The registration form's words in German, a chunk of its own (see translator()). */
const de: typeof en = {
  ...formWordsDe,
  back: 'Zurück zu allen Programmen',
  formHeading: 'Anmeldung: {course}',
  waitlistNotice: 'Dieser Termin ist ausgebucht. Sie kommen auf die Warteliste und hören von uns, sobald ein Platz frei wird.',
  first_name: 'Vorname',
  last_name: 'Nachname',
  email: 'E-Mail',
  phone: 'Telefon (optional)',
  consent: 'Ich bin einverstanden, dass {company} meine Angaben zur Bearbeitung dieser Anmeldung speichert.',
  book: 'Anmelden',
  joinWaitlist: 'Auf die Warteliste',
  sending: 'Wird gesendet …',
  classFull: 'Dieser Termin wurde gerade ausgebucht. Bitte wählen Sie einen anderen.',
  classHeld:
    'Die letzten Plätze dieses Termins sind für unbezahlte Bestellungen reserviert: Versuchen Sie es in {minutes} Min. erneut oder wählen Sie einen anderen Termin.',
  confirmed: 'Sie sind angemeldet',
  waitlisted: 'Sie stehen auf der Warteliste',
  confirmation: 'Wir haben eine Bestätigung an {email} gesendet.',
  payment: '{company} teilt Ihnen mit, wie Sie bezahlen.',
  freed: 'Wir schreiben Ihnen, sobald ein Platz frei wird.',
  addToCalendar: 'Zum Kalender hinzufügen',
  cancelUntil:
    'Sie können doch nicht teilnehmen? Bis {date} stornieren Sie Ihren Platz in Ihrem Konto auf dieser Website, angemeldet mit dieser E-Mail-Adresse.',
  leaveUntil:
    'Bis {date} können Sie die Warteliste in Ihrem Konto auf dieser Website verlassen, angemeldet mit dieser E-Mail-Adresse.',
  tooLate: 'Sie können doch nicht teilnehmen? Bitte sagen Sie {company} Bescheid.',
  signIn: 'In Ihrem Konto anmelden',
};

export default de;
