import { formWordsDe } from '../shared/form.de.ts';
import { sharedWordsDe } from '../shared/i18n.de.ts';
import type { en } from './profile.ts';

/** The profile widget's email step in German, a chunk of its own (see translator()). */
const de: typeof en & typeof sharedWordsDe = {
  ...sharedWordsDe,
  ...formWordsDe,
  heading: 'Ihr Konto bei {company}',
  intro: 'Melden Sie sich mit Ihrer E-Mail-Adresse an: Wir senden Ihnen eine PIN.',
  email: 'E-Mail',
  sendPin: 'PIN senden',
  'invalid-token': 'Sie wurden abgemeldet. Melden Sie sich erneut an, um Ihr Konto zu sehen.',
};

export default de;
