/**
 * JSON and text answers compressed when the client asks (`Accept-Encoding`): brotli, else gzip. A
 * widget's first render of a grown company is 15 KB of JSON and 2 KB on the wire; a REST page 48 KB
 * and 4 KB. Small answers (under 1 KB) go as they are: compressing them saves nothing worth the time.
 * Files (`/widgets/…`, `/demo/…`, captions: answers with an ETag) are not compressed here: they answer
 * byte ranges and conditional requests of their own bytes, and compressing them again on every request
 * is work to do once, at the build.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Up to this size an answer is compressed at once, in the request's turn: 4 KB takes 40 µs of brotli
 * that way, and 175 µs handed to the thread pool and back (its streams cost more than the work).
 * Larger answers go to the thread pool, so that no request waits behind another's compression.
 */
const AT_ONCE_UP_TO = 64 * 1024;

/** Worth compressing from this many bytes. */
export const COMPRESS_FROM = 1024;
const COMPRESSIBLE = /^(application\/(json|problem\+json|xml)|text\/)/i;

/** The encoding the client takes, by its `Accept-Encoding` (q=0 refuses one): br, gzip or none. */
export function chooseEncoding(accept: string | undefined): 'br' | 'gzip' | undefined {
  const taken = new Map<string, number>();
  for (const part of (accept ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) taken.set(name, q === undefined ? 1 : Number(q));
  }
  const wants = (name: string) => (taken.get(name) ?? taken.get('*') ?? 0) > 0;
  return wants('br') ? 'br' : wants('gzip') ? 'gzip' : undefined;
}

/** The answer, compressed for the request when it is JSON or text and worth it; else as it was. */
export async function compressAnswer(method: string, accept: string | undefined, res: Response): Promise<Response> {
  const type = res.headers.get('content-type') ?? '';
  const file = res.headers.has('etag') || res.headers.has('content-range');
  if (!res.body || method === 'HEAD' || file || res.headers.has('content-encoding') || !COMPRESSIBLE.test(type)) return res;
  // (The answer's own headers take Vary: a new answer around its body would be sent chunked.)
  const vary = res.headers.get('vary');
  if (!vary?.toLowerCase().includes('accept-encoding'))
    res.headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  const encoding = chooseEncoding(accept);
  const length = Number(res.headers.get('content-length') ?? NaN);
  if (!encoding || length < COMPRESS_FROM) return res;
  const headers = new Headers(res.headers);
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length < COMPRESS_FROM) {
    headers.set('Content-Length', String(body.length));
    return new Response(body, { status: res.status, statusText: res.statusText, headers });
  }
  const options = { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } };
  const atOnce = body.length <= AT_ONCE_UP_TO;
  const packed =
    encoding === 'br'
      ? atOnce
        ? brotliCompressSync(body, options)
        : await brotli(body, options)
      : atOnce
        ? gzipSync(body)
        : await gzipped(body);
  headers.set('Content-Encoding', encoding);
  headers.set('Content-Length', String(packed.length));
  return new Response(packed, { status: res.status, statusText: res.statusText, headers });
}
