import type { en } from './video-player.ts';

/** The player's words in German, a chunk of its own (see translator()). */
const de: typeof en = {
  player: 'Videoplayer: {title}',
  play: 'Abspielen',
  pause: 'Pause',
  seek: 'Position',
  position: '{time} von {duration}',
  mute: 'Stumm',
  volume: 'Lautstärke',
  captions: 'Untertitel',
  captionsOff: 'Aus',
  fullScreen: 'Vollbild',
  failed: 'Das Video konnte nicht abgespielt werden.',
  ask: 'Dieses Video ist für Teilnehmende von {company}. Melden Sie sich an, um es anzusehen.',
  askElsewhere:
    'Dieses Video ist für Teilnehmende von {company}. Melden Sie sich auf dieser Website bei Ihrem Konto an und spielen Sie es dann erneut ab.',
  participantsOnly: 'Diese Aufzeichnung ist für Teilnehmende von „{course}“.',
  signIn: 'Anmelden',
  'invalid-token': 'Ihre Anmeldung ist abgelaufen. Melden Sie sich erneut an, um dieses Video anzusehen.',
};

export default de;
