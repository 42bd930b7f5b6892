/** Small checks shared by the APIs' body validation. */
import type { FieldErrors } from './errors.ts';

export const EMAIL =
  /^[^\s@"<>(),;:\\]{1,64}@(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;

export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** A field message for every name not in `allowed`. */
export function unknownFields(body: Record<string, unknown>, allowed: readonly string[]): FieldErrors {
  const fields: FieldErrors = {};
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
export const CONTROL_CHARS_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * A trimmed text field, or a message in `fields[name]`. `label` starts a sentence
 * ("First name"); `missing` says what to enter.
 */
export function textField(
  body: Record<string, unknown>,
  name: string,
  fields: FieldErrors,
  opts: { label: string; max: number; missing: string; min?: number; tooShort?: string; multiline?: boolean },
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
  first_name: { label: 'First name', max: 100, missing: 'Enter your first name.' },
  last_name: { label: 'Last name', max: 100, missing: 'Enter your last name.' },
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
