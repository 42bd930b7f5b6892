/** Small checks shared by the APIs' body validation. */
import { newFieldErrors, type FieldErrors } from './errors.ts';

export const EMAIL =
  /^[^\s@"<>(),;:\\\p{C}]{1,64}@(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/iu;

export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Characters that change the direction of the text around them (embeddings, overrides, isolates):
 * `Ada\u202Egnp.exe` shows as "Adaexe.png". Nobody types them into a form field.
 */
export const DIRECTION_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

/** A letter or digit of any script: what makes text visible, where invisible characters do not. */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
const LETTER = /\p{L}/u;

/** A field message for every name not in `allowed`, in a set of messages that a field named `__proto__` cannot subvert. */
export function unknownFields(body: Record<string, unknown>, allowed: readonly string[]): FieldErrors {
  const fields = newFieldErrors();
  for (const name of Object.keys(body)) {
    if (!allowed.includes(name)) {
      fields[name] = `Unknown field "${name}": remove it. Allowed: ${allowed.join(', ')}.`;
    }
  }
  return fields;
}

/** A trimmed, lower-cased email, or a message in `fields[name]`. */
export function emailField(
  body: Record<string, unknown>,
  name: string,
  fields: FieldErrors,
  missing = 'Enter your email address.',
): string | undefined {
  const value = body[name];
  if (value === undefined || value === null || value === '') fields[name] = missing;
  else if (typeof value !== 'string') fields[name] = `${name} must be text (a JSON string).`;
  else if (value.trim().length > 254 || !EMAIL.test(value.trim())) {
    fields[name] = 'Enter a valid email address, like name@example.org.';
  } else return value.trim().toLowerCase();
  return undefined;
}

/** Control characters other than line breaks and tabs (which a message may hold). */
export const CONTROL_CHARS_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * A trimmed text field, or a message in `fields[name]`. `label` starts a sentence
 * ("First name"); `missing` says what to enter. Text must show something (not only invisible
 * characters), a `name` must hold a letter, and no text may hold direction controls.
 */
export function textField(
  body: Record<string, unknown>,
  name: string,
  fields: FieldErrors,
  opts: {
    label: string;
    max: number;
    missing: string;
    min?: number;
    tooShort?: string;
    multiline?: boolean;
    /** A person's name: at least one letter. */
    name?: boolean;
  },
): string | undefined {
  const value = body[name];
  const label = opts.label.toLowerCase();
  if (value === undefined || value === null) {
    fields[name] = opts.missing;
    return undefined;
  }
  if (typeof value !== 'string') {
    fields[name] = `${opts.label} must be text (a JSON string).`;
    return undefined;
  }
  const trimmed = value.trim();
  if (trimmed === '') fields[name] = opts.missing;
  else if (trimmed.length < (opts.min ?? 1)) {
    fields[name] = opts.tooShort ?? `Write at least ${opts.min} characters in ${label}.`;
  } else if (trimmed.length > opts.max) fields[name] = `Shorten ${label} to at most ${opts.max} characters.`;
  else if ((opts.multiline ? CONTROL_CHARS_BUT_LINES : CONTROL_CHARS).test(trimmed)) {
    fields[name] = `Remove the control characters from ${label}.`;
  } else if (DIRECTION_CONTROLS.test(trimmed)) {
    fields[name] = `Remove the invisible characters that change the text direction from ${label}.`;
  } else if (!(opts.name ? LETTER : VISIBLE).test(trimmed)) {
    fields[name] = opts.name ? `${opts.label} needs at least one letter.` : opts.missing;
  } else return trimmed;
  return undefined;
}

const PHONE = /^[+0-9 ()\-./]+$/;

/** An optional phone number: `null` when absent, `null` or `""` (no phone), or at fault. */
export function phoneField(body: Record<string, unknown>, name: string, fields: FieldErrors): string | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    fields[name] = 'Phone must be text (a JSON string).';
    return null;
  }
  const trimmed = value.trim();
  if (trimmed.length > 40) fields[name] = 'Shorten the phone number to at most 40 characters.';
  else if (trimmed !== '' && !PHONE.test(trimmed)) {
    fields[name] = 'Use digits, spaces and + ( ) - . / only in the phone number.';
  } else return trimmed === '' ? null : trimmed;
  return null;
}

/** The rules of a person's name, email and phone: the registration form's, and the profile's. */
export const PERSON_TEXT = {
  first_name: { label: 'First name', max: 100, missing: 'Enter your first name.', name: true },
  last_name: { label: 'Last name', max: 100, missing: 'Enter your last name.', name: true },
  email: { label: 'Email', max: 254, missing: 'Enter your email address.' },
} as const;

/** A trimmed, lower-cased email with the registration form's messages, or a message in `fields`. */
export function personEmail(body: Record<string, unknown>, fields: FieldErrors, name = 'email'): string | undefined {
  const email = textField(body, name, fields, PERSON_TEXT.email);
  if (email !== undefined && !EMAIL.test(email)) {
    fields[name] = 'Enter a valid email address, like name@example.org.';
    return undefined;
  }
  return email?.toLowerCase();
}
