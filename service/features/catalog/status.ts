/** A class's status, in a module of its own: the places' schema takes it without importing the whole catalog. */
import { z } from 'zod';

export const ClassStatus = z.enum(['open', 'waitlist', 'full']).meta({
  description: 'open: seats left; waitlist: full, waitlist open; full: neither',
});
export type ClassStatus = z.output<typeof ClassStatus>;
