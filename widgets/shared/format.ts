/** Money and dates with `Intl`, in the widget's locale; formatters are built once per options. */
import type { Locale } from './i18n.ts';

export interface Money {
  /** In minor units (cents). */
  amount: number;
  currency: string;
}

const cache: Record<string, Intl.NumberFormat | Intl.DateTimeFormat> = {};
const memo = <T extends Intl.NumberFormat | Intl.DateTimeFormat>(id: string, make: () => T) => (cache[id] ??= make()) as T;

export const formatMoney = (locale: Locale, { amount, currency }: Money) => {
  const format = memo(`m${locale}${currency}`, () => new Intl.NumberFormat(locale, { style: 'currency', currency }));
  // Minor units per currency: 2 for EUR, 0 for JPY.
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
};

/** A date formatter of the locale with these options, built once. */
export const dateFormat = (locale: Locale, options: Intl.DateTimeFormatOptions) =>
  memo(locale + JSON.stringify(options), () => new Intl.DateTimeFormat(locale, options));

const DATE_AND_TIME: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
};

/**
 * "Tue, 1 Dec 2026, 10:00 – 17:00 GMT+1": a class's times in the venue's time zone (its times for
 * `timeZone` undefined: the visitor's own), and the zone named by its offset, the same in every widget
 * and language (the locales' own names differ: "GMT+1" in English, "MEZ" in German, and a range
 * drops an offset). `options` leave out the date ("10:00 – 17:00 GMT+1": `{ hour: 'numeric' }`).
 */
export const formatDateRange = (locale: Locale, start: string, end: string, timeZone?: string, options = DATE_AND_TIME) =>
  // Once per class and look: a page of many widgets shows the same classes in each (0.17 s of a page of 200).
  (ranges[[locale, start, end, timeZone, JSON.stringify(options)].join()] ??=
    // (The zone is the last part of a date written with it, in both languages: "12/1/2026, GMT+1".)
    `${dateFormat(locale, { ...options, minute: '2-digit', timeZone }).formatRange(new Date(start), new Date(end))} ${
      dateFormat(locale, { timeZone, timeZoneName: 'shortOffset' }).formatToParts(new Date(start)).at(-1)!.value
    }`);
const ranges: Record<string, string> = {};

/** Whole minutes until a time of the service, at least 1: how long a hold on seats lasts (NaN for none). */
export const minutesUntil = (iso: string) => Math.max(1, Math.ceil((Date.parse(iso) - Date.now()) / 60_000));

type SeatsKey = 'seatsLeft' | 'waitlist' | 'full' | 'held';

/**
 * A class's seats in words: how many are left, its open waitlist, full, or, when orders waiting for
 * their payment hold the last seats, for how many more minutes (they may come free).
 */
export const seatsText = (
  cls: { status: 'open' | 'waitlist' | 'full'; seats_left: number; held_until: string | null },
  t: (key: SeatsKey, params?: Record<string, number>) => string,
) =>
  cls.status === 'open'
    ? t('seatsLeft', { count: cls.seats_left })
    : cls.status === 'full' && cls.held_until
      ? t('held', { minutes: minutesUntil(cls.held_until) })
      : t(cls.status);
