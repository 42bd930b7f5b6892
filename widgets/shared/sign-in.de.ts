import { formWordsDe } from './form.de.ts';
import { sharedWordsDe } from './i18n.de.ts';
import type { SignInWords } from './sign-in.ts';

/**
 * The sign-in's email step in German, a chunk of its own (see translator()). It holds the shared
 * words too: the profile loads it beside its own, and the first German chunk to come gives them.
 */
const de: SignInWords & typeof sharedWordsDe = {
  ...sharedWordsDe,
  ...formWordsDe,
  intro: 'Melden Sie sich mit Ihrer E-Mail-Adresse an: Wir senden Ihnen eine PIN.',
  email: 'E-Mail',
  sendPin: 'PIN senden',
};

export default de;
