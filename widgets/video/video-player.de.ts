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
  participantsOnly: 'Diese Aufzeichnung ist für Teilnehmende von „{course}“.',
  unpaid: 'Ihr Platz in „{course}“ ist noch nicht bezahlt: Die Aufzeichnung läuft, sobald er bezahlt ist.',
  signIn: 'Anmelden',
  'invalid-token': 'Ihre Anmeldung ist abgelaufen. Melden Sie sich erneut an, um dieses Video anzusehen.',
  signedIn: 'Sie sind angemeldet als {name}.',
  playNow: 'Jetzt abspielen',
  linkEnded: 'Dieser Anmeldelink ist abgelaufen. Melden Sie sich erneut an, um dieses Video anzusehen.',
  signInFailed: 'Die Anmeldung konnte nicht geladen werden. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  otherEmail: 'Mit anderer E-Mail-Adresse anmelden',
};

export default de;
