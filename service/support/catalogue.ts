/**
 * The catalogue file of `npm run support -- catalogue import|export` (docs/service.md, "The catalogue
 * file"): a company's programmes with their classes and lecturers, places, vouchers and videos, so that
 * a new company's widgets have something to show. Ids are optional on import (new records get one)
 * and given on export; importing an export again changes nothing, and a record with the id of one of
 * the company's records updates it.
 */
import { z } from 'zod';
import { isTimeZone } from '../core/time-zones.ts';

const id = (prefix: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9_-]{1,60}$`), `An id is "${prefix}_" and up to 60 letters, digits, "_" or "-".`)
    .optional();
/** Control characters, and those that turn the writing direction around (`Evil\u202eTitle`), which no text may hold. */
export const UNSAFE_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const text = (max: number, what: string, { lines = false } = {}) =>
  z
    .string({ error: `${what} must be text.` })
    .trim()
    .min(1, `${what} must not be empty.`)
    .max(max, `${what} is at most ${max} characters.`)
    .refine((v) => !UNSAFE_CHARACTERS.test(v) && (lines || !/[\r\n\t]/.test(v)), {
      message: `${what} must be plain text${lines ? '' : ' on one line'}: no control characters, none that turn the writing direction around.`,
    });
const TIME_RULE = 'a time with its offset, such as 2027-03-01T09:00:00Z or 2027-03-01T10:00:00+01:00, between 2000 and 2100';
const time = (what: string) =>
  z.string({ error: `${what} must be ${TIME_RULE}.` }).refine((v) => {
    const at = Date.parse(v);
    return (
      /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(v) &&
      at >= Date.UTC(2000, 0, 1) &&
      at < Date.UTC(2100, 0, 1)
    );
  }, `${what} must be ${TIME_RULE}.`);
const currency = z.string().regex(/^[A-Z]{3}$/, 'A currency is its ISO 4217 code, such as EUR.');
/** Minor units (cents), at most a million in the currency's units. */
const MAX_AMOUNT = 100_000_000;
const email = z
  .string({ error: 'An email address, such as lena@acme.example.' })
  .trim()
  .toLowerCase()
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'An email address, such as lena@acme.example.');

const Lecturer = z.strictObject({
  email,
  first_name: text(100, 'first_name'),
  last_name: text(100, 'last_name'),
});

const CatalogueClass = z
  .strictObject({
    id: id('cls'),
    starts_at: time('starts_at'),
    ends_at: time('ends_at'),
    timezone: z
      .string({ error: 'timezone must be an IANA time zone, such as Europe/Berlin.' })
      .refine(isTimeZone, 'timezone must be an IANA time zone, such as Europe/Berlin.'),
    location: text(200, 'location'),
    price: z.strictObject(
      {
        amount: z
          .int('An amount is whole minor units (cents).')
          .min(0)
          .max(MAX_AMOUNT, `An amount is at most ${MAX_AMOUNT} minor units.`),
        currency,
      },
      { error: 'price must be { "amount": minor units (12000 for 120.00), "currency": "EUR" }.' },
    ),
    capacity: z.int({ error: 'capacity must be a whole number of seats.' }).min(1, 'capacity is at least 1.').max(10_000),
    waitlist: z
      .union([z.literal(false), z.strictObject({ capacity: z.int().min(1).nullable() })], {
        error: 'waitlist is false, or { "capacity": null } (no limit) or { "capacity": n }.',
      })
      .default(false),
    lecturers: z.array(Lecturer).max(20).default([]),
  })
  .refine((c) => Date.parse(c.ends_at) > Date.parse(c.starts_at), {
    message: 'ends_at must be after starts_at.',
    path: ['ends_at'],
  });

const Programme = z.strictObject({
  id: id('crs'),
  title: text(200, 'title'),
  summary: text(1000, 'summary', { lines: true }),
  category: text(100, 'category'),
  classes: z.array(CatalogueClass).max(1000).default([]),
});

const Place = z.strictObject({
  id: id('pl'),
  name: text(200, 'name'),
  /** The classes whose `location` is this text are held here. */
  location: text(200, 'location'),
  address: text(300, 'address').nullable().default(null),
  lat: z.number().min(-90).max(90).nullable().default(null),
  lng: z.number().min(-180).max(180).nullable().default(null),
});

const Voucher = z
  .strictObject({
    code: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9-]{1,40}$/, 'A code has letters, digits and hyphens (at most 40).'),
    percent: z.int().min(1).max(100).nullable().default(null),
    amount: z
      .strictObject({ amount: z.int().min(1), currency })
      .nullable()
      .default(null),
    /** Valid for this programme's classes only (its id in this file or the store). */
    programme: id('crs').nullable().default(null),
    expires_at: time('expires_at').nullable().default(null),
    max_uses: z.int().min(1).nullable().default(null),
  })
  .refine((v) => (v.percent === null) !== (v.amount === null), {
    message: 'A voucher gives either percent or amount, not both and not neither.',
    path: ['percent'],
  });

const Video = z.strictObject({
  id: id('vid'),
  title: text(200, 'title'),
  programme: id('crs').nullable().default(null),
  access: z.enum(['public', 'participants'], { error: 'access is "public" or "participants".' }),
  /** The files' base name in the service's media folder (`<media>.webm`, `.jpg`, `.<lang>.vtt`). */
  media: z.string().regex(/^[a-z0-9-]{1,60}$/, 'media is the base name of the files in the media folder, such as welcome.'),
  duration_s: z.int().min(1),
  width: z.int().min(1),
  height: z.int().min(1),
  captions: z.array(z.string().regex(/^[a-z]{2,3}$/)).default([]),
});

export const Catalogue = z
  .strictObject({
    programmes: z.array(Programme).max(500).default([]),
    places: z.array(Place).max(500).default([]),
    vouchers: z.array(Voucher).max(1000).default([]),
    videos: z.array(Video).max(500).default([]),
  })
  .superRefine((catalogue, ctx) => {
    // An id (or a voucher code) twice in one file: which one was meant?
    const once = (values: [string | undefined, (string | number)[]][], what: string) => {
      const seen = new Map<string, string>();
      for (const [value, path] of values) {
        if (value === undefined) continue;
        const key = value.toUpperCase();
        if (seen.has(key))
          ctx.addIssue({ code: 'custom', path, message: `${what} ${value} is in the file twice (first at ${seen.get(key)}).` });
        else seen.set(key, path.join('.'));
      }
    };
    once(
      catalogue.programmes.map((p, i) => [p.id, ['programmes', i, 'id']]),
      'The programme',
    );
    once(
      catalogue.programmes.flatMap((p, i) =>
        p.classes.map((c, j): [string | undefined, (string | number)[]] => [c.id, ['programmes', i, 'classes', j, 'id']]),
      ),
      'The class',
    );
    once(
      catalogue.places.map((p, i) => [p.id, ['places', i, 'id']]),
      'The place',
    );
    once(
      catalogue.videos.map((v, i) => [v.id, ['videos', i, 'id']]),
      'The video',
    );
    once(
      catalogue.vouchers.map((v, i) => [v.code, ['vouchers', i, 'code']]),
      'The voucher code',
    );
  });
export type Catalogue = z.output<typeof Catalogue>;
export type CatalogueInput = z.input<typeof Catalogue>;

/** Every fault of a catalogue file by its path (`programmes.0.classes.2.timezone`). */
export function catalogueProblems(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || '(the file)'}: ${issue.message}`);
}
