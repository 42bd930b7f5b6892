/**
 * One error shape for every API answer:
 * `{ "error": { "code": "validation", "message": "...", "fields": { "email": "..." } } }`.
 * Handlers throw `ApiError`; the app's error handler turns it into that body. Anything else that
 * escapes a handler is a bug and answers 500 `internal` (and is logged).
 */
export type FieldErrors = Record<string, string>;

/**
 * An empty set of field messages with no prototype: a field named `__proto__` in a request becomes
 * a message like any other instead of replacing the object's prototype (and vanishing).
 */
export const newFieldErrors = (): FieldErrors => Object.create(null) as FieldErrors;

export interface ErrorBody {
  error: { code: string; message: string; fields?: FieldErrors; [extra: string]: unknown };
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: FieldErrors | undefined;
  /** Extra response headers (`Allow`, `Retry-After`, ...). */
  readonly headers: Record<string, string>;
  /** Extra members of the `error` object (`attempts_left`). */
  readonly extra: Record<string, unknown>;

  constructor(
    status: number,
    code: string,
    message: string,
    fields?: FieldErrors,
    headers: Record<string, string> = {},
    extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields && Object.keys(fields).length > 0 ? fields : undefined;
    this.headers = headers;
    this.extra = extra;
  }

  toBody(): ErrorBody {
    return errorBody(this.code, this.message, this.fields, this.extra);
  }
}

export function errorBody(code: string, message: string, fields?: FieldErrors, extra: Record<string, unknown> = {}): ErrorBody {
  return fields && Object.keys(fields).length > 0
    ? { error: { code, message, fields, ...extra } }
    : { error: { code, message, ...extra } };
}

/** A 422 whose message names the fault when there is one, and counts them otherwise. */
export function validationError(fields: FieldErrors): ApiError {
  const entries = Object.values(fields);
  const message = entries.length === 1 ? entries[0]! : `${entries.length} fields need attention: see "fields".`;
  return new ApiError(422, 'validation', message, fields);
}

export function notFound(message = 'Nothing here. Check the path and the method.'): ApiError {
  return new ApiError(404, 'not-found', message);
}

export function methodNotAllowed(allow: string[]): ApiError {
  return new ApiError(405, 'method-not-allowed', `This path accepts ${allow.join(', ')} only.`, undefined, {
    Allow: allow.join(', '),
  });
}
