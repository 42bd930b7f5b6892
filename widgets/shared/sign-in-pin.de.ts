import type { en } from './sign-in-pin.ts';

/** The sign-in's PIN step in German, a chunk of its own (see translator()). */
const de: typeof en = {
  checkEmail: 'Sehen Sie in Ihre E-Mails',
  pinSent:
    'Wenn zu {email} ein Konto gehört, haben wir eine 6-stellige PIN und einen Anmeldelink gesendet. Die PIN gilt 5 Minuten.',
  pin: 'PIN',
  signIn: 'Anmelden',
  newPin: 'Neue PIN senden',
  newPinSent: 'Eine neue PIN ist unterwegs.',
  otherEmail: 'Andere E-Mail verwenden',
  'pin-wrong': 'Diese PIN stimmt nicht. Verbleibende Versuche: {left}.',
  'pin-expired': 'Diese PIN ist abgelaufen. Lassen Sie sich eine neue senden.',
  'pin-used': 'Diese PIN wurde schon verwendet. Lassen Sie sich eine neue senden.',
  'pin-locked': 'Zu viele falsche Versuche: Diese PIN gilt nicht mehr. Lassen Sie sich eine neue senden.',
  'pin-missing': 'Das ist nicht die PIN aus unserer neuesten E-Mail. Geben Sie diese ein oder lassen Sie sich eine neue senden.',
};

export default de;
