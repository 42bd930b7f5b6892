import type { Context } from 'hono';
import { ApiError } from './errors.ts';

/** Largest accepted request body, for every API. */
export const MAX_BODY_BYTES = 16 * 1024;
/**
 * How deep a body may nest arrays and objects. Every body of the APIs is a flat object; the limit
 * keeps deep nesting (`[[[[…]]]]`) away from anything recursive, such as JSON.stringify.
 */
export const MAX_BODY_DEPTH = 20;
/**
 * A body over the limit is still read (and dropped) up to this size before the 413 goes out: a
 * client still sending when the server closes would see its connection reset, not the answer.
 */
const DRAIN_BYTES = 1024 * 1024;

export type JsonObject = Record<string, unknown>;

/**
 * Reads a JSON object body, in this order of refusal:
 * 415 not `application/json`, 413 over the limit (the declared `Content-Length` is checked first,
 * then the bytes actually read, so a chunked or mislabelled body cannot slip past), 400 `bad-json`
 * for bytes that are not UTF-8 JSON, nested deeper than MAX_BODY_DEPTH, or a JSON value that is not
 * an object. A body that stops arriving is 408 after the body timeout; one cut off by the client is
 * 400 (it is gone and reads nothing). `optional` lets an empty body stand for `{}` (for
 * `POST /dev/reset`), still with the JSON content type, so that no cross-site form can send it.
 */
export async function readJsonObject(c: Context, opts: { optional?: boolean } = {}): Promise<JsonObject> {
  requireJsonContentType(c.req.header('content-type'));

  const declared = c.req.header('content-length');
  const timeoutMs = (c.get('bodyTimeoutMs') as number | undefined) ?? 10_000;
  // Refused before reading; the HTTP layer reads and drops what still arrives, so the client gets the answer.
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readLimited(c.req.raw.body, timeoutMs);
  if (bytes.length === 0) {
    if (opts.optional) return {};
    throw new ApiError(400, 'bad-json', 'The body is empty: send a JSON object.');
  }

  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, 'bad-json', 'The body is not valid UTF-8: send a JSON object.');
  }
  if (nestingDepth(text) > MAX_BODY_DEPTH) {
    throw new ApiError(
      400,
      'bad-json',
      `The body nests arrays or objects more than ${MAX_BODY_DEPTH} levels deep: send a flat JSON object.`,
    );
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

/** The deepest nesting of `[` and `{` outside strings, in one pass without recursion. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return deepest;
}

function requireJsonContentType(type: string | undefined): void {
  const mediaType = type?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new ApiError(415, 'unsupported-media-type', 'Send the body as JSON with the header "Content-Type: application/json".');
  }
}

function tooLarge(headers: Record<string, string> = {}): ApiError {
  return new ApiError(
    413,
    'payload-too-large',
    `The body is larger than ${MAX_BODY_BYTES} bytes: send less.`,
    undefined,
    headers,
  );
}

/**
 * The body's bytes, at most MAX_BODY_BYTES of them (a larger one is read on to DRAIN_BYTES and
 * dropped, then refused), within `timeoutMs`.
 */
async function readLimited(stream: ReadableStream<Uint8Array> | null, timeoutMs: number): Promise<Uint8Array> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ApiError(
            408,
            'request-timeout',
            'The request body stopped arriving (is its Content-Length right?): send it again.',
            undefined,
            {
              Connection: 'close',
            },
          ),
        ),
      timeoutMs,
    );
  });
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await Promise.race([reader.read(), timedOut]);
      } catch (err) {
        if (err instanceof ApiError) throw err;
        // The client went away mid-body: nobody reads this answer, and it is no failure of ours.
        throw new ApiError(400, 'bad-request', 'The request body was cut off before its end: send it again.');
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > DRAIN_BYTES) throw tooLarge({ Connection: 'close' });
      if (size <= MAX_BODY_BYTES) chunks.push(next.value);
    }
  } catch (err) {
    await reader.cancel().catch(() => {});
    throw err;
  } finally {
    clearTimeout(timer);
  }
  if (size > MAX_BODY_BYTES) throw tooLarge();
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
