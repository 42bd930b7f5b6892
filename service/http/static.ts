/**
 * Files: the built widgets (`/widgets/**` from `<distDir>/widgets/`), the typed REST client
 * (`/client/rest-client.js` from `<distDir>/client/`), the service's app (`/app/**` from
 * `<distDir>/app/`, in production too) and the built demo (`/` and `/demo/**` from `<demoDir>`,
 * `<distDir>/demo/` by default). Paths are decoded segment by segment and must stay inside their
 * folder (no `..`, no encoded slashes, no dot-files, no symlinks out). Every file answers HTTP
 * range requests (`Range: bytes=…`, one range), which a video element needs to seek.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, join, relative, sep, isAbsolute } from 'node:path';
import { Readable } from 'node:stream';
import type { Hono } from 'hono';
import { chooseEncoding } from './compress.ts';
import type { AppEnv, ServiceDeps } from './context.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.vtt': 'text/vtt; charset=utf-8',
};

/** Sent with every HTML page: the demo pages are written to work under it. */
export const HTML_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export const LOADER_CACHE = 'public, max-age=300';
/** The types the build keeps brotli and gzip copies of. */
const COMPRESSIBLE = /^(text\/(javascript|css|html|plain)|application\/json|image\/svg)/;
export const CHUNK_CACHE = 'public, max-age=31536000, immutable';
/** A release's pinned folder under /widgets/ (docs/embedding.md, "Pinned versions"). */
const PINNED = /^v\d+\.\d+\.\d+\//;

export function registerStatic(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const widgetsRoot = join(deps.distDir, 'widgets');

  app.get('/widgets/*', async (c) => {
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      // A host page may measure what the widgets cost it (its Resource Timing sees our sizes and times).
      'Timing-Allow-Origin': '*',
    };
    if (!(await isDirectory(widgetsRoot))) {
      return text(404, 'The widgets are not built yet: run `npm run build` (or `npm start`, which builds them first).\n', cors);
    }
    const rest = rawPath(c.req.url).slice('/widgets/'.length);
    // Hashed chunk names never change content, and neither does a release's pinned loader
    // (`v1.4.2/loader.js`) or its integrity list, so they may be cached for good; the evergreen
    // loaders (`v1/loader.js`) change with each release.
    const cache = rest.startsWith('chunks/') || PINNED.test(rest) ? CHUNK_CACHE : LOADER_CACHE;
    // A chunk's source map is named by a header, not by a comment in the chunk: the comment cost every
    // widget's first render about 34 B gzip a file, and the browser's developer tools read either.
    const map = rest.startsWith('chunks/') && rest.endsWith('.js') && (await isFile(join(widgetsRoot, `${rest}.map`)));
    const sourceMap: Record<string, string> = map ? { SourceMap: `${rest.slice('chunks/'.length)}.map` } : {};
    return serveFile(c.req.raw, widgetsRoot, rest, { ...cors, ...sourceMap, 'Cache-Control': cache });
  });

  app.get('/client/*', (c) =>
    serveFile(
      c.req.raw,
      join(deps.distDir, 'client'),
      rawPath(c.req.url).slice('/client/'.length),
      { 'Cache-Control': 'no-cache' },
      'The REST client',
    ),
  );

  // The service's app (Team & Settings > Publish): one page, routed by its fragment, and its hashed
  // scripts and styles, which never change under their names.
  const appRoot = join(deps.distDir, 'app');
  app.get('/app', (c) => redirect(`/app/${new URL(c.req.url).search}`));
  app.get('/app/*', (c) => {
    const rest = rawPath(c.req.url).slice('/app/'.length);
    return serveFile(
      c.req.raw,
      appRoot,
      rest,
      { 'Cache-Control': rest.startsWith('assets/') ? CHUNK_CACHE : 'no-cache' },
      'The app',
    );
  });

  if (deps.dev) {
    const demo = (rest: string) => (c: { req: { raw: Request } }) =>
      serveFile(c.req.raw, deps.demoDir, rest, { 'Cache-Control': 'no-cache' }, 'The demo');
    app.get('/', (c) => demo('index.html')(c));
    app.get('/demo', () => redirect('/demo/'));
    app.get('/demo/*', (c) => demo(rawPath(c.req.url).slice('/demo/'.length))(c));
  } else {
    // Production has no demo: its root says what is here.
    app.get('/', () =>
      Response.json(
        {
          service: 'Service widgets',
          loaders: ['/widgets/v1/loader.js', '/widgets/v2/loader.js'],
          app: '/app/',
          api: '/openapi.json',
          health: ['/healthz', '/readyz'],
        },
        { headers: { 'Cache-Control': 'no-cache' } },
      ),
    );
  }
  // Browsers ask for it on every page; an empty answer keeps their consoles quiet.
  app.get('/favicon.ico', () => new Response(null, { status: 204, headers: { 'Cache-Control': 'public, max-age=86400' } }));
}

/** The path as sent, still percent-encoded (URL parsing has already removed dot segments). */
function rawPath(url: string): string {
  return new URL(url).pathname;
}

