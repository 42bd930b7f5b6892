/**
 * The schemas shown by name in `/openapi.json`: zod writes each as JSON Schema, and a schema named
 * here becomes `#/components/schemas/<name>` wherever it is used (the service builds the document,
 * service/http/openapi.ts).
 */
import { z } from 'zod';

/** Schemas shown by name in the document. */
export const components = z.registry<{ id: string }>();

/** Registers a schema as a named component and returns it. */
export function named<S extends z.ZodType>(id: string, schema: S): S {
  components.add(schema, { id });
  return schema;
}
