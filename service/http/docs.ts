/** Pieces of the OpenAPI document that many routes share (routes.ts, openapi.ts). */
import type { z } from 'zod';
import type { BodySchema, ResponseDoc, RouteSpec } from './routes.ts';
import { ErrorResponse } from '../../contract/api/common.ts';

/** An error answer: the one error body, with the codes it may carry. */
export const error = (description: string): ResponseDoc => ({ description, schema: ErrorResponse });

export const IDEMPOTENCY_KEY = { $ref: '#/components/parameters/IdempotencyKey' };

/** The language of a widget API write's emails and of the messages of a visitor's faults (http/locale.ts). */
export const ACCEPT_LANGUAGE = { $ref: '#/components/parameters/AcceptLanguage' };

export const REPLAYED_HEADERS = {
  'Idempotent-Replayed': { description: 'Always `true` here', schema: { type: 'string', const: 'true' } },
};

/** The refusals every widget API write shares. */
export const WIDGET_WRITE_ERRORS: Record<string, ResponseDoc | string> = {
  '400': error('`missing-key`, `missing-idempotency-key`, `bad-json`'),
  '401': error('`invalid-key`'),
  '403': error('`origin-not-allowed`, `type-mismatch`, `not-available`'),
  '413': 'PayloadTooLarge',
  '415': 'UnsupportedMediaType',
  '422': 'Validation',
};

/** The refusals of a participant call: the key's, then 401 for a token the service does not know. */
export const TOKEN_ERRORS: Record<string, ResponseDoc | string> = {
  '400': error('`missing-key`; `missing-idempotency-key` where an `Idempotency-Key` is required'),
  '401': error(
    '`invalid-key`; `invalid-token`: no token, or one the service does not know (signed out, expired, invalidated, another company’s): sign in again',
  ),
  '403': error('`origin-not-allowed`, `not-available`'),
};

/**
 * The spec of an idempotent widget API write: its key, its `Idempotency-Key`, its body, the answer
 * (201, or 200 for a replay) and the refusals every write shares. `responses` adds its own.
 */
export function widgetWrite<B extends BodySchema>(
  body: B,
  answer: z.ZodType,
  created: string,
  responses: Record<string, ResponseDoc | string>,
): Pick<RouteSpec<B>, 'security' | 'parameters' | 'body' | 'responses'> {
  return {
    security: [{ widgetKey: [] }],
    parameters: [IDEMPOTENCY_KEY, ACCEPT_LANGUAGE],
    body,
    responses: {
      '201': { description: created, schema: answer },
      '200': { description: 'A replay of the same submission', headers: REPLAYED_HEADERS, schema: answer },
      ...WIDGET_WRITE_ERRORS,
      ...responses,
    },
  };
}
