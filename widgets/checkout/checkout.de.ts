import { sharedWordsDe } from '../shared/i18n.de.ts';
import type { en } from './checkout.ts';

/** The cart's words in German, a chunk of its own (see translator()). */
const de: typeof en & typeof sharedWordsDe = {
  ...sharedWordsDe,
  heading: 'Ihr Warenkorb',
  empty: 'Ihr Warenkorb ist leer. Wählen Sie einen Termin, um ihn hier zu buchen.',
  seats: 'Plätze',
  remove: 'Entfernen',
  removeLine: '{course} entfernen',
  each: '{price} pro Platz',
  voucher: 'Gutscheincode',
  apply: 'Einlösen',
  subtotal: 'Zwischensumme',
  discount: 'Rabatt',
  taxIncluded: 'Enthaltene MwSt. ({rate}\u00a0%)',
  taxAdded: 'Zzgl. MwSt. ({rate}\u00a0%)',
  total: 'Gesamt',
  next: 'Weiter',
  updating: 'Preise werden aktualisiert …',
  failed: 'Die Preise konnten nicht aktualisiert werden.',
  haveVoucher: 'Gutschein einlösen',
  more: 'Alle {count} Termine zeigen',
};

export default de;
