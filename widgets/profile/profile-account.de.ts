import { formWordsDe } from '../shared/form.de.ts';
import type { en } from './profile-account.ts';

/** The signed-in view's words in German, a chunk of its own. */
const de: typeof en = {
  ...formWordsDe,
  hello: 'Hallo {name}',
  logout: 'Abmelden',
  details: 'Ihre Angaben',
  first_name: 'Vorname',
  last_name: 'Nachname',
  email: 'E-Mail',
  phone: 'Telefon',
  phoneField: 'Telefon (optional)',
  none: '—',
  edit: 'Angaben ändern',
  save: 'Speichern',
  cancel: 'Abbrechen',
  saved: 'Ihre Angaben sind gespeichert.',
  upcoming: 'Kommende Termine',
  past: 'Vergangene Termine',
  noUpcoming: 'Keine kommenden Termine.',
  noPast: 'Keine vergangenen Termine.',
  waitlisted: 'Auf der Warteliste',
  cancelPlace: 'Platz stornieren',
  confirmCancel: 'Ihren Platz in {course} stornieren?',
  yesCancel: 'Ja, stornieren',
  keep: 'Platz behalten',
  cancelled: 'Ihr Platz in {course} ist storniert.',
  noCancel: 'Für eine Stornierung ist es hier zu spät: Bitte wenden Sie sich an {company}.',
  emailPending:
    'Um Ihre E-Mail-Adresse in {email} zu ändern, geben Sie die PIN ein, die wir dorthin gesendet haben (oder öffnen Sie den Link in dieser E-Mail). Bis dahin bleibt Ihre Adresse {current}.',
  pin: 'PIN',
  confirmEmail: 'Neue E-Mail-Adresse bestätigen',
  emailChanged: 'Ihre E-Mail-Adresse ist jetzt {email}.',
  'pin-wrong': 'Diese PIN stimmt nicht. Verbleibende Versuche: {left}.',
  'pin-expired': 'Diese PIN ist abgelaufen. Ändern Sie Ihre E-Mail-Adresse erneut, um eine neue zu erhalten.',
  'pin-used': 'Diese PIN wurde schon verwendet.',
  'pin-locked':
    'Zu viele falsche Versuche: Diese PIN gilt nicht mehr. Ändern Sie Ihre E-Mail-Adresse erneut, um eine neue zu erhalten.',
  'pin-missing': 'Das ist nicht die PIN aus unserer neuesten E-Mail. Geben Sie diese ein.',
  showAll: 'Ihre Angaben und Termine zeigen',
  orders: 'Ihre Bestellungen',
  order: 'Bestellung {number}',
  orderSeats: 'Plätze: {count}',
  confirmed: 'Bestätigt',
  pending_payment: 'Wartet auf die Zahlung',
  cancelled_order: 'Storniert',
};

export default de;
