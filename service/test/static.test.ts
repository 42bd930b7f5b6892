import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { rawRequest, startTestService, type TestService } from './helpers.ts';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** A chunk worth compressing. */
const BIG = `export const words = ${JSON.stringify('the widget and its words '.repeat(200))};\n`;

/** Stands for a video: 1,000 bytes whose every position is known. */
const VIDEO = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');

let svc: TestService;
let dir: string;

/** An answer as it crosses the wire, its body as bytes (fetch would decode it). */
const bytes = (path: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = request(`${svc.url}${path}`, { headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end();
  });
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'service-static-'));
  const put = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  put('dist/widgets/v1/loader.js', '(()=>{})();\n');
  put('dist/widgets/v2/loader.js', '(()=>{})();\n');
  put('dist/widgets/v1.4.2/loader.js', '(()=>{})();\n');
  put('dist/widgets/v1.4.2/integrity.json', '{"release":"0.4.2","loader":"v1","files":{},"widgets":{}}\n');
  // The build's compressed copies of a file, as scripts/build.ts writes them.
  put('dist/widgets/chunks/big-Ef34Gh.js', BIG);
  writeFileSync(join(dir, 'dist/widgets/chunks/big-Ef34Gh.js.br'), brotliCompressSync(BIG));
  writeFileSync(join(dir, 'dist/widgets/chunks/big-Ef34Gh.js.gz'), gzipSync(BIG));
  // A copy older than its file (a build that stopped half way) is not sent for it.
  put('dist/widgets/chunks/stale-Ij56Kl.js', BIG);
  writeFileSync(join(dir, 'dist/widgets/chunks/stale-Ij56Kl.js.br'), brotliCompressSync('stale'));
  utimesSync(join(dir, 'dist/widgets/chunks/stale-Ij56Kl.js.br'), 1, 1);
  put('dist/widgets/chunks/shared-Ab12Cd.js', 'export const x = 1;\n');
  put('dist/widgets/chunks/shared-Ab12Cd.js.map', '{"version":3}');
  put('demo/index.html', '<!doctype html><title>Demo</title>');
  put('demo/pages/registration.html', '<!doctype html><title>Registration</title>');
  put('demo/app.js', 'console.log(1);');
  put('demo/style.css', 'body{}');
  put('demo/notes.txt', 'A line of plain text that compresses well.\n'.repeat(100));
  put('demo/media/clip.mp4', VIDEO);
  put('demo/.env', 'SECRET=1');
  put('secret.txt', 'do not serve');
  symlinkSync(join(dir, 'secret.txt'), join(dir, 'demo', 'link.txt'));
  svc = await startTestService({ distDir: join(dir, 'dist'), demoDir: join(dir, 'demo') });
});
after(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('/widgets/**', () => {
  test('loaders: JavaScript, cached 5 minutes, CORS for any page', async () => {
    for (const v of ['v1', 'v2']) {
      const res = await svc.fetch(`/widgets/${v}/loader.js`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8');
      assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.equal(await res.text(), '(()=>{})();\n');
    }
  });

  test("a release's pinned loader and its integrity list: immutable for a year, CORS for any page", async () => {
    for (const file of ['loader.js', 'integrity.json']) {
      const res = await svc.fetch(`/widgets/v1.4.2/${file}`, { headers: { Origin: 'https://shop.example' } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
    }
    assert.equal(
      (await svc.fetch('/widgets/v1.4.2/integrity.json')).headers.get('content-type'),
      'application/json; charset=utf-8',
    );
  });

  test('hashed chunks: immutable for a year, CORS; each names its source map in a header, served as JSON', async () => {
    const res = await svc.fetch('/widgets/chunks/shared-Ab12Cd.js', { headers: { Origin: 'https://shop.example' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    // Named by a header (the chunk carries no comment for it), relative to the chunk.
    assert.equal(res.headers.get('sourcemap'), 'shared-Ab12Cd.js.map');
    const map = await svc.fetch('/widgets/chunks/shared-Ab12Cd.js.map');
    assert.equal(map.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(map.headers.get('sourcemap'), null);
  });

  test('a file the build kept no compressed copy of is sent as its own bytes whatever the client takes: whole, in ranges', async () => {
    const text = 'A line of plain text that compresses well.\n'.repeat(100);
    const whole = await svc.fetch('/demo/notes.txt', { headers: { 'Accept-Encoding': 'br, gzip' } });
    assert.equal(whole.headers.get('content-encoding'), null);
    assert.equal(whole.headers.get('content-length'), String(text.length));
    assert.equal(await whole.text(), text);
    const part = await svc.fetch('/demo/notes.txt', { headers: { 'Accept-Encoding': 'br, gzip', Range: 'bytes=0-99' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-encoding'), null);
    assert.equal(await part.text(), text.slice(0, 100));
  });

  test('a file the build compressed goes as the copy the client takes (br, else gzip), the same bytes once decoded; a range as its own bytes', async () => {
    const path = '/widgets/chunks/big-Ef34Gh.js';
    const get = (headers: Record<string, string>) => bytes(path, headers);
    const br = await get({ 'Accept-Encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers.vary, 'Accept-Encoding');
    assert.equal(Number(br.headers['content-length']), br.body.length);
    assert.ok(br.body.length < BIG.length / 5, `${br.body.length} of ${BIG.length} bytes`);
    assert.equal(brotliDecompressSync(br.body).toString(), BIG);
    assert.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable');
    const gz = await get({ 'Accept-Encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gz.body).toString(), BIG);
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await get(accept === undefined ? {} : { 'Accept-Encoding': accept });
      assert.equal(plain.headers['content-encoding'], undefined, String(accept));
      assert.equal(plain.body.toString(), BIG);
      assert.equal(plain.headers.vary, 'Accept-Encoding');
    }
    // Each copy has an ETag of its own: a cache keeps them apart, and a repeat is 304 for each.
    const tags = new Set([br, gz, await get({})].map((r) => r.headers.etag));
    assert.equal(tags.size, 3);
    const again = await get({ 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) });
    assert.equal(again.status, 304);
    const range = await get({ 'Accept-Encoding': 'br', Range: 'bytes=0-9' });
    assert.equal(range.status, 206);
    assert.equal(range.headers['content-encoding'], undefined);
    assert.equal(range.body.toString(), BIG.slice(0, 10));

    const stale = await bytes('/widgets/chunks/stale-Ij56Kl.js', { 'Accept-Encoding': 'br' });
    assert.equal(stale.headers['content-encoding'], undefined);
    assert.equal(stale.body.toString(), BIG);
    for (const copy of [`${path}.br`, `${path}.gz`]) assert.equal((await svc.fetch(copy)).status, 404, copy);
  });

  test('a repeat request with the ETag is 304', async () => {
    const first = await svc.fetch('/widgets/v1/loader.js');
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const again = await svc.fetch('/widgets/v1/loader.js', { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
  });

  test('a missing file is 404, never cached', async () => {
    const res = await svc.fetch('/widgets/chunks/nope-123.js');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
  });

  test('without a build, a 404 that says to run npm run build', async () => {
    const empty = await startTestService({ distDir: join(dir, 'no-dist'), demoDir: join(dir, 'no-demo') });
    try {
      const res = await empty.fetch('/widgets/v1/loader.js');
      assert.equal(res.status, 404);
      assert.match(await res.text(), /npm run build/);
      const home = await empty.fetch('/');
      assert.equal(home.status, 404);
      assert.match(await home.text(), /The demo is not built yet: run `npm run build`/);
    } finally {
      await empty.close();
    }
  });
});

describe('the demo', () => {
  test('/ is the demo index, with the security headers', async () => {
    const res = await svc.fetch('/');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('content-security-policy'), CSP);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.match(await res.text(), /<title>Demo/);
  });

  test('/demo/* serves files under the demo folder with their types', async () => {
    const page = await svc.fetch('/demo/pages/registration.html');
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-security-policy'), CSP);
    const js = await svc.fetch('/demo/app.js');
    assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
    const css = await svc.fetch('/demo/style.css');
    assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
    const index = await svc.fetch('/demo/');
    assert.match(await index.text(), /<title>Demo/);
    const bare = await svc.fetch('/demo', { redirect: 'manual' });
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), '/demo/');
  });

  test('no way out of the demo folder', async () => {
    const attempts = [
      '/demo/../secret.txt',
      '/demo/%2e%2e/secret.txt',
      '/demo/..%2fsecret.txt',
      '/demo/..%2f..%2fpackage.json',
      '/demo/..%5csecret.txt',
      '/demo/%2e%2e%5csecret.txt',
      '/demo/pages/..%2f..%2fsecret.txt',
      '/demo/.env',
      '/demo/%2eenv',
      '/demo/link.txt',
      '/demo/app.js%00.html',
      '/demo/%E0%A4%A',
      '/widgets/..%2f..%2fsecret.txt',
      '/widgets/v1/..%2f..%2f..%2fsecret.txt',
    ];
    for (const path of attempts) {
      const res = await rawRequest(svc.url, { path });
      assert.notEqual(res.status, 200, path);
      assert.doesNotMatch(res.body, /do not serve|SECRET/, path);
    }
  });
});

describe('range requests (a video seeks)', () => {
  const get = (range?: string, headers: Record<string, string> = {}) =>
    svc.fetch('/demo/media/clip.mp4', { headers: { ...(range ? { Range: range } : {}), ...headers } });

  test('a whole file says it takes ranges; one range is 206 with exactly those bytes', async () => {
    const whole = await get();
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('accept-ranges'), 'bytes');
    assert.equal(whole.headers.get('content-type'), 'video/mp4');
    assert.equal(await whole.text(), VIDEO);
    for (const [range, start, end] of [
      ['bytes=0-99', 0, 99],
      ['bytes=500-', 500, 999],
      ['bytes=-10', 990, 999],
      ['bytes=900-5000', 900, 999],
    ] as const) {
      const res = await get(range);
      assert.equal(res.status, 206, range);
      assert.equal(res.headers.get('content-range'), `bytes ${start}-${end}/1000`, range);
      assert.equal(res.headers.get('content-length'), String(end - start + 1), range);
      assert.equal(await res.text(), VIDEO.slice(start, end + 1), range);
    }
  });

  test('a range past the end is 416 with the size; a malformed or multiple range gets the whole file', async () => {
    const past = await get('bytes=1000-');
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), 'bytes */1000');
    for (const range of ['bytes=0-1,5-9', 'items=0-5', 'bytes=9-1', 'bytes=-']) {
      const res = await get(range);
      assert.equal(res.status, 200, range);
      assert.equal((await res.text()).length, 1000, range);
    }
  });

  test('If-Range: a range of the same version is 206, of another version the whole file', async () => {
    const etag = (await get()).headers.get('etag')!;
    assert.equal((await get('bytes=0-9', { 'If-Range': etag })).status, 206);
    const other = await get('bytes=0-9', { 'If-Range': 'W/"an-older-version"' });
    assert.equal(other.status, 200);
    assert.equal((await other.text()).length, 1000);
  });
});

describe('other paths', () => {
  test('an unknown path is 404 not-found in the error shape', async () => {
    const res = await svc.json('/v9/nothing');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: { code: 'not-found', message: res.body.error.message } });
  });

  test('the favicon is an empty answer, not a console error', async () => {
    assert.equal((await svc.fetch('/favicon.ico')).status, 204);
  });
});
