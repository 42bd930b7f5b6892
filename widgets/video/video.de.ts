import { sharedWordsDe } from '../shared/i18n.de.ts';
import type { en } from './video.ts';

/** The video widget's list and posters in German, a chunk of its own (see translator()). */
const de: typeof en & typeof sharedWordsDe = {
  ...sharedWordsDe,
  heading: 'Videos von {company}',
  empty: 'Hier gibt es noch keine Videos.',
  play: '„{title}“ abspielen, {duration}',
  forParticipants: 'Für Teilnehmende',
  ask: 'Dieses Video ist für Teilnehmende von {company}. Melden Sie sich an, um es anzusehen.',
  askElsewhere:
    'Dieses Video ist für Teilnehmende von {company}. Melden Sie sich auf dieser Website bei Ihrem Konto an und spielen Sie es dann erneut ab.',
  signIn: 'Anmelden',
  'invalid-token': 'Ihre Anmeldung ist abgelaufen. Melden Sie sich erneut an, um dieses Video anzusehen.',
  showAll: 'Alle {count} Videos zeigen',
};

export default de;
