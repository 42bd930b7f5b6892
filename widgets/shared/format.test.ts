/**
 * The one rule for a class's times in every widget: the venue's time zone, named by its offset, the
 * same in English and German ("GMT+1"; not "GMT+1" here, "MEZ" there and "Berlin time" in the calendar).
 */
import { expect } from '@open-wc/testing';
import { formatDateRange } from './format.ts';

describe('formatDateRange', () => {
  it('names the venue’s zone by its offset, the same in English and German, in winter and summer', () => {
    const winter = ['2026-12-01T09:00:00Z', '2026-12-01T16:00:00Z'] as const;
    const summer = ['2026-07-01T09:00:00Z', '2026-07-01T16:00:00Z'] as const;
    expect(formatDateRange('en', ...winter, 'Europe/Berlin')).to.equal('Tue, Dec 1, 2026, 10:00 AM – 5:00 PM GMT+1');
    expect(formatDateRange('de', ...winter, 'Europe/Berlin')).to.equal('Di., 1. Dez. 2026, 10:00–17:00 Uhr GMT+1');
    expect(formatDateRange('en', ...summer, 'Europe/Vienna')).to.match(/ GMT\+2$/);
    expect(formatDateRange('de', ...summer, 'Europe/Vienna')).to.match(/ GMT\+2$/);
    expect(formatDateRange('en', ...winter, 'Europe/London')).to.equal('Tue, Dec 1, 2026, 9:00 AM – 4:00 PM GMT+0');
    expect(formatDateRange('de', ...winter, 'Europe/London')).to.equal('Di., 1. Dez. 2026, 09:00–16:00 Uhr GMT+0');
    expect(formatDateRange('en', ...winter, 'America/Chicago')).to.equal('Tue, Dec 1, 2026, 3:00 – 10:00 AM GMT-6');
  });

  it('leaves the date out when asked (the calendar lists a day’s times under its date)', () => {
    expect(formatDateRange('en', '2026-12-01T09:00:00Z', '2026-12-01T16:00:00Z', 'Europe/Berlin', { hour: 'numeric' })).to.equal(
      '10:00 AM – 5:00 PM GMT+1',
    );
    expect(formatDateRange('de', '2026-12-01T09:00:00Z', '2026-12-01T16:00:00Z', 'Europe/Berlin', { hour: 'numeric' })).to.equal(
      '10:00–17:00 Uhr GMT+1',
    );
  });
});
