import { sharedWordsDe } from '../shared/i18n.de.ts';
import type { en } from './video.ts';

/** The video widget's list and posters in German, a chunk of its own (see translator()). */
const de: typeof en & typeof sharedWordsDe = {
  ...sharedWordsDe,
  heading: 'Videos von {company}',
  empty: 'Hier gibt es noch keine Videos.',
  play: '„{title}“ abspielen, {duration}',
  forParticipants: 'Für Teilnehmende',
  showAll: 'Alle {count} Videos zeigen',
  playerFailed: 'Der Player konnte nicht geladen werden. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
};

export default de;
