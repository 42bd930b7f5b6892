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
          'Every programme and every place that has upcoming classes, whatever the filters: what the visitor may filter by',
      }),
    classes: z.array(CalendarClass).meta({
      description: 'The upcoming classes that start in the month (by their venue’s date) and match the filters, by start',
    }),
    next_month: z
      .string()
      .regex(MONTH)
      .nullable()
      .meta({ description: 'The first month after `month` that holds a matching upcoming class, or null' }),
  }),
);
export type CalendarResponse = z.output<typeof CalendarResponse>;
