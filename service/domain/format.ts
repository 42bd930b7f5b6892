/** Money and times as people read them in the service's emails and pages (English). */

/** An amount of minor units as people read it in an English text ("€490.00"). */
export function formatMoney(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount / 100);
}

/** A class's start as people read it, in the venue's time zone ("Monday, 1 December 2026 at 10:00"). */
export function formatClassStart(startsAt: number, timezone: string): string {
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: timezone }).format(startsAt);
}
