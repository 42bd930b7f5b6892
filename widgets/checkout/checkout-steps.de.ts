import { formWordsDe } from '../shared/form.de.ts';
import { sharedWordsDe } from '../shared/i18n.de.ts';
import type { en } from './checkout-steps.ts';

/** The checkout's later steps in German, a chunk of its own (see translator()). */
const de: typeof en & typeof sharedWordsDe = {
  ...sharedWordsDe,
  ...formWordsDe,
  back: 'Zurück zum Warenkorb',
  heading: 'Ihre Angaben',
  attendees: 'Wer nimmt an {course} teil?',
  attendee: 'Teilnehmer:in {n}',
  first_name: 'Vorname',
  last_name: 'Nachname',
  buyer: 'Käufer:in',
  email: 'E-Mail',
  phone: 'Telefon (optional)',
  organisation: 'Organisation (optional)',
  address: 'Rechnungsadresse',
  line1: 'Straße und Hausnummer',
  line2: 'Adresszusatz (optional)',
  postal_code: 'Postleitzahl',
  city: 'Ort',
  country: 'Land',
  chooseCountry: 'Bitte wählen …',
  payment: 'Zahlung',
  invoice: 'Rechnung',
  on_site: 'Zahlung vor Ort',
  card: 'Karte, auf der sicheren Seite unseres Zahlungsanbieters',
  consent: 'Ich bin einverstanden, dass {company} meine Angaben zur Abwicklung dieser Bestellung speichert.',
  consentTerms:
    'Ich stimme den {terms} von {company} zu und bin einverstanden, dass {company} meine Angaben zur Abwicklung dieser Bestellung speichert.',
  terms: 'Geschäftsbedingungen',
  newTab: '(öffnet in einem neuen Tab)',
  order: 'Kostenpflichtig bestellen · {total}',
  pay: 'Weiter zur Zahlung · {total}',
  orderFree: 'Kostenlos bestellen',
  freeNote:
    'Es ist nichts zu bezahlen: Wir brauchen nur Ihren Namen und Ihre E-Mail-Adresse, die Plätze werden auf Ihren Namen gebucht.',
  sending: 'Wird gesendet …',
  classFull:
    'Einige Termine wurden während Ihrer Bestellung ausgebucht, es wurde nichts gebucht. Ändern Sie die Plätze oder entfernen Sie die Termine und bestellen Sie erneut.',
  priceChanged: 'Die Preise haben sich geändert, es wurde nichts gebucht. Prüfen Sie die neue Summe und bestellen Sie erneut.',
  voucherRefused:
    'Ihr Gutschein kann nicht mehr eingelöst werden, es wurde nichts gebucht. Prüfen Sie die neue Summe und bestellen Sie erneut.',
  thanks: 'Vielen Dank! Ihre Bestellung {number} ist aufgegeben.',
  sent: 'Wir haben die Bestätigung an {email} gesendet.',
  due_invoice: 'Sie erhalten eine Rechnung über {total} per E-Mail.',
  due_on_site: 'Bitte bezahlen Sie {total} vor Ort, vor Beginn des Termins.',
  paid: 'Mit Karte bezahlt: {total}.',
  none: 'Es ist nichts zu bezahlen.',
  seatsFor: '{count} Plätze: {names}',
  'seatsFor.one': '1 Platz: {names}',
  ics: 'Zum Kalender hinzufügen',
  manage: 'Um die Bestellung zu ändern oder zu stornieren, wenden Sie sich an {company} und nennen Sie {number}.',
  account: 'In Ihrem Konto ansehen',
  cancelled:
    'Die Zahlung wurde abgebrochen, es wurde nichts berechnet. Ihr Warenkorb bleibt erhalten: Versuchen Sie es erneut oder wählen Sie eine andere Zahlungsart.',
  unpaid: 'Ihre Zahlung ist noch nicht abgeschlossen.',
  toPayment: 'Weiter zur Zahlung',
  whole: 'Die ganze Bestellung zeigen',
  changeOrder: 'Diese Zahlung abbrechen und die Bestellung ändern',
  lost: 'Wir konnten die Bestellung, von der Sie zurückkommen, nicht finden. Ihr Warenkorb bleibt erhalten: Bestellen Sie erneut oder sehen Sie nach unserer Bestätigung per E-Mail, falls Sie bezahlt haben.',
};

export default de;
