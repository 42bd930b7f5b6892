/**
 * iCalendar files (RFC 5545) of classes: each event in its venue's time zone (`DTSTART;TZID=…`),
 * with a VTIMEZONE for each zone used. The VTIMEZONEs are derived from the platform's zone data
 * (Intl), not written by hand: every offset change of the zone between the first and the last event's
 * years is found and written as an observance of its own (STANDARD or DAYLIGHT, with its DTSTART,
 * TZOFFSETFROM and TZOFFSETTO), so that any IANA zone comes out right, rule changes included.
 */
import { localTime, offsetMinutes } from '../../core/time-zones.ts';

export interface IcsEvent {
  uid: string;
  startsAt: number;
  endsAt: number;
  timezone: string;
  summary: string;
  location: string;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `20261201T090000`: a wall-clock time as iCalendar writes a local DATE-TIME. */
const dateTime = (t: { year: number; month: number; day: number; hour: number; minute: number; second: number }) =>
  `${pad(t.year, 4)}${pad(t.month)}${pad(t.day)}T${pad(t.hour)}${pad(t.minute)}${pad(t.second)}`;

/** The wall-clock time of an instant at a fixed offset. */
const atOffset = (ms: number, offset: number) => {
  const d = new Date(ms + offset * MINUTE);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
};

/** `+0100`, `-0500`. */
const utcOffset = (minutes: number) =>
  `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}${pad(Math.abs(minutes) % 60)}`;

/** TEXT as iCalendar escapes it: backslash, semicolon, comma and line breaks. */
export function escapeText(text: string): string {
  return text.replace(/[\\;,]/g, (ch) => `\\${ch}`).replace(/\r\n|\r|\n/g, '\\n');
}

/** A content line folded at 75 octets (continuations start with a space), never inside a character. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    // The first line holds 75 octets; each continuation 74 after its leading space.
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** The instants (whole minutes) in [from, to) at which the zone's offset changes. */
function transitions(timeZone: string, from: number, to: number): { at: number; from: number; to: number }[] {
  const found: { at: number; from: number; to: number }[] = [];
  let before = offsetMinutes(from, timeZone);
  // Zones change their offset at most a few times a year, never twice within a day.
  for (let t = from; t < to; t += DAY) {
    const next = Math.min(t + DAY, to);
    const after = offsetMinutes(next, timeZone);
    if (after === before) continue;
    let lo = Math.floor(t / MINUTE);
    let hi = Math.floor(next / MINUTE);
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetMinutes(mid * MINUTE, timeZone) === before) lo = mid;
      else hi = mid;
    }
    found.push({ at: hi * MINUTE, from: before, to: after });
    before = after;
  }
  return found;
}

/** The zone's VTIMEZONE for the years from `from` to `to` (instants), as content lines. */
export function vtimezone(timeZone: string, from: number, to: number): string[] {
  const firstYear = new Date(from).getUTCFullYear();
  const start = Date.UTC(firstYear - 1, 11, 31);
  const end = Date.UTC(new Date(to).getUTCFullYear() + 1, 0, 2);
  // Standard time is a year's smaller offset: an observance with a larger one is daylight time.
  const standard = (at: number) => {
    const year = new Date(at).getUTCFullYear();
    return Math.min(offsetMinutes(Date.UTC(year, 0, 1), timeZone), offsetMinutes(Date.UTC(year, 6, 1), timeZone));
  };
  const observance = (at: number, fromOffset: number, toOffset: number) => {
    const kind = toOffset > standard(at) ? 'DAYLIGHT' : 'STANDARD';
    return [
      `BEGIN:${kind}`,
      `DTSTART:${dateTime(atOffset(at, fromOffset))}`,
      `TZOFFSETFROM:${utcOffset(fromOffset)}`,
      `TZOFFSETTO:${utcOffset(toOffset)}`,
      `END:${kind}`,
    ];
  };
  const initial = offsetMinutes(start, timeZone);
  return [
    'BEGIN:VTIMEZONE',
    `TZID:${timeZone}`,
    ...observance(start, initial, initial),
    ...transitions(timeZone, start, end).flatMap((t) => observance(t.at, t.from, t.to)),
    'END:VTIMEZONE',
  ];
}

/** The whole file, CRLF line endings, lines folded. `now` stamps the events (DTSTAMP). */
export function icsCalendar(events: readonly IcsEvent[], opts: { now: number; name: string }): string {
  const zones = new Map<string, { from: number; to: number }>();
  for (const e of events) {
    const span = zones.get(e.timezone);
    zones.set(e.timezone, {
      from: Math.min(span?.from ?? e.startsAt, e.startsAt),
      to: Math.max(span?.to ?? e.endsAt, e.endsAt),
    });
  }
  const stamp = `${dateTime(atOffset(opts.now, 0))}Z`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Service widgets//Reference service//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(opts.name)}`,
    ...[...zones].flatMap(([zone, span]) => vtimezone(zone, span.from, span.to)),
    ...events.flatMap((e) => [
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;TZID=${e.timezone}:${dateTime(localTime(e.startsAt, e.timezone))}`,
      `DTEND;TZID=${e.timezone}:${dateTime(localTime(e.endsAt, e.timezone))}`,
      `SUMMARY:${escapeText(e.summary)}`,
      `LOCATION:${escapeText(e.location)}`,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
