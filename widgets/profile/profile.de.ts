import { sharedWordsDe } from '../shared/i18n.de.ts';
import type { ProfileWords } from './profile.ts';

/** The profile widget's own words in German, a chunk of its own (see translator()). */
const de: ProfileWords & typeof sharedWordsDe = {
  ...sharedWordsDe,
  heading: 'Ihr Konto bei {company}',
  'invalid-token': 'Sie wurden abgemeldet. Melden Sie sich erneut an, um Ihr Konto zu sehen.',
};

export default de;
