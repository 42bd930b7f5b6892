/** The calendar widget's month (docs/widget-api.md, "Calendar"). */
import { z } from 'zod';
import { named } from './registry.ts';
import { isoTime } from './common.ts';
import { Class } from './catalog.ts';
import { Widget } from './widget-keys.ts';

/** `2026-12`: a month as the calendar asks for it and answers it. */
export const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export const CalendarClass = named(
  'CalendarClass',
  Class.extend({
    course_id: z.string().meta({ examples: ['crs_web'] }),
    course_title: z.string(),
    local_date: z.string().meta({
      description: 'The day the class starts on in its venue’s time zone (`YYYY-MM-DD`): the day the calendar shows it on',
      examples: ['2026-12-01'],
    }),
    lecturers: z.array(z.object({ name: z.string().meta({ examples: ['Lena Lecturer'] }) })),
  }),
);
export type CalendarClass = z.output<typeof CalendarClass>;

export const CalendarDay = named(
  'CalendarDay',
  z.object({
    date: z.string().meta({ description: 'The day (`YYYY-MM-DD`), on the venues’ calendars', examples: ['2026-12-01'] }),
    classes: z
      .number()
      .int()
      .meta({ description: 'How many matching classes start on it', examples: [3] }),
    titles: z.array(z.string()).meta({
      description: 'The programmes of its first two classes, by start (what a month grid’s day shows)',
      examples: [['Web accessibility in practice', 'TypeScript for teams']],
    }),
  }),
);
export type CalendarDay = z.output<typeof CalendarDay>;

export const CalendarResponse = named(
  'CalendarResponse',
  z.object({
    widget: Widget,
    now: isoTime().meta({ description: 'The service’s time: the calendar’s “today”' }),
    month: z
      .string()
      .regex(MONTH)
      .meta({ description: 'The month shown (`YYYY-MM`)', examples: ['2026-12'] }),
    filters: z
      .object({
        courses: z.array(z.object({ id: z.string(), title: z.string() })),
        locations: z.array(z.string()),
      })
      .meta({
        description:
          'Every programme and every place that has upcoming classes, whatever the filters: what the visitor may filter by. A list of more than 50 is empty (the widget offers no choice of them)',
      }),
    days: z.array(CalendarDay).meta({
      description: 'Every day of the month with matching upcoming classes, by date, whatever `day` and `page`',
    }),
    classes: z.array(CalendarClass).meta({
      description:
        'Page `page` (20 to a page) of the upcoming classes that start in the month (by their venue’s date), or on `day`, and match the filters, by start',
    }),
    classes_total: z
      .number()
      .int()
      .meta({ description: 'How many classes the month (or `day`) holds in all', examples: [57] }),
    page: z
      .number()
      .int()
      .meta({ examples: [1] }),
    next_month: z
      .string()
      .regex(MONTH)
      .nullable()
      .meta({ description: 'The first month after `month` that holds a matching upcoming class, or null' }),
  }),
);
export type CalendarResponse = z.output<typeof CalendarResponse>;
