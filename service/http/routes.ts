/**
 * Routes declared once: a route's spec registers its Hono handler and is its part of
 * `/openapi.json` (http/openapi.ts), and its body schema is what the handler's body is validated
 * with. A documented route therefore exists, and its documented body is the one it accepts.
 */
import { Hono } from 'hono';
import type { z } from 'zod';
import { readJsonObject, type JsonObject } from './body.ts';
import type { AppContext, AppEnv } from './context.ts';
import { newFieldErrors, validationError, type FieldErrors } from './errors.ts';

/** A body schema: a flat JSON object whose unknown fields are refused. */
export type BodySchema = z.ZodObject;

export interface ResponseDoc {
  description: string;
  /** A JSON answer's schema. */
  schema?: z.ZodType;
  /** An answer of another media type: its OpenAPI content object (`{ 'text/html': { schema } }`). */
  content?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  /** A file's answer: the media types it may have (instead of a JSON `schema`). */
  files?: string[];
}

export interface RouteSpec<B extends BodySchema | undefined = BodySchema | undefined> {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI style: `/widget-api/v1/participant/registrations/{id}/cancel`. */
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: Record<string, string[]>[];
  /** OpenAPI parameter objects (query, header, path), or references to shared ones. */
  parameters?: unknown[];
  body?: B;
  /** By status; a string names a shared response of the document (`Validation`). */
  responses: Record<string, ResponseDoc | string>;
  /** Shown only in development mode (the /dev endpoints). */
  dev?: boolean;
}

/**
 * Checks that need more than the body (the widget key's origins, its topics, another field): they
 * add a message for a field that has none yet, so that every fault is reported at once.
 */
export type BodyCheck = (raw: JsonObject, fields: FieldErrors) => void;

type Body<B> = B extends BodySchema ? (check?: BodyCheck) => Promise<z.output<B>> : never;

/**
 * A feature's routes: a Hono sub-app whose paths are relative to `base`, where server.ts mounts it
 * (`app.route(base, sub)`, Hono's way of building a larger application from one app per part).
 */
export class SubApp extends Hono<AppEnv> {
  constructor(readonly base: string) {
    super();
  }
}

export class ApiRoutes {
  readonly specs: RouteSpec[] = [];

  /**
   * Registers a documented route on a feature's sub-app: the spec keeps the route's full path (as
   * `/openapi.json` names it), the handler is registered relative to the sub-app's base.
   */
  add<B extends BodySchema | undefined>(
    app: SubApp,
    spec: RouteSpec<B>,
    handler: (c: AppContext, body: Body<B>) => Response | Promise<Response>,
  ): void {
    if (spec.path !== app.base && !spec.path.startsWith(`${app.base}/`)) {
      throw new Error(`${spec.path} is not under ${app.base}, where its sub-app is mounted.`);
    }
    this.specs.push(spec);
    const path = spec.path.slice(app.base.length).replace(/\{(\w+)\}/g, ':$1') || '/';
    const body = spec.body;
    app.on(spec.method.toUpperCase(), path, (c) =>
      handler(c, ((check?: BodyCheck) => (body ? readBody(c, body, check) : undefined)) as Body<B>),
    );
  }
}

/**
 * Reads and validates a JSON body, in this order of refusal: 415 not JSON, 413 too large, 400 not a
 * JSON object (body.ts), then 422 `validation` with a message for every field at fault.
 */
export async function readBody<S extends BodySchema>(
  c: AppContext,
  schema: S,
  check?: BodyCheck,
  opts: { optional?: boolean } = {},
): Promise<z.output<S>> {
  return validateBody(schema, await readJsonObject(c, opts), check);
}

/**
 * The schema's verdict and the checks', every field at once, each with its first fault. A field
 * inside an object or a list is named by its whole path (`buyer.address.city`,
 * `items.0.attendees.1.first_name`); an unknown field too (`items.0.price`), with the names that
 * object allows.
 */
export function validateBody<S extends BodySchema>(schema: S, raw: JsonObject, check?: BodyCheck): z.output<S> {
  const result = schema.safeParse(raw);
  const fields = newFieldErrors();
  if (!result.success) {
    for (const issue of result.error.issues) {
      const at = issue.path.map(String);
      if (issue.code === 'unrecognized_keys') {
        const allowed = Object.keys(shapeAt(schema, issue.path) ?? {}).join(', ');
        for (const key of issue.keys) {
          const name = [...at, key].join('.');
          fields[name] ??=
            `Unknown field "${name}": remove it. Allowed${at.length > 0 ? ` in ${at.join('.')}` : ''}: ${allowed}.`;
        }
      } else {
        fields[at.length > 0 ? at.join('.') : 'body'] ??= issue.message;
      }
    }
  }
  check?.(raw, fields);
  if (Object.keys(fields).length > 0 || !result.success) throw validationError(fields);
  return result.data;
}

/** Wrappers whose inner schema holds the shape (`.optional()`, `.nullable()`, a transform's input, ...). */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/** The shape of the object found at `path` inside `schema` (through lists and wrappers), if any. */
function shapeAt(schema: z.ZodType, path: readonly PropertyKey[]): Record<string, z.ZodType> | undefined {
  let node: z.ZodType | undefined = schema;
  let i = 0;
  while (node !== undefined) {
    const def = defOf(node);
    if (WRAPPERS.has(def.type)) node = def.innerType;
    else if (def.type === 'pipe') node = def.in;
    else if (i === path.length) return def.type === 'object' ? def.shape : undefined;
    else if (def.type === 'object') node = def.shape?.[String(path[i++])];
    else if (def.type === 'array') {
      node = def.element;
      i++;
    } else return undefined;
  }
  return undefined;
}
