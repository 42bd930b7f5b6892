/** The contact widget's form and its message (docs/widget-api.md, "Contact messages"). */
import { z } from 'zod';
import { consent, personEmail, text, typeError } from './fields.ts';
import { named } from './registry.ts';
import { say } from './words.ts';
import { isoTime } from './common.ts';

/**
 * A form sent sooner than this after it was shown is a robot's: a person, even with autofill, needs
 * longer. The widget sends a too-early form again once this has passed, so a quick person is never
 * refused (docs/widget-api.md).
 */
export const CONTACT_MIN_FILL_MS = 1500;
export const CONTACT_LIMITS = {
  name: 100,
  subject: 150,
  messageMin: 10,
  messageMax: 5000,
  topic: 100,
  website: 1000,
  formToken: 200,
} as const;

const MISSING_TOKEN = 'The form token is missing: reload the form (it comes with the widget) and send again.';
export const INVALID_TOKEN = say(
  'The form token is not valid for this form: reload the form and send again.',
  'Dieses Formular gilt nicht mehr: Laden Sie die Seite neu und senden Sie erneut.',
);

export const ContactForm = named(
  'ContactForm',
  z
    .object({
      token: z.string().meta({ description: 'Send it back as `form_token`' }),
      min_fill_ms: z.literal(CONTACT_MIN_FILL_MS),
    })
    .meta({ description: 'Contact widgets: proof of when the form was first shown' }),
);
export type ContactForm = z.output<typeof ContactForm>;

const L = CONTACT_LIMITS;
export const ContactMessageRequest = named(
  'ContactMessageRequest',
  z.strictObject({
    name: text({
      label: 'Name',
      max: L.name,
      missing: 'Enter your name.',
      name: true,
      de: { label: 'Name', missing: 'Geben Sie Ihren Namen ein.' },
    }).meta({ examples: ['Ada Lovelace'] }),
    email: personEmail(),
    subject: text({
      label: 'Subject',
      max: L.subject,
      missing: 'Enter a subject: what is your message about?',
      de: { label: 'Betreff', missing: 'Geben Sie einen Betreff ein: Worum geht es in Ihrer Nachricht?' },
    }).meta({
      examples: ['A question about a programme'],
    }),
    topic: z
      .string({ error: 'Topic must be text (a JSON string).' })
      .max(L.topic, 'Choose one of the form’s topics (each is at most 100 characters).')
      .nullable()
      .optional()
      .meta({ description: 'One of `widget.options.topics` when the widget has any; none otherwise', examples: ['Programmes'] }),
    message: text({
      label: 'Message',
      min: L.messageMin,
      max: L.messageMax,
      missing: 'Write your message.',
      tooShort: `Write at least ${L.messageMin} characters in your message.`,
      multiline: true,
      de: {
        label: 'Nachricht',
        missing: 'Schreiben Sie Ihre Nachricht.',
        tooShort: `Schreiben Sie mindestens ${L.messageMin} Zeichen in Ihre Nachricht.`,
      },
    }).meta({ examples: ['Which programme suits a beginner?'] }),
    consent: consent(
      say(
        'Agree that we store your message to answer it.',
        'Stimmen Sie zu, dass wir Ihre Nachricht speichern, um sie zu beantworten.',
      ),
    ),
    website: z
      .string({ error: 'Leave website empty: it is not a field for people.' })
      .max(L.website, 'Leave website empty: it is not a field for people.')
      .nullable()
      .optional()
      .meta({ description: 'The honeypot: a person never sees it, and it stays empty', examples: [''] }),
    form_token: z
      .string({ error: typeError(MISSING_TOKEN, MISSING_TOKEN) })
      .min(1, MISSING_TOKEN)
      .max(L.formToken, INVALID_TOKEN)
      .meta({ description: '`form.token` of the first render' }),
  }),
);
export type ContactMessageRequest = z.input<typeof ContactMessageRequest>;

export const ContactMessageResponse = named(
  'ContactMessageResponse',
  z.object({
    message: z.object({ id: z.string().meta({ examples: ['msg_…'] }), created_at: isoTime() }),
    form: ContactForm,
  }),
);
export type ContactMessageResponse = z.output<typeof ContactMessageResponse>;
