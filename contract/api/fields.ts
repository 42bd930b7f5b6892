/**
 * The field rules the request schemas are built from, each with messages that say how to fix the
 * fault: the same rule (and the same words) wherever a name, an email or a phone number is asked for.
 */
import { z } from 'zod';
import { say } from './words.ts';

export const EMAIL =
  /^[^\s@"<>(),;:\\\p{C}]{1,64}@(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/iu;

export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
/** Control characters other than line breaks and tabs (which a message may hold). */
export const CONTROL_CHARS_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Characters that change the direction of the text around them (embeddings, overrides, isolates):
 * `Ada\u202Egnp.exe` shows as "Adaexe.png". Nobody types them into a form field.
 */
export const DIRECTION_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

/** A letter or digit of any script: what makes text visible, where invisible characters do not. */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
const LETTER = /\p{L}/u;

/** `missing` for an absent or null value, `wrong` for any other value of the wrong type. */
const typeError = (missing: string, wrong: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? missing : wrong;

export interface TextRule {
  /** Starts a sentence ("First name"). */
  label: string;
  max: number;
  /** What to enter. */
  missing: string;
  min?: number;
  tooShort?: string;
  /** Line breaks and tabs allowed. */
  multiline?: boolean;
  /** A person's name: at least one letter. */
  name?: boolean;
  /** For a visitor in German (contract/api/words.ts): the label as the widget's form shows it, and what to enter. */
  de: { label: string; missing: string; tooShort?: string };
}

/**
 * Trimmed text. It must show something (not only invisible characters), a name must hold a letter,
 * and no text may hold control characters or direction controls. Faults in this order; each field
 * reports its first.
 */
export function text(rule: TextRule) {
  const label = rule.label.toLowerCase();
  const de = `„${rule.de.label}“`;
  const missing = say(rule.missing, rule.de.missing);
  let schema = z
    .string({ error: typeError(missing, `${rule.label} must be text (a JSON string).`) })
    .trim()
    .min(1, missing);
  if (rule.min !== undefined && rule.min > 1) {
    schema = schema.min(
      rule.min,
      say(
        rule.tooShort ?? `Write at least ${rule.min} characters in ${label}.`,
        rule.de.tooShort ?? `Schreiben Sie mindestens ${rule.min} Zeichen in ${de}.`,
      ),
    );
  }
  return schema
    .max(
      rule.max,
      say(`Shorten ${label} to at most ${rule.max} characters.`, `Kürzen Sie ${de} auf höchstens ${rule.max} Zeichen.`),
    )
    .refine(
      (v) => !(rule.multiline ? CONTROL_CHARS_BUT_LINES : CONTROL_CHARS).test(v),
      say(`Remove the control characters from ${label}.`, `Entfernen Sie die Steuerzeichen aus ${de}.`),
    )
    .refine(
      (v) => !DIRECTION_CONTROLS.test(v),
      say(
        `Remove the invisible characters that change the text direction from ${label}.`,
        `Entfernen Sie aus ${de} die unsichtbaren Zeichen, die die Schreibrichtung ändern.`,
      ),
    )
    .refine(
      (v) => (rule.name ? LETTER : VISIBLE).test(v),
      rule.name ? say(`${rule.label} needs at least one letter.`, `${de} braucht mindestens einen Buchstaben.`) : missing,
    );
}

const INVALID_EMAIL = say(
  'Enter a valid email address, like name@example.org.',
  'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.org.',
);

/** The rules of a person's name and email: the registration form's, the profile's and the contact form's. */
export const PERSON_TEXT = {
  first_name: {
    label: 'First name',
    max: 100,
    missing: 'Enter your first name.',
    name: true,
    de: { label: 'Vorname', missing: 'Geben Sie Ihren Vornamen ein.' },
  },
  last_name: {
    label: 'Last name',
    max: 100,
    missing: 'Enter your last name.',
    name: true,
    de: { label: 'Nachname', missing: 'Geben Sie Ihren Nachnamen ein.' },
  },
  email: {
    label: 'Email',
    max: 254,
    missing: 'Enter your email address.',
    de: { label: 'E-Mail', missing: 'Geben Sie Ihre E-Mail-Adresse ein.' },
  },
} as const;

/** The class a widget books: chosen in the widget, never typed. */
export const CLASS_TEXT: TextRule = {
  label: 'The class',
  max: 100,
  missing: 'Choose a class.',
  de: { label: 'Termin', missing: 'Wählen Sie einen Termin.' },
};

/** A person's email as a form asks for it: trimmed, lower-cased, with the form's messages. */
export const personEmail = () =>
  text(PERSON_TEXT.email)
    .refine((v) => EMAIL.test(v), INVALID_EMAIL)
    .transform((v) => v.toLowerCase())
    .meta({ format: 'email', examples: ['ada@example.org'] });

/** An email an API client sends (`login`, `email`): trimmed and lower-cased. */
export const apiEmail = (name: string, missing: string) =>
  z
    .string({ error: typeError(missing, `${name} must be text (a JSON string).`) })
    .trim()
    .min(1, missing)
    .max(254, INVALID_EMAIL)
    .refine((v) => EMAIL.test(v), INVALID_EMAIL)
    .transform((v) => v.toLowerCase())
    .meta({ format: 'email', examples: ['olivia.owner@acme.example'] });

/** An optional phone number: absent, `null` or `""` is no phone. */
export const phone = () =>
  z
    .string({ error: 'Phone must be text (a JSON string).' })
    .trim()
    .max(40, say('Shorten the phone number to at most 40 characters.', 'Kürzen Sie die Telefonnummer auf höchstens 40 Zeichen.'))
    .regex(
      /^[+0-9 ()\-./]*$/,
      say(
        'Use digits, spaces and + ( ) - . / only in the phone number.',
        'Die Telefonnummer darf nur Ziffern, Leerzeichen und + ( ) - . / enthalten.',
      ),
    )
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional()
    .meta({ examples: ['+49 30 1234567'] });

/** `true`, the only consent there is; `missing` is said (words.ts) for a visitor. */
export const consent = (missing: string) =>
  z.literal(true, {
    error: (issue) =>
      issue.input === undefined || issue.input === false || issue.input === null
        ? missing
        : 'Consent must be the JSON value true.',
  });

/** Six digits as a string; anything else is `message` (said in words.ts where a visitor types it). */
export const pin = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{6}$/, message)
    .meta({ examples: ['042917'] });

/** An absolute http(s) URL without user or password, at most `max` characters. */
export function httpUrl(value: string, max = 2000): URL | undefined {
  if (value.length > max) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password ? url : undefined;
}

const MISSING_RETURN_URL = 'Send return_url: the address of the page that holds the widget.';
const BAD_RETURN_URL =
  'return_url must be an absolute http(s) address of at most 2000 characters, like https://example.com/account.';

/** The page that holds the widget; whether the key serves it is checked against the key (by the route). */
export const returnUrl = (description: string, required: boolean) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? MISSING_RETURN_URL : 'return_url must be text (a JSON string).',
    })
    .refine((v) => !required || v !== '', MISSING_RETURN_URL)
    .max(2000, BAD_RETURN_URL)
    .refine((v) => v === '' || httpUrl(v) !== undefined, BAD_RETURN_URL)
    .meta({ format: 'uri', description, examples: ['http://localhost:5173/account'] });

export { typeError };
