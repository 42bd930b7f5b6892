import type { Context } from 'hono';
import { ApiError } from './errors.ts';

/** Largest accepted request body, for every API. */
export const MAX_BODY_BYTES = 16 * 1024;

export type JsonObject = Record<string, unknown>;

/**
 * Reads a JSON object body, in this order of refusal:
 * 415 not `application/json`, 413 over the limit (the declared `Content-Length` is checked first,
 * then the bytes actually read, so a chunked or mislabelled body cannot slip past), 400 `bad-json`
 * for bytes that are not UTF-8 JSON or a JSON value that is not an object.
 * `optional` lets an empty body stand for `{}` (for `POST /dev/reset` from curl).
 */
export async function readJsonObject(
  c: Context,
  opts: { optional?: boolean } = {},
): Promise<JsonObject> {
  const type = c.req.header('content-type');
  // `curl -X POST .../dev/reset` sends neither a type nor a body: that is an empty object.
  const mayBeEmpty = opts.optional === true && type === undefined;
  if (!mayBeEmpty) requireJsonContentType(type);

  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readLimited(c.req.raw.body);
  if (bytes.length === 0) {
    if (opts.optional) return {};
    throw new ApiError(400, 'bad-json', 'The body is empty: send a JSON object.');
  }
  if (mayBeEmpty) requireJsonContentType(type);

  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, 'bad-json', 'The body is not valid UTF-8: send a JSON object.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const detail = err instanceof SyntaxError ? ` (${err.message})` : '';
    throw new ApiError(400, 'bad-json', `The body is not valid JSON${detail}: send a JSON object.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, 'bad-json', 'The body must be a JSON object ({ ... }).');
  }
  return value as JsonObject;
}

function requireJsonContentType(type: string | undefined): void {
  const mediaType = type?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new ApiError(
      415,
      'unsupported-media-type',
      'Send the body as JSON with the header "Content-Type: application/json".',
    );
  }
}

function tooLarge(): ApiError {
  return new ApiError(
    413,
    'payload-too-large',
    `The body is larger than ${MAX_BODY_BYTES} bytes: send less.`,
  );
}

async function readLimited(stream: ReadableStream<Uint8Array> | null): Promise<Uint8Array> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
