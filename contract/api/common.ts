/** The answers every API shares: the error body, and a plain message. */
import { z } from 'zod';
import { named } from './registry.ts';

/** An ISO 8601 UTC time, as every answer writes times. */
export const isoTime = () => z.string().meta({ format: 'date-time', examples: ['2026-12-01T09:00:00.000Z'] });

export const ErrorResponse = named(
  'Error',
  z.strictObject({
    error: z.strictObject({
      code: z.string().meta({ examples: ['validation'] }),
      message: z.string().meta({ examples: ['Enter your first name.'] }),
      fields: z.record(z.string(), z.string()).optional(),
      attempts_left: z
        .int()
        .min(1)
        .max(4)
        .optional()
        .meta({ description: '`pin-wrong` only: wrong tries left before the PIN is locked' }),
      retry_after: z.int().min(1).optional().meta({ description: '`rate-limited` only: seconds to wait, as in `Retry-After`' }),
      retry_after_ms: z.int().min(1).optional().meta({ description: '`too-fast` only: milliseconds until the form may be sent' }),
      lines: z
        .array(
          z.strictObject({
            class_id: z.string(),
            seats_left: z.int().min(0),
            status: z.enum(['open', 'waitlist', 'full']),
            held_until: isoTime().nullable(),
          }),
        )
        .optional()
        .meta({ description: '`class-full` of an order only: the lines that have fewer seats left than ordered' }),
      course: z.object({ id: z.string(), title: z.string() }).nullable().optional().meta({
        description: '`participants-only` only: the programme whose participants the video is for (null: any of the company’s)',
      }),
      unpaid: z.boolean().optional().meta({
        description: '`participants-only` only: the participant holds a confirmed place there that is not paid yet',
      }),
      held_until: isoTime().optional().meta({
        description:
          '`class-full` of a registration only, when orders waiting for their payment hold the seats: when the first hold ends',
      }),
    }),
  }),
);
export type ErrorResponse = z.output<typeof ErrorResponse>;

export const MessageResponse = named('Message', z.strictObject({ message: z.string() }));
export type MessageResponse = z.output<typeof MessageResponse>;
