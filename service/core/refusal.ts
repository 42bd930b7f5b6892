/**
 * What a store or a rule refuses, and why: a domain error that knows nothing of HTTP. Stores and
 * the shared modules throw it (or return it, where a count must commit first); the HTTP layer turns
 * its kind into a status and writes the one error body (http/errors.ts), so that a rule can be
 * called from a route, a job or a test alike.
 */
export type FieldErrors = Record<string, string>;

/**
 * An empty set of field messages with no prototype: a field named `__proto__` in a request becomes
 * a message like any other instead of replacing the object's prototype (and vanishing).
 */
export const newFieldErrors = (): FieldErrors => Object.create(null) as FieldErrors;

/**
 * - `invalid`: the request names something that cannot be (a field, a class that has started);
 * - `not-found`: no such record for this caller;
 * - `conflict`: the state does not allow it now (full, used, changed meanwhile);
 * - `unauthorized`: no valid credential (a token, a PIN);
 * - `forbidden`: a valid caller who may not;
 * - `locked`: a credential used up by wrong tries;
 * - `too-many`: a rate limit (with `retryAfter`).
 */
export type RefusalKind = 'invalid' | 'not-found' | 'conflict' | 'unauthorized' | 'forbidden' | 'locked' | 'too-many';

export class Refusal extends Error {
  readonly kind: RefusalKind;
  /** The answer's `error.code` (`class-full`, `pin-wrong`, ...). */
  readonly code: string;
  /** A message per field at fault, by the field's path in the request. */
  readonly fields: FieldErrors | undefined;
  /** More members of the error object (`attempts_left`, `lines`, `retry_after`). */
  readonly extra: Record<string, unknown>;
  /** Seconds until trying again may succeed: a rate limit's `Retry-After`. */
  readonly retryAfter: number | undefined;

  constructor(
    kind: RefusalKind,
    code: string,
    message: string,
    opts: { fields?: FieldErrors; extra?: Record<string, unknown>; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = 'Refusal';
    this.kind = kind;
    this.code = code;
    this.fields = opts.fields && Object.keys(opts.fields).length > 0 ? opts.fields : undefined;
    this.extra = opts.extra ?? {};
    this.retryAfter = opts.retryAfter;
  }
}

/** `validation`, with a message that names the fault when there is one and counts them otherwise. */
export function invalid(fields: FieldErrors): Refusal {
  const entries = Object.values(fields);
  const message = entries.length === 1 ? entries[0]! : `${entries.length} fields need attention: see "fields".`;
  return new Refusal('invalid', 'validation', message, { fields });
}
