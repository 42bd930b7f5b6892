/**
 * Wall-clock time in a venue's IANA time zone, from the platform's own zone data (Intl): the day a
 * class falls on in the calendar, the local times of an iCalendar file, and the zone's offsets.
 */

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock time at `ms` (epoch milliseconds) in the zone. */
export function localTime(ms: number, timeZone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(ms)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2026-12-01`: the day `ms` falls on in the zone. */
export function localDate(ms: number, timeZone: string): string {
  const t = localTime(ms, timeZone);
  return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
}

/** The day `ms` falls on in the zone, as days since 1970-01-01 (a class's `local_day`). */
export const localDay = (ms: number, timeZone: string): number => Date.parse(localDate(ms, timeZone)) / 86_400_000;

/** `2026-12-01` of a `localDay`. */
export const dayDate = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** The zone's offset from UTC at `ms`, in minutes (Berlin in summer: 120). */
export function offsetMinutes(ms: number, timeZone: string): number {
  const t = localTime(ms, timeZone);
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** Whether the platform knows this IANA time zone (`Europe/Berlin`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
}
