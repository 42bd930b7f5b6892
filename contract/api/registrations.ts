/** A registration from the registration widget (docs/widget-api.md, `POST /registrations`). */
import { z } from 'zod';
import { CLASS_TEXT, PERSON_TEXT, consent, personEmail, phone, text } from './fields.ts';
import { named } from './registry.ts';
import { say } from './words.ts';
import { isoTime } from './common.ts';
import { ClassStatus } from './catalog.ts';

export const RegistrationRequest = named(
  'RegistrationRequest',
  z.strictObject({
    class_id: text(CLASS_TEXT).meta({ examples: ['cls_web_2'] }),
    first_name: text(PERSON_TEXT.first_name).meta({ examples: ['Ada'] }),
    last_name: text(PERSON_TEXT.last_name).meta({ examples: ['Lovelace'] }),
    email: personEmail(),
    phone: phone(),
    consent: consent(say('Agree to the terms to register.', 'Stimmen Sie den Bedingungen zu, um sich anzumelden.')),
  }),
);
export type RegistrationRequest = z.input<typeof RegistrationRequest>;

export const RegistrationStatus = z.enum(['confirmed', 'waitlisted']);

export const RegistrationResponse = named(
  'RegistrationResponse',
  z.object({
    registration: z.object({
      id: z.string().meta({ examples: ['reg_Jm3k9Q2xWb7TnA4e'] }),
      course_id: z.string(),
      class_id: z.string(),
      status: RegistrationStatus,
      created_at: isoTime(),
      cancel_until: isoTime().meta({
        description:
          'Until when the participant may cancel the place themselves, signed in (the profile widget): 24 hours before the class starts',
      }),
      calendar_url: z
        .string()
        .meta({ format: 'uri', description: 'The class as an iCalendar file (`.ics`), for “add to calendar”' }),
    }),
    class: z.object({ id: z.string(), seats_left: z.int().min(0), status: ClassStatus }),
  }),
);
export type RegistrationResponse = z.output<typeof RegistrationResponse>;
