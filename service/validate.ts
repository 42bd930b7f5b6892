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
