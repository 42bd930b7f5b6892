import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { rawRequest, startTestService, type TestService } from './helpers.ts';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** Stands for a video: 1,000 bytes whose every position is known. */
const VIDEO = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');

let svc: TestService;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'service-static-'));
  const put = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  put('dist/widgets/v1/loader.js', '(()=>{})();\n');
  put('dist/widgets/v2/loader.js', '(()=>{})();\n');
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

  test('hashed chunks: immutable for a year, CORS; source maps as JSON', async () => {
    const res = await svc.fetch('/widgets/chunks/shared-Ab12Cd.js', { headers: { Origin: 'https://shop.example' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const map = await svc.fetch('/widgets/chunks/shared-Ab12Cd.js.map');
    assert.equal(map.headers.get('content-type'), 'application/json; charset=utf-8');
  });

  test('files are sent as their own bytes whatever the client takes: whole, in ranges, and by ETag (the JSON answers are compressed)', async () => {
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
