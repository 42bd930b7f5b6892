/** The profile widget's calls: passwordless sign-in, the participant's area, changes, cancelling. */
import { z } from 'zod';
import { PERSON_TEXT, personEmail, phone, pin, returnUrl, text } from './fields.ts';
import { named } from './registry.ts';
import { say } from './words.ts';
import { isoTime } from './common.ts';
import { ParticipantOrder } from './checkout.ts';
import { RegistrationStatus } from './registrations.ts';
import { Widget } from './widget-keys.ts';

const SIGN_IN_PIN = say('Enter the 6 digits of the PIN from the email.', 'Geben Sie die 6 Ziffern der PIN aus der E-Mail ein.');

export const ParticipantLoginRequest = named(
  'ParticipantLoginRequest',
  z.strictObject({
    email: personEmail(),
    return_url: returnUrl('The page that holds the widget: an absolute http(s) URL whose origin the key serves', true),
  }),
);
export type ParticipantLoginRequest = z.input<typeof ParticipantLoginRequest>;

export const ParticipantVerifyRequest = named(
  'ParticipantVerifyRequest',
  z.strictObject({ email: personEmail(), pin: pin(SIGN_IN_PIN) }),
);
export type ParticipantVerifyRequest = z.input<typeof ParticipantVerifyRequest>;

export const Participant = named(
  'Participant',
  z.strictObject({
    id: z.string().meta({ examples: ['p_ada'] }),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string().meta({ format: 'email' }),
    phone: z.string().nullable(),
  }),
);
export type Participant = z.output<typeof Participant>;

export const ParticipantTokenResponse = named(
  'ParticipantTokenResponse',
  z.object({ token: z.string().meta({ examples: ['ptok_…'] }), participant: Participant }),
);
export type ParticipantTokenResponse = z.output<typeof ParticipantTokenResponse>;

export const EmailChange = named(
  'EmailChange',
  z
    .object({ email: z.string().meta({ format: 'email' }), expires_at: isoTime() })
    .nullable()
    .meta({ description: 'A new email waiting for its confirmation from that mailbox, or null' }),
);
export type EmailChange = z.output<typeof EmailChange>;

export const ParticipantResponse = named(
  'ParticipantResponse',
  z.object({ participant: Participant, email_change: EmailChange }),
);
export type ParticipantResponse = z.output<typeof ParticipantResponse>;

export const ParticipantConfirmEmailRequest = named(
  'ParticipantConfirmEmailRequest',
  z.strictObject({ pin: pin(SIGN_IN_PIN).meta({ description: 'The PIN of the email sent to the new address' }) }),
);
export type ParticipantConfirmEmailRequest = z.input<typeof ParticipantConfirmEmailRequest>;

export const ParticipantRegistration = named(
  'ParticipantRegistration',
  z.object({
    id: z.string(),
    status: RegistrationStatus,
    course: z.object({ id: z.string(), title: z.string() }),
    class: z.object({
      id: z.string(),
      starts_at: isoTime(),
      ends_at: isoTime(),
      timezone: z.string().meta({ examples: ['Europe/Berlin'] }),
      location: z.string(),
    }),
    past: z.boolean().meta({ description: 'The class has started (by the service clock)' }),
    cancellable: z.boolean().meta({ description: 'Upcoming and before `cancel_until`' }),
    cancel_until: isoTime().meta({ description: '24 hours before the class starts' }),
  }),
);
export type ParticipantRegistration = z.output<typeof ParticipantRegistration>;

export const ParticipantMeResponse = named(
  'ParticipantMeResponse',
  z.object({
    widget: Widget,
    participant: Participant,
    email_change: EmailChange,
    registrations: z.array(ParticipantRegistration).meta({
      description: 'Registrations of their own (not the seats of orders, which `orders` lists)',
    }),
    orders: z.array(ParticipantOrder).meta({ description: 'The participant’s orders, newest first' }),
  }),
);
export type ParticipantMeResponse = z.output<typeof ParticipantMeResponse>;

export const ParticipantProfileRequest = named(
  'ParticipantProfileRequest',
  z.strictObject({
    first_name: text(PERSON_TEXT.first_name)
      .optional()
      .meta({ examples: ['Augusta Ada'] }),
    last_name: text(PERSON_TEXT.last_name)
      .optional()
      .meta({ examples: ['King'] }),
    email: personEmail().optional(),
    phone: phone(),
    return_url: returnUrl(
      'The page that holds the widget (a page the key serves): a new email’s confirmation link opens it',
      false,
    )
      .nullable()
      .optional(),
  }),
);
export type ParticipantProfileRequest = z.input<typeof ParticipantProfileRequest>;

export const CancelResponse = named(
  'CancelResponse',
  z.object({ registration: z.object({ id: z.string(), status: z.literal('cancelled') }) }),
);
export type CancelResponse = z.output<typeof CancelResponse>;
