import type { en } from './checkout-verdicts.ts';

/** The verdicts' words in German, a chunk of its own (see translator()). */
const de: typeof en = {
  fixCart: 'Ändern oder entfernen Sie die markierten Termine, um fortzufahren.',
  'voucher.applied': 'Gutschein {code} eingelöst: Den Rabatt sehen Sie unten.',
  'voucher.unknown': 'Es gibt keinen Gutschein {code}: Bitte prüfen Sie den Code. Sie können ohne ihn bestellen.',
  'voucher.invalid': 'Ein Gutscheincode besteht nur aus Buchstaben, Ziffern und Bindestrichen: Bitte prüfen Sie den Code.',
  'voucher.expired': 'Der Gutschein {code} ist abgelaufen. Sie können ohne ihn bestellen.',
  'voucher.used-up': 'Der Gutschein {code} ist bereits aufgebraucht. Sie können ohne ihn bestellen.',
  'voucher.not-applicable': 'Der Gutschein {code} gilt nicht für die Termine in Ihrem Warenkorb. Sie können ohne ihn bestellen.',
  'voucher.not-checked':
    'Von Ihrer Verbindung aus wurden zu viele falsche Codes versucht: {code} wurde nicht geprüft. Versuchen Sie es in {minutes} Min. erneut oder fahren Sie ohne Gutschein fort.',
  'problem.unknown-class': 'Dieser Termin wird nicht mehr angeboten: Bitte entfernen Sie ihn aus dem Warenkorb.',
  'problem.started': 'Dieser Termin hat bereits begonnen: Bitte entfernen Sie ihn aus dem Warenkorb.',
  'problem.class-full': 'Dieser Termin ist ausgebucht: Bitte entfernen Sie ihn aus dem Warenkorb.',
  'problem.not-enough-seats': 'Freie Plätze in diesem Termin: {count}. Buchen Sie höchstens so viele oder entfernen Sie ihn.',
  'problem.held':
    'Freie Plätze: {count}. Weitere sind für unbezahlte Bestellungen reserviert: Versuchen Sie es in {minutes} Min. erneut oder entfernen Sie den Termin.',
};

export default de;
