import { formWordsDe } from '../shared/form.de.ts';
import { sharedWordsDe } from '../shared/i18n.de.ts';
import type { en } from './contact.ts';

/** The contact widget's words in German, a chunk of its own (see translator()). */
const de: typeof en & typeof sharedWordsDe = {
  ...sharedWordsDe,
  ...formWordsDe,
  heading: 'Kontakt zu {company}',
  name: 'Name',
  email: 'E-Mail',
  subject: 'Betreff',
  topic: 'Thema',
  choose: 'Thema wählen',
  message: 'Nachricht',
  consent: 'Ich bin einverstanden, dass {company} meine Angaben für die Antwort speichert.',
  send: 'Nachricht senden',
  sending: 'Wird gesendet …',
  tooFast: 'Das ging schnell! Bitte prüfen Sie Ihre Nachricht und senden Sie sie erneut.',
  kept: 'Ihre Nachricht bleibt erhalten.',
  sent: 'Vielen Dank – Ihre Nachricht wurde gesendet.',
  reply: 'Wir antworten an {email}.',
  another: 'Weitere Nachricht schreiben',
  count: '{n} / {max} Zeichen',
  countMin: '{n} / {max} Zeichen (mindestens {min})',
};

export default de;
