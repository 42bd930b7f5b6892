/**
 * One error shape for every API answer:
 * `{ "error": { "code": "validation", "message": "...", "fields": { "email": "..." } } }`.
 * Handlers throw `ApiError` (an HTTP refusal: a header, a method, a body) or let a store's `Refusal`
 * through; the app's error handler turns either into that body, a refusal's kind into its status.
 * Anything else that escapes a handler is a bug and answers 500 `internal` (and is logged).
 */
import { Refusal, invalid, newFieldErrors, type FieldErrors, type RefusalKind } from '../core/refusal.ts';
import { inLocale, type AnswerLocale } from '../../contract/api/words.ts';

export { newFieldErrors, type FieldErrors };

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

  /** The body, its messages in `locale` where they have its words (a visitor's: contract/api/words.ts). */
  toBody(locale: AnswerLocale = 'en'): ErrorBody {
    const fields = this.fields && Object.fromEntries(Object.entries(this.fields).map(([name, m]) => [name, inLocale(m, locale)]));
    return errorBody(this.code, inLocale(this.message, locale), fields, this.extra);
  }
}

/** The status of each kind of refusal. A PIN used up by wrong tries is 429 like a rate limit, without its Retry-After. */
const STATUS: Record<RefusalKind, number> = {
  invalid: 422,
  'not-found': 404,
  conflict: 409,
  unauthorized: 401,
  forbidden: 403,
  locked: 429,
  'too-many': 429,
};

/** A store's refusal as the HTTP answer it gets: its kind's status, and `Retry-After` when it says when to try again. */
export function refusalAnswer(refusal: Refusal): ApiError {
  const headers: Record<string, string> = refusal.retryAfter === undefined ? {} : { 'Retry-After': String(refusal.retryAfter) };
  return new ApiError(STATUS[refusal.kind], refusal.code, refusal.message, refusal.fields, headers, refusal.extra);
}

/** The HTTP answer of an error thrown by a handler, or undefined for a bug. */
export function answerOf(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof Refusal) return refusalAnswer(err);
  return undefined;
}

export function errorBody(code: string, message: string, fields?: FieldErrors, extra: Record<string, unknown> = {}): ErrorBody {
  return fields && Object.keys(fields).length > 0
    ? { error: { code, message, fields, ...extra } }
    : { error: { code, message, ...extra } };
}

/** A 422 whose message names the fault when there is one, and counts them otherwise. */
/** A widget API list's `page` (1 when absent), or NaN with `fields.page` saying how to write it. */
export function pageOf(raw: string | undefined, fields: FieldErrors): number {
  const page = /^\d{1,6}$/.test(raw ?? '1') ? Number(raw ?? '1') : NaN;
  if (!(page >= 1)) fields.page = 'page is a whole number from 1 (the first page), for example page=2.';
  return page;
}

export function validationError(fields: FieldErrors): ApiError {
  return refusalAnswer(invalid(fields));
}

export function notFound(message = 'Nothing here. Check the path and the method.'): ApiError {
  return new ApiError(404, 'not-found', message);
}

export function methodNotAllowed(allow: string[]): ApiError {
  return new ApiError(405, 'method-not-allowed', `This path accepts ${allow.join(', ')} only.`, undefined, {
    Allow: allow.join(', '),
  });
}
