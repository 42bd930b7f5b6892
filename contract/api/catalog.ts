/** Programmes and classes as the widget API shows them (the REST API adds to a class). */
import { z } from 'zod';
import { named } from './registry.ts';
import { isoTime } from './common.ts';
import { ContactForm } from './contact.ts';
import { Place } from './places.ts';
import { Video } from './videos.ts';
import { Widget } from './widget-keys.ts';
import { ClassStatus, HeldUntil } from './status.ts';

export { ClassStatus, HeldUntil };

export const Money = named(
  'Money',
  z.object({
    amount: z.int().min(0).meta({ description: 'Minor units (cents)' }),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .meta({ examples: ['EUR'] }),
  }),
);

export const Class = named(
  'Class',
  z.object({
    id: z.string().meta({ examples: ['cls_web_1'] }),
    starts_at: isoTime(),
    ends_at: isoTime(),
    timezone: z.string().meta({ description: 'IANA time zone of the venue', examples: ['Europe/Berlin'] }),
    location: z.string(),
    price: Money,
    capacity: z.int().min(0),
    seats_left: z.int().min(0),
    waitlist: z.boolean().meta({ description: 'Whether the class takes a waitlist' }),
    status: ClassStatus,
    held_until: HeldUntil,
  }),
);
export type Class = z.output<typeof Class>;

export const Course = named(
  'Course',
  z.object({
    id: z.string().meta({ examples: ['crs_web'] }),
    title: z.string(),
    summary: z.string(),
    category: z.string(),
    classes: z.array(Class),
  }),
);
export type Course = z.output<typeof Course>;

export const WidgetResponse = named(
  'WidgetResponse',
  z.object({
    widget: Widget,
    courses: z.array(Course).optional().meta({
      description: 'For registration and calendar widgets: the first page of programmes (20), sorted by their next class',
    }),
    courses_total: z.int().min(0).optional().meta({
      description: 'With `courses`: how many programmes there are in all (`GET /courses` gives the pages after the first)',
    }),
    form: ContactForm.optional(),
    videos: z.array(Video).optional().meta({ description: 'For video widgets: the company’s videos, or the one asked for' }),
    places: z.array(Place).optional().meta({ description: 'For map widgets: the company’s places' }),
  }),
);
export type WidgetResponse = z.output<typeof WidgetResponse>;

/** `GET /courses`: a page of a registration or calendar key's programmes, or those matching a search. */
export const CoursesPage = named(
  'CoursesPage',
  z.object({
    courses: z.array(Course).meta({ description: 'This page (20 programmes at most), sorted by their next class' }),
    courses_total: z.int().min(0).meta({ description: 'How many programmes match, in all' }),
    page: z.int().min(1),
  }),
);
export type CoursesPage = z.output<typeof CoursesPage>;
