/**
 * Builds the OpenAPI 3.1 document from the routes' specs (routes.ts) and the named schemas: zod
 * writes each schema as JSON Schema draft 2020-12, OpenAPI 3.1's own dialect, and a schema named in
 * `components` becomes `#/components/schemas/<name>` wherever it is used. The prose stays by hand.
 */
import { z } from 'zod';
import { components } from '../../contract/api/registry.ts';
import type { ResponseDoc, RouteSpec } from './routes.ts';

const SCHEMA_URI = (id: string) => `#/components/schemas/${id}`;

type JsonSchema = Record<string, unknown>;

/** Every named schema as JSON Schema, for requests (their input) and answers alike. */
function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(components, { target: 'draft-2020-12', io: 'input', uri: SCHEMA_URI });
  // By name: the registry lists schemas in the order their modules happened to load.
  return Object.fromEntries(
    Object.entries(schemas)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, { $schema: _s, $id: _id, ...schema }]) => [id, schema as JsonSchema]),
  );
}

function schemaRef(schema: z.ZodType): JsonSchema {
  const id = components.get(schema)?.id;
  if (id !== undefined) return { $ref: SCHEMA_URI(id) };
  const { $schema: _s, ...inline } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    metadata: components,
  }) as JsonSchema;
  return inline;
}

const json = (schema: z.ZodType) => ({ 'application/json': { schema: schemaRef(schema) } });

function response(doc: ResponseDoc | string) {
  if (typeof doc === 'string') return { $ref: `#/components/responses/${doc}` };
  return {
    description: doc.description,
    ...(doc.headers ? { headers: doc.headers } : {}),
    ...(doc.schema ? { content: json(doc.schema) } : doc.content ? { content: doc.content } : {}),
    ...(doc.files ? { content: Object.fromEntries(doc.files.map((type) => [type, {}])) } : {}),
  };
}

export interface DocumentParts {
  info: Record<string, unknown>;
  serverUrl: string;
  tags: { name: string; description: string }[];
  securitySchemes: Record<string, unknown>;
  parameters: Record<string, unknown>;
  responses: Record<string, ResponseDoc>;
}

export function buildDocument(specs: readonly RouteSpec[], parts: DocumentParts) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of specs) {
    paths[spec.path] ??= {};
    paths[spec.path]![spec.method] = {
      tags: spec.tags,
      operationId: spec.operationId,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      security: spec.security,
      ...(spec.parameters ? { parameters: spec.parameters } : {}),
      ...(spec.body ? { requestBody: { required: true, content: json(spec.body) } } : {}),
      responses: Object.fromEntries(Object.entries(spec.responses).map(([status, doc]) => [status, response(doc)])),
    };
  }
  return {
    openapi: '3.1.0',
    info: parts.info,
    servers: [{ url: parts.serverUrl, description: 'This service' }],
    tags: parts.tags,
    paths,
    components: {
      securitySchemes: parts.securitySchemes,
      parameters: parts.parameters,
      responses: Object.fromEntries(Object.entries(parts.responses).map(([name, doc]) => [name, response(doc)])),
      // A production service has no development endpoints, and its document none of their schemas.
      schemas: Object.fromEntries(
        Object.entries(componentSchemas()).filter(
          ([id]) => !id.startsWith('Dev') || specs.some((spec) => spec.path.startsWith('/dev/')),
        ),
      ),
    },
  };
}
