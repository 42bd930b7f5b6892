import type { formWords } from './form.ts';

/** The forms' own words in German; the German of each widget with a form spreads them in. */
export const formWordsDe: typeof formWords = {
  fixFields: 'Bitte korrigieren Sie die markierten Felder.',
  kept: 'Ihre Eingaben bleiben erhalten.',
  fillIn: 'Füllen Sie dieses Feld aus.',
  pickOne: 'Wählen Sie einen Eintrag aus der Liste.',
  tickBox: 'Setzen Sie hier ein Häkchen, um zuzustimmen.',
};
