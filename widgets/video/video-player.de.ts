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
  failed: 'Das Video konnte nicht abgespielt werden. Versuchen Sie es später erneut.',
};

export default de;