async function serveFile(
  req: Request,
  root: string,
  rest: string,
  headers: Record<string, string>,
  what = 'This file',
): Promise<Response> {
  const file = await resolveInside(root, rest);
  if (file === undefined) return text(404, `Not found: ${what.toLowerCase()} has no such file.\n`, headers);

  let info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) {
    if (rest !== '' && !rest.endsWith('/')) {
      return redirect(`${new URL(req.url).pathname}/`);
    }
    const index = join(file, 'index.html');
    info = await stat(index).catch(() => undefined);
    if (info?.isFile()) return send(req, index, info, headers);
    return text(404, `Not found: ${what.toLowerCase()} has no index.html here.\n`, headers);
  }
  if (!info?.isFile()) {
    const missingRoot = !(await isDirectory(root));
    return text(
      404,
      missingRoot
        ? `${what} is not built yet: run \`npm run build\` (or \`npm start\`, which builds it first).\n`
        : `Not found.\n`,
      headers,
    );
  }
  return send(req, file, info, headers);
}

/**
 * The build's brotli or gzip copy of a text file (`<file>.br`, `<file>.gz`, scripts/build.ts) that the
 * request takes, when it asks for the whole file and the copy is of this version of it.
 */
async function precompressed(req: Request, file: string, info: { mtimeMs: number }) {
  if (req.headers.get('range') !== null) return undefined;
  const encoding = chooseEncoding(req.headers.get('accept-encoding') ?? undefined);
  if (!encoding) return undefined;
  const copy = `${file}.${encoding === 'br' ? 'br' : 'gz'}`;
  const copied = await stat(copy).catch(() => undefined);
  return copied?.isFile() && copied.mtimeMs >= info.mtimeMs ? { encoding, copy, size: copied.size } : undefined;
}

/**
 * Answers a file, with range requests (the video widget's media is sent through here too). A text
 * file the build compressed goes as the copy the browser takes (`Content-Encoding`, `Vary`), a range
 * of it as its own bytes.
 */
export async function send(
  req: Request,
  file: string,
  info: { size: number; mtimeMs: number },
  headers: Record<string, string>,
): Promise<Response> {
  const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const variant = COMPRESSIBLE.test(type) ? await precompressed(req, file, info) : undefined;
  const version = `${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}`;
  const etag = `W/"${version}${variant ? `-${variant.encoding}` : ''}"`;
  const all: Record<string, string> = {
    ...headers,
    'Content-Type': type,
    ETag: etag,
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    ...(COMPRESSIBLE.test(type) ? { Vary: 'Accept-Encoding' } : {}),
    ...(type.startsWith('text/html') ? HTML_SECURITY_HEADERS : {}),
  };
  if (req.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers: all });
  if (variant) {
    const body = Readable.toWeb(createReadStream(variant.copy)) as ReadableStream<Uint8Array>;
    return new Response(body, {
      status: 200,
      headers: { ...all, 'Content-Encoding': variant.encoding, 'Content-Length': String(variant.size) },
    });
  }
  // A range of another version of the file (If-Range names an older ETag) is the whole new file.
  const ifRange = req.headers.get('if-range');
  const range = ifRange === null || ifRange === etag ? byteRange(req.headers.get('range'), info.size) : undefined;
  if (range === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...all, 'Content-Range': `bytes */${info.size}` } });
  }
  const [start, end] = range ?? [0, info.size - 1];
  const length = Math.max(0, end - start + 1);
  const body = length === 0 ? null : (Readable.toWeb(createReadStream(file, { start, end })) as ReadableStream<Uint8Array>);
  return new Response(body, {
    status: range ? 206 : 200,
    headers: {
      ...all,
      'Content-Length': String(length),
      ...(range ? { 'Content-Range': `bytes ${start}-${end}/${info.size}` } : {}),
    },
  });
}

/**
 * The one byte range a `Range` header asks for (`bytes=0-99`, `bytes=100-`, `bytes=-100`), clipped
 * to the file; undefined for no header, a malformed one or several ranges (the whole file answers,
 * as HTTP allows); `unsatisfiable` for a range that starts past the end.
 */
export function byteRange(header: string | null, size: number): [number, number] | 'unsatisfiable' | undefined {
  const match = header === null ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return [start, end];
}

/** Joins decoded segments under `root`; undefined for anything that could leave it. */
async function resolveInside(root: string, rest: string): Promise<string | undefined> {
  const parts: string[] = [];
  for (const segment of rest.split('/')) {
    if (segment === '') continue;
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    if (name.startsWith('.') || /[/\\\0]/.test(name)) return undefined;
    // The build's compressed copies are sent in their file's place, never by their own names.
    if (/\.(br|gz)$/.test(name)) return undefined;
    parts.push(name);
  }
  const file = join(root, ...parts);
  const inside = (base: string, path: string) => {
    const rel = relative(base, path);
    return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
  };
  if (!inside(root, file)) return undefined;
  // A symlink may point anywhere: compare real paths when the file exists.
  const [realRoot, realFile] = await Promise.all([realpath(root).catch(() => undefined), realpath(file).catch(() => undefined)]);
  if (realRoot !== undefined && realFile !== undefined && !inside(realRoot, realFile)) return undefined;
  return file;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: {
      ...headers,
      // An error must not be cached like the file it stands for (chunks are cached for a year).
      'Cache-Control': 'no-store',
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

function redirect(location: string): Response {
  return new Response(null, { status: 301, headers: { Location: location } });
}
