/** A class's status, in a module of its own: the places' schema takes it without importing the whole catalog. */
import { z } from 'zod';
import { isoTime } from './common.ts';

export const ClassStatus = z.enum(['open', 'waitlist', 'full']).meta({
  description: 'open: seats left; waitlist: full, waitlist open; full: neither',
});
export type ClassStatus = z.output<typeof ClassStatus>;

/**
 * A class with no seat left because orders waiting for their payment hold some: when the first of
 * those holds ends (its seats free again, unless that order is paid). Widgets say "seats held, try
 * again in N minutes" rather than "full".
 */
export const HeldUntil = isoTime().nullable().meta({
  description:
    'When no seat is left but orders waiting for their payment hold some: when the first hold ends (its seats free unless paid); null otherwise',
});
