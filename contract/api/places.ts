/** The map widget's first render: the company's places with their next classes (its tiles: widget-keys/schema.ts). */
import { z } from 'zod';
import { named } from './registry.ts';
import { isoTime } from './common.ts';
import { ClassStatus, HeldUntil } from './status.ts';

export const PlaceClass = named(
  'PlaceClass',
  z.object({
    id: z.string().meta({ examples: ['cls_web_1'] }),
    course: z.object({ id: z.string(), title: z.string() }),
    starts_at: isoTime(),
    ends_at: isoTime(),
    timezone: z.string().meta({ description: 'IANA time zone of the venue', examples: ['Europe/Berlin'] }),
    seats_left: z.int().min(0),
    status: ClassStatus,
    held_until: HeldUntil,
  }),
);
export type PlaceClass = z.output<typeof PlaceClass>;

export const Place = named(
  'Place',
  z.object({
    id: z.string().meta({ examples: ['pl_berlin'] }),
    name: z.string(),
    address: z.string().nullable().meta({ description: 'Null for a place that is on no map (online)' }),
    lat: z.number().min(-90).max(90).nullable(),
    lng: z.number().min(-180).max(180).nullable(),
    classes: z.array(PlaceClass).meta({ description: 'The next upcoming classes held here (at most 3), by start' }),
  }),
);
export type Place = z.output<typeof Place>;
