/** Money and times as people read them in the service's emails and pages, in English or German. */

export type MailLocale = 'en' | 'de';

const TAG: Record<MailLocale, string> = { en: 'en-GB', de: 'de-DE' };

/** An amount of minor units as people read it ("€490.00"; "490,00 €"). */
export function formatMoney(amount: number, currency: string, locale: MailLocale = 'en'): string {
  return new Intl.NumberFormat(TAG[locale], { style: 'currency', currency }).format(amount / 100);
}

/**
 * A class's start in the venue's time zone, the zone named by its offset as the widgets name it
 * ("Tuesday, 1 December 2026 at 10:00 GMT+1"; "Dienstag, 1. Dezember 2026 um 10:00 GMT+1").
 */
export function formatClassStart(startsAt: number, timezone: string, locale: MailLocale = 'en'): string {
  const zone = new Intl.DateTimeFormat(TAG[locale], { timeZone: timezone, timeZoneName: 'shortOffset' })
    .formatToParts(startsAt)
    .find((part) => part.type === 'timeZoneName')!.value;
  return `${new Intl.DateTimeFormat(TAG[locale], { dateStyle: 'full', timeStyle: 'short', timeZone: timezone }).format(startsAt)} ${zone}`;
}
