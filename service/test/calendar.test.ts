import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { localDay } from '../core/time-zones.ts';
import { FOREIGN_PAGE, LOCAL_PAGE, useTestService, type Json } from './helpers.ts';

const svc = useTestService();

const calendar = (query = '', headers: Record<string, string> = {}) =>
  svc.json(`/widget-api/v1/calendar?key=wk_demo_calendar${query}`, { headers: { Origin: LOCAL_PAGE, ...headers } });
const now = async () => Date.parse((await svc.json('/dev/clock')).body.now);
const seed = async () => (await svc.json('/dev/seed')).body;

/** `2026-12` of a time in a zone, computed here on its own. */
const monthIn = (ms: number, timeZone: string) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit' })
      .formatToParts(ms)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}`;
};
const addMonths = (month: string, n: number) => {
  const d = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1 + n, 1));
  return d.toISOString().slice(0, 7);
};
/** Every upcoming class of Acme with its start and zone, from the registration widget's first render. */
const upcoming = async (): Promise<Json[]> =>
  (await svc.json('/widget-api/v1/widget?key=wk_demo_registration&type=registration')).body.courses.flatMap((c: Json) =>
    c.classes.map((cl: Json) => ({ ...cl, course_id: c.id })),
  );

describe('GET /widget-api/v1/calendar', () => {
  test('answers this month by default: upcoming classes by start, with programme, venue date and lecturers', async () => {
    const res = await calendar();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), LOCAL_PAGE);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const at = await now();
    assert.equal(res.body.month, new Date(at).toISOString().slice(0, 7));
    assert.ok(Math.abs(Date.parse(res.body.now) - at) < 60_000);
    assert.deepEqual(res.body.widget.company, { id: 'c_acme', name: 'Acme Academy' });

    const all = await upcoming();
    const expected = all
      .filter((cl) => monthIn(Date.parse(cl.starts_at), cl.timezone) === res.body.month)
      .sort((a, b) => a.starts_at.localeCompare(b.starts_at))
      .map((cl) => cl.id);
    assert.deepEqual(
      res.body.classes.map((cl: Json) => cl.id),
      expected,
    );
    for (const cl of res.body.classes) {
      assert.ok(Date.parse(cl.starts_at) > at, `${cl.id} is upcoming`);
      assert.equal(cl.local_date.slice(0, 7), res.body.month);
    }
    // Every field of a class, here one with a lecturer: cls_web_1 is Lena's, whatever month it falls in.
    const web1 = all.find((cl) => cl.id === 'cls_web_1');
    const month = monthIn(Date.parse(web1.starts_at), web1.timezone);
    const shown = (await calendar(`&month=${month}`)).body.classes.find((cl: Json) => cl.id === 'cls_web_1');
    const { course_id: _course, ...asListed } = web1;
    assert.deepEqual(shown, {
      ...asListed,
      course_id: 'crs_web',
      course_title: 'Web accessibility in practice',
      local_date: new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(Date.parse(web1.starts_at)),
      lecturers: [{ name: 'Lena Lecturer' }],
    });
  });

  test('a class belongs to the month of its day in the venue’s time zone: 23:30 UTC on the last of a month is the 1st in Berlin', async () => {
    const at = new Date(await now());
    // The last day of next month, 23:30 UTC: 00:30 or 01:30 of the 1st of the month after, in Berlin.
    const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 2, 0, 23, 30);
    // (As the service moves a class: its start and the day it starts on at its venue, `local_day`.)
    assert.equal(
      await svc.exec(
        'UPDATE classes SET starts_at = ?, ends_at = ?, local_day = ? WHERE id = ? AND timezone = ?',
        start,
        start + 3_600_000,
        localDay(start, 'Europe/Berlin'),
        'cls_web_2',
        'Europe/Berlin',
      ),
      1,
    );
    const utcMonth = new Date(start).toISOString().slice(0, 7);
    const berlinMonth = addMonths(utcMonth, 1);

    const inUtcMonth = await calendar(`&month=${utcMonth}`);
    assert.ok(!inUtcMonth.body.classes.some((cl: Json) => cl.id === 'cls_web_2'), 'not in the month of its UTC date');
    const inBerlinMonth = await calendar(`&month=${berlinMonth}`);
    const cls = inBerlinMonth.body.classes.find((cl: Json) => cl.id === 'cls_web_2');
    assert.equal(cls.local_date, `${berlinMonth}-01`);
    assert.equal(cls.starts_at, new Date(start).toISOString());
    assert.equal(inBerlinMonth.body.classes[0].id, 'cls_web_2', 'the first class of its month');
  });

  test('filters by programme and by place (any letter case); filters list every programme and place regardless', async () => {
    const all = await upcoming();
    const month = monthIn(Date.parse(all.find((cl) => cl.id === 'cls_web_1').starts_at), 'Europe/Berlin');
    const unfiltered = await calendar(`&month=${month}`);

    const web = await calendar(`&month=${month}&course=crs_web`);
    assert.equal(web.status, 200);
    assert.ok(web.body.classes.length > 0);
    assert.ok(web.body.classes.every((cl: Json) => cl.course_id === 'crs_web'));
    assert.deepEqual(web.body.filters, unfiltered.body.filters, 'the filters do not narrow the choices');

    const berlin = await calendar(`&month=${month}&location=berlin`);
    assert.ok(berlin.body.classes.length > 0);
    assert.ok(berlin.body.classes.every((cl: Json) => cl.location.startsWith('Berlin')));
    assert.ok(
      unfiltered.body.classes.some((cl: Json) => !cl.location.startsWith('Berlin')),
      'something was filtered out',
    );

    const both = await calendar(`&month=${month}&course=crs_open&location=TORS`);
    assert.ok(both.body.classes.every((cl: Json) => cl.course_id === 'crs_open' && /tors/i.test(cl.location)));

    // Any letter case of any letter: Ä is ä (SQLite's own lower() knows A–Z only), and % is a character.
    await svc.exec('UPDATE classes SET location = ? WHERE id = ?', 'Ärztehaus Köln, Raum 100%', 'cls_web_1');
    const cologne = await calendar(`&month=${month}&location=${encodeURIComponent('ärztehaus KÖLN')}`);
    assert.deepEqual(
      cologne.body.classes.map((cl: Json) => cl.id),
      ['cls_web_1'],
    );
    assert.deepEqual((await calendar(`&month=${month}&location=${encodeURIComponent('m 100%')}`)).body.classes.length, 1);
    assert.deepEqual((await calendar(`&month=${month}&location=${encodeURIComponent('m 1%0')}`)).body.classes.length, 0);
    await svc.exec('UPDATE classes SET location = ? WHERE id = ?', all.find((cl) => cl.id === 'cls_web_1').location, 'cls_web_1');

    const { filters } = unfiltered.body;
    const withClasses = [...new Set(all.map((cl) => cl.course_id))].sort();
    assert.deepEqual(filters.courses.map((c: Json) => c.id).sort(), withClasses);
    assert.ok(!filters.courses.some((c: Json) => c.id === 'crs_sprint'), 'a programme without upcoming classes is no choice');
    assert.deepEqual(
      filters.courses.find((c: Json) => c.id === 'crs_ts'),
      { id: 'crs_ts', title: 'TypeScript for teams' },
    );
    assert.deepEqual(filters.locations, [...new Set(all.map((cl) => cl.location))].sort());

    // An empty parameter (an unset attribute) filters nothing.
    assert.deepEqual((await calendar(`&month=${month}&course=&location=`)).body.classes, unfiltered.body.classes);
  });

  test('an empty month says which later month has classes; the last month with classes says null', async () => {
    const { classes: roles } = await seed();
    const all = await upcoming();
    const of = (id: string) => all.find((cl) => cl.id === id);
    const before = of(roles.last_before_gap);
    const after = of(roles.first_after_gap);
    const gapMonth = addMonths(monthIn(Date.parse(before.starts_at), before.timezone), 1);
    const afterMonth = monthIn(Date.parse(after.starts_at), after.timezone);

    const empty = await calendar(`&month=${gapMonth}`);
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body.classes, []);
    assert.equal(empty.body.next_month, afterMonth);
    assert.ok(empty.body.filters.courses.length > 0, 'the filters still show');

    // With a filter, the next month is the next one holding a class that matches it.
    const lastData = all.filter((cl) => cl.course_id === 'crs_data').at(-1);
    assert.equal(
      (await calendar(`&month=${gapMonth}&course=crs_data`)).body.next_month,
      monthIn(Date.parse(lastData.starts_at), lastData.timezone),
    );
    const last = all.sort((a, b) => a.starts_at.localeCompare(b.starts_at)).at(-1);
    const lastMonth = monthIn(Date.parse(last.starts_at), last.timezone);
    const end = await calendar(`&month=${lastMonth}`);
    assert.ok(end.body.classes.some((cl: Json) => cl.id === last.id));
    assert.equal(end.body.next_month, null);

    // A month long past holds nothing (only upcoming classes are shown) and points to this month's classes.
    const past = await calendar('&month=2000-01');
    assert.deepEqual(past.body.classes, []);
    const first = all[0];
    assert.equal(past.body.next_month, monthIn(Date.parse(first.starts_at), first.timezone));
  });

  test('a bad month or place is 422 saying the format; an unknown programme 404 course-not-found', async () => {
    for (const month of ['2026-13', '2026-1', '26-01', '2026/01', '1999-12', '2101-01', 'december']) {
      const res = await calendar(`&month=${month}`);
      assert.equal(res.status, 422, month);
      assert.equal(res.body.error.code, 'validation');
      assert.match(res.body.error.fields.month, /YYYY-MM/);
    }
    assert.equal((await calendar('&month=2100-12')).status, 200);
    const long = await calendar(`&location=${'x'.repeat(201)}`);
    assert.equal(long.status, 422);
    assert.match(long.body.error.fields.location, /at most 200/);

    const unknown = await calendar('&course=crs_nope');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'course-not-found');
    assert.equal((await calendar('&course=crs_gx_safety')).body.error.code, 'course-not-found', 'another company’s programme');
  });

  test('days: each day of the month with classes, its count and its first two programmes by start; a day’s classes and a page on their own', async () => {
    const all = await upcoming();
    const month = monthIn(Date.parse(all.find((cl) => cl.id === 'cls_web_1').starts_at), 'Europe/Berlin');
    const res = await calendar(`&month=${month}`);
    assert.equal(res.body.page, 1);
    assert.equal(res.body.classes_total, res.body.classes.length, 'the seed’s month is one page');
    const byDay = new Map<string, Json[]>();
    for (const cl of res.body.classes) byDay.set(cl.local_date, [...(byDay.get(cl.local_date) ?? []), cl]);
    assert.deepEqual(
      res.body.days,
      [...byDay].map(([date, held]) => ({
        date,
        classes: held.length,
        titles: held.slice(0, 2).map((cl) => cl.course_title),
      })),
    );
    const [date, held] = [...byDay][0]!;
    const day = await calendar(`&month=${month}&day=${date}`);
    assert.deepEqual(
      day.body.classes.map((cl: Json) => cl.id),
      held.map((cl) => cl.id),
    );
    assert.equal(day.body.classes_total, held.length);
    assert.deepEqual(day.body.days, res.body.days, 'the month’s days, whatever the day');
    const beyond = await calendar(`&month=${month}&page=2`);
    assert.equal(beyond.status, 200);
    assert.deepEqual(beyond.body.classes, []);
    assert.equal(beyond.body.classes_total, res.body.classes_total);
  });

  test('a day that is not one of the month’s, or a page that is not a whole number from 1, is 422 saying how to write it', async () => {
    for (const day of ['2026-12-32', '2026-02-30', '2026-1-01', 'tomorrow', '2027-01-01']) {
      const res = await calendar(`&month=2026-12&day=${day}`);
      assert.equal(res.status, 422, day);
      assert.match(res.body.error.fields.day, /day of the month asked for, as YYYY-MM-DD \(for example 2026-12-01\)/);
    }
    for (const page of ['0', '-1', '1.5', 'two', '9999999']) {
      const res = await calendar(`&month=2026-12&page=${page}`);
      assert.equal(res.status, 422, page);
      assert.match(res.body.error.fields.page, /whole number from 1/);
    }
    assert.equal((await calendar('&month=2026-12&day=2026-12-31&page=3')).status, 200);
  });

  test('the key checks come first, in the documented order', async () => {
    const cases: [string, Record<string, string>, number, string][] = [
      ['/widget-api/v1/calendar', {}, 400, 'missing-key'],
      ['/widget-api/v1/calendar?key=wk_nope', {}, 401, 'invalid-key'],
      ['/widget-api/v1/calendar?key=wk_demo_calendar&month=bad', { Origin: FOREIGN_PAGE }, 403, 'origin-not-allowed'],
      ['/widget-api/v1/calendar?key=wk_demo_registration&month=bad', {}, 403, 'type-mismatch'],
    ];
    for (const [path, headers, status, code] of cases) {
      const res = await svc.json(path, { headers });
      assert.equal(res.status, status, path);
      assert.equal(res.body.error.code, code, path);
    }
  });
});

describe('GET /widget-api/v1/calendar.ics', () => {
  const ics = (query: string, headers: Record<string, string> = {}) =>
    svc.fetch(`/widget-api/v1/calendar.ics?${query}`, { headers });

  /** The file's content lines, unfolded, after checking its line endings and folding. */
  const unfold = (text: string) => {
    assert.ok(text.endsWith('\r\n'));
    assert.doesNotMatch(text.replace(/\r\n/g, ''), /[\r\n]/, 'CRLF line endings only');
    for (const line of text.split('\r\n')) assert.ok(Buffer.byteLength(line) <= 75, `folded at 75 octets: ${line}`);
    return text
      .replace(/\r\n[ \t]/g, '')
      .split('\r\n')
      .slice(0, -1);
  };
  type Component = { name: string; props: [string, string][]; children: Component[] };
  const parse = (lines: string[]): Component => {
    const root: Component = { name: 'ROOT', props: [], children: [] };
    const stack = [root];
    for (const line of lines) {
      const at = line.indexOf(':');
      const [name, value] = [line.slice(0, at), line.slice(at + 1)];
      if (name === 'BEGIN') {
        const child = { name: value, props: [], children: [] };
        stack.at(-1)!.children.push(child);
        stack.push(child);
      } else if (name === 'END') assert.equal(stack.pop()!.name, value, 'components nest');
      else stack.at(-1)!.props.push([name, value]);
    }
    assert.equal(stack.length, 1);
    return root.children[0]!;
  };
  const prop = (c: Component, name: string) => c.props.find(([n]) => n === name || n.startsWith(`${name};`));
  /** The UTC instant of a local DATE-TIME in the file's VTIMEZONE of that zone. */
  const instant = (calendar: Component, tzid: string, local: string) => {
    const zone = calendar.children.find((c) => c.name === 'VTIMEZONE' && prop(c, 'TZID')![1] === tzid);
    assert.ok(zone, `a VTIMEZONE for ${tzid}`);
    const asUtc = (v: string) =>
      Date.UTC(+v.slice(0, 4), +v.slice(4, 6) - 1, +v.slice(6, 8), +v.slice(9, 11), +v.slice(11, 13), +v.slice(13, 15));
    const minutes = (o: string) => (o[0] === '-' ? -1 : 1) * (Number(o.slice(1, 3)) * 60 + Number(o.slice(3, 5)));
    // The observance in force: the last one that started before this local time.
    const observances = zone!.children
      .map((o) => ({ start: asUtc(prop(o, 'DTSTART')![1]), to: minutes(prop(o, 'TZOFFSETTO')![1]) }))
      .sort((a, b) => a.start - b.start);
    const inForce = observances.filter((o) => o.start <= asUtc(local)).at(-1)!;
    return asUtc(local) - inForce.to * 60_000;
  };

  test('one VEVENT per class in its venue’s time zone, with a correct VTIMEZONE per zone, as an attachment', async () => {
    const all = await upcoming();
    const ids = ['cls_lead_2', 'cls_web_1', 'cls_data_3', 'cls_lead_3'];
    // A navigation from another site (a plain link) sends no Origin: the file still comes.
    const res = await ics(`key=wk_demo_calendar&classes=${ids.join(',')}`, {
      'Sec-Fetch-Site': 'cross-site',
      'Sec-Fetch-Mode': 'navigate',
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/calendar; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="classes.ics"');
    const cal = parse(unfold(await res.text()));
    assert.equal(cal.name, 'VCALENDAR');
    assert.equal(prop(cal, 'VERSION')![1], '2.0');
    assert.ok(prop(cal, 'PRODID'));

    const events = cal.children.filter((c) => c.name === 'VEVENT');
    assert.equal(events.length, ids.length);
    const zones = cal.children.filter((c) => c.name === 'VTIMEZONE').map((z) => prop(z, 'TZID')![1]);
    assert.deepEqual(zones.sort(), ['Europe/Berlin', 'Europe/London', 'Europe/Vienna']);
    for (const event of events) {
      const uid = prop(event, 'UID')![1];
      const cls = all.find((cl) => uid.startsWith(`${cl.id}@`));
      assert.ok(cls, uid);
      assert.match(prop(event, 'DTSTAMP')![1], /^\d{8}T\d{6}Z$/);
      const [startName, startValue] = prop(event, 'DTSTART')!;
      assert.equal(startName, `DTSTART;TZID=${cls.timezone}`);
      assert.equal(instant(cal, cls.timezone, startValue), Date.parse(cls.starts_at), `${cls.id} starts right`);
      const [endName, endValue] = prop(event, 'DTEND')!;
      assert.equal(endName, `DTEND;TZID=${cls.timezone}`);
      assert.equal(instant(cal, cls.timezone, endValue), Date.parse(cls.ends_at), `${cls.id} ends right`);
      assert.equal(prop(event, 'LOCATION')![1], cls.location.replace(/,/g, '\\,'), 'text escaped');
    }
    const lead = events.find((e) => prop(e, 'UID')![1].startsWith('cls_lead_2@'))!;
    assert.equal(prop(lead, 'SUMMARY')![1], 'Leading remote teams');
    // The same class has the same UID in every file.
    const again = parse(unfold(await (await ics('key=wk_demo_checkout&classes=cls_lead_2')).text()));
    assert.equal(
      prop(
        again.children.find((c) => c.name === 'VEVENT')!,
        'UID',
      )![1],
      prop(lead, 'UID')![1],
    );
  });

  test('a Chicago class across a change of daylight saving time; text escaping and folding of long values', async () => {
    // The Globex class moved to the Sunday after the US clocks went back, and a place that needs escaping.
    const at = new Date(await now());
    const year = at.getUTCMonth() >= 10 ? at.getUTCFullYear() + 1 : at.getUTCFullYear();
    // 15:00 UTC on 15 November: 09:00 CST, after the first Sunday of November.
    const start = Date.UTC(year, 10, 15, 15);
    const place = 'Springfield; Hall 2, "Room \\ 7"\nback entrance, ' + 'Evergreen Terrace '.repeat(6);
    await svc.exec(
      'UPDATE classes SET starts_at = ?, ends_at = ?, location = ? WHERE id = ?',
      start,
      start + 3 * 3_600_000,
      place,
      'cls_gx_sheets_1',
    );
    const cal = parse(unfold(await (await ics('key=wk_globex_checkout&classes=cls_gx_sheets_1')).text()));
    const event = cal.children.find((c) => c.name === 'VEVENT')!;
    assert.equal(prop(event, 'DTSTART')![1], `${year}1115T090000`);
    assert.equal(instant(cal, 'America/Chicago', prop(event, 'DTSTART')![1]), start);
    assert.equal(
      prop(event, 'LOCATION')![1],
      'Springfield\\; Hall 2\\, "Room \\\\ 7"\\nback entrance\\, ' + 'Evergreen Terrace '.repeat(6),
    );
    const zone = cal.children.find((c) => c.name === 'VTIMEZONE')!;
    assert.ok(zone.children.some((o) => o.name === 'DAYLIGHT' && prop(o, 'TZOFFSETTO')![1] === '-0500'));
    assert.ok(zone.children.some((o) => o.name === 'STANDARD' && prop(o, 'TZOFFSETTO')![1] === '-0600'));
  });

  test('takes calendar, checkout and registration keys; the classes must be the company’s, at most 20', async () => {
    const cases: [string, Record<string, string>, number, string][] = [
      ['classes=cls_web_1', {}, 400, 'missing-key'],
      ['key=wk_demo_contact&classes=cls_web_1', {}, 403, 'type-mismatch'],
      ['key=wk_demo_calendar&classes=cls_web_1', { Origin: FOREIGN_PAGE }, 403, 'origin-not-allowed'],
      ['key=wk_demo_calendar', {}, 422, 'validation'],
      ['key=wk_demo_calendar&classes=cls_web_1,cls_nope', {}, 422, 'validation'],
      ['key=wk_demo_calendar&classes=cls_gx_safety_1', {}, 422, 'validation'],
      [`key=wk_demo_calendar&classes=${Array.from({ length: 21 }, (_, i) => `cls_${i}`).join(',')}`, {}, 422, 'validation'],
    ];
    for (const [query, headers, status, code] of cases) {
      const res = await ics(query, headers);
      assert.equal(res.status, status, query);
      const body = (await res.json()) as Json;
      assert.equal(body.error.code, code, query);
      if (status === 422) assert.ok(body.error.fields.classes.length > 20, body.error.fields.classes);
    }
    for (const key of ['wk_demo_checkout', 'wk_demo_registration'])
      assert.equal((await ics(`key=${key}&classes=cls_web_1`)).status, 200, key);
    const local = await ics('key=wk_demo_calendar&classes=cls_web_past,cls_web_1,cls_web_1', { Origin: LOCAL_PAGE });
    assert.equal(local.status, 200);
    assert.equal(local.headers.get('access-control-allow-origin'), LOCAL_PAGE);
    assert.equal((await local.text()).match(/BEGIN:VEVENT/g)!.length, 2, 'a class given twice is one event; past classes too');
  });
});
