// The bench's `placeholders` part (scripts/bench.mjs): pages of a customer's site with 1, 7, 50 and
// 200 placeholders, ours through the README's snippets and @typeform/embed's browser build through
// its README's, loaded in turn in one run, cold, at two widths. For each page: the time from
// navigation start until every placeholder is ready, the longest main-thread task and the total
// blocking time until then, the layout shift, and the requests (JS, API, preflights).
//
// Typeform offline: its embed script and CSS come from the package, and its hosts (typeform.com,
// typeform.eu) resolve to a local HTTPS stub (Chromium's --host-resolver-rules) that answers at once:
// the form in each iframe is an empty page that tells the embed it is ready, as the real form does
// when it has loaded. Typeform's time here is its own code's, its iframes' and an empty document's
// each: the real form would then still load its own app. It is a lower bound of Typeform's time.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createSecureServer } from 'node:http2';
import { join } from 'node:path';
import { brotliBest, gzipBest } from './compress.mjs';

/** Every widget type and its loader version, in the order the pages hold them. */
const TYPES = { registration: 1, profile: 1, contact: 1, calendar: 2, checkout: 2, video: 2, map: 2 };
export const PLACEHOLDER_COUNTS = [1, 7, 50, 200];
/** Desktop and a phone's width (the phone's is where a long task hurts most). */
export const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
];
/** The Typeform release measured when the registry has it; else its newest 6.x. */
const TYPEFORM_VERSION = '6.1.1';
const TYPEFORM_HOSTS = ['typeform.com', 'typeform.eu'];
/** A Typeform widget fills its container: the height its README's examples give it. */
const TYPEFORM_HEIGHT = 500;
const PAGE_TIMEOUT_MS = 180_000;
/** After all ready: two frames and this long, so that the last layout shifts and long tasks are reported. */
const SETTLE_MS = 250;
/** A task is long past 50 ms, and blocks for what it takes beyond (total blocking time). */
const LONG_TASK_MS = 50;

/**
 * @typeform/embed from the registry into `<root>.cache/bench-typeform/<version>/` (git-ignored, not a
 * dependency: `npm ci` never fetches it), and a self-signed certificate for the stub of its hosts.
 * Resolves with `{ version, dir, tls }`, or `{ skipped: why }` when it cannot be had.
 */
export function ensureTypeform(root) {
  const cache = join(root, '.cache', 'bench-typeform');
  mkdirSync(cache, { recursive: true });
  const cached = () =>
    readdirSync(cache)
      .filter((v) => /^6\.\d+\.\d+$/.test(v) && existsSync(join(cache, v, 'package', 'build', 'embed.js')))
      .sort(byVersion);
  const view = spawnSync('npm', ['view', '@typeform/embed@6', 'version', '--json'], { encoding: 'utf8' });
  let version;
  if (view.status === 0) {
    const versions = [JSON.parse(view.stdout)].flat().filter((v) => /^6\.\d+\.\d+$/.test(v));
    version = versions.includes(TYPEFORM_VERSION) ? TYPEFORM_VERSION : versions.sort(byVersion).at(-1);
  } else version = cached().includes(TYPEFORM_VERSION) ? TYPEFORM_VERSION : cached().at(-1);
  if (!version) return { skipped: `@typeform/embed 6.x could not be fetched: ${firstLine(view.stderr)}` };

  const dir = join(cache, version, 'package');
  if (!existsSync(join(dir, 'build', 'embed.js'))) {
    console.log(`Fetching @typeform/embed ${version} into .cache/bench-typeform/ (for the bench only)…`);
    const into = join(cache, version);
    mkdirSync(into, { recursive: true });
    const pack = spawnSync('npm', ['pack', `@typeform/embed@${version}`, '--pack-destination', into, '--json'], {
      encoding: 'utf8',
    });
    if (pack.status !== 0) return { skipped: `npm pack @typeform/embed@${version} failed: ${firstLine(pack.stderr)}` };
    const tarball = join(into, JSON.parse(pack.stdout)[0].filename);
    const untar = spawnSync('tar', ['-xzf', tarball, '-C', into], { encoding: 'utf8' });
    rmSync(tarball, { force: true });
    if (untar.status !== 0) return { skipped: `its tarball could not be unpacked: ${firstLine(untar.stderr)}` };
  }

  const tls = join(cache, 'tls');
  if (!existsSync(join(tls, 'cert.pem'))) {
    mkdirSync(tls, { recursive: true });
    const names = TYPEFORM_HOSTS.flatMap((h) => [`DNS:${h}`, `DNS:*.${h}`]).join(',');
    const made = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '3650', '-subj', '/CN=typeform.com'].concat([
        '-addext',
        `subjectAltName=${names}`,
        '-keyout',
        join(tls, 'key.pem'),
        '-out',
        join(tls, 'cert.pem'),
      ]),
      { encoding: 'utf8' },
    );
    if (made.status !== 0) return { skipped: `no certificate for the stub of typeform.com (openssl: ${firstLine(made.stderr)})` };
  }
  return { version, dir, tls };
}

function byVersion(a, b) {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

function firstLine(text) {
  return (text || '').trim().split('\n')[0] || 'no reason given';
}

/**
 * The stub of Typeform's hosts, over HTTPS and HTTP/2 as typeform.com serves: embed.typeform.com
 * serves the package's build (`/next/embed.js`, `/next/css/…`), form.typeform.com an empty form per
 * iframe that posts `form-ready` to the embed (with the embed's id from its URL, as the real form
 * does once loaded), and anything else (the API) an empty 404. Chromium is pointed at it by
 * `hostResolverRules`.
 */
export async function startTypeformStub({ dir, tls }) {
  const files = {
    '/next/embed.js': ['text/javascript', readFileSync(join(dir, 'build', 'embed.js'))],
    ...Object.fromEntries(
      readdirSync(join(dir, 'build', 'css')).map((f) => [
        `/next/css/${f}`,
        ['text/css', readFileSync(join(dir, 'build', 'css', f))],
      ]),
    ),
  };
  const form = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>A form (stub)</title><link rel="icon" href="data:," /></head>
  <body>
    <p>A form.</p>
    <script>
      parent.postMessage({ type: 'form-ready', embedId: new URLSearchParams(location.search).get('typeform-embed-id') }, '*');
    </script>
  </body>
</html>
`;
  const server = createSecureServer(
    { key: readFileSync(join(tls, 'key.pem')), cert: readFileSync(join(tls, 'cert.pem')), allowHTTP1: true },
    (req, res) => {
      const host = String(req.headers[':authority'] ?? req.headers.host ?? '').replace(/:\d+$/, '');
      const path = new URL(req.url, 'https://stub').pathname;
      if (host.startsWith('embed.') && files[path]) {
        const [type, body] = files[path];
        res.writeHead(200, { 'content-type': type, 'access-control-allow-origin': '*' }).end(body);
      } else if (host.startsWith('form.') && path.startsWith('/to/')) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(form);
      } else res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    },
  );
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  return {
    server,
    hostResolverRules: TYPEFORM_HOSTS.map((h) => `MAP *.${h} 127.0.0.1:${port}, MAP ${h} 127.0.0.1:${port}`).join(', '),
  };
}

/**
 * The customer's site (another origin than the service: a port of its own on 127.0.0.1):
 * `/ours-<n>.html` with n of our placeholders (the README's two-line snippet each, the seven types in
 * turn, each with its demo key; the checkout with an empty cart, as every new context has) and the
 * loaders they need at the end of <body>; `/typeform-<n>.html` with n of Typeform's (its README's
 * HTML embed, `data-tf-widget` and its script, seven forms in turn).
 */
export async function startPlaceholderSite(serviceUrl) {
  // TypeScript, compiled on import by tsx (bench.mjs registers it).
  const { RESERVED_HEIGHT } = await import('../contract/index.ts');
  const types = Object.keys(TYPES);
  const page = (title, body) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/site.css" />
  </head>
  <body>
    <h1>A customer's page</h1>
${body}
    <p>Text below the widgets.</p>
  </body>
</html>
`;
  const ours = (n) => {
    const chosen = Array.from({ length: n }, (_, i) => types[i % types.length]);
    const divs = chosen.map((type) => `    <div data-service-widget="${type}" data-service-id="wk_demo_${type}"></div>`);
    const loaders = [1, 2]
      .filter((v) => chosen.some((type) => TYPES[type] === v))
      .map((v) => `    <script async src="${serviceUrl}/widgets/v${v}/loader.js"></script>`);
    return page(`Bench: ${n} of ours`, [...divs, ...loaders].join('\n'));
  };
  // The ready callback is one of the embed's documented options (`data-tf-on-ready`, a global function).
  const typeform = (n) => {
    const divs = Array.from(
      { length: n },
      (_, i) => `    <div data-tf-widget="benchForm${(i % types.length) + 1}" data-tf-on-ready="__benchTypeformReady"></div>`,
    );
    return page(
      `Bench: ${n} of Typeform's`,
      [...divs, '    <script src="https://embed.typeform.com/next/embed.js"></script>'].join('\n'),
    );
  };
  // Each embed's space reserved before the first paint, as its README says: Typeform's a height, ours
  // the widget's own (docs/embedding.md, "No layout shift": a min-height in the site's stylesheet
  // for a loader that comes after the first paint; contract/index.ts, RESERVED_HEIGHT, in em).
  const css = `body { font-family: sans-serif; margin: 1rem; }\n[data-tf-widget] { height: ${TYPEFORM_HEIGHT}px; }\n${Object.entries(
    RESERVED_HEIGHT,
  )
    .map(([type, px]) => `[data-service-widget=${type}] { min-height: ${px / 16}em; }`)
    .join('\n')}\n`;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const match = /^\/(ours|typeform)-(\d+)\.html$/.exec(path);
    const headers = { 'Cache-Control': 'no-store' };
    if (path === '/site.css') return void res.writeHead(200, { ...headers, 'Content-Type': 'text/css' }).end(css);
    if (!match) return void res.writeHead(404).end('not found');
    const html = (match[1] === 'ours' ? ours : typeform)(Number(match[2]));
    res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

/**
 * Runs in the page before its own scripts: counts the placeholders that are ready (ours by their
 * `service-widget-ready`, Typeform's by its `onReady`), and records every long task and layout shift.
 * `window.__bench.done` settles when all `count` are ready or one fails.
 */
function recordPlaceholders({ count, kind }) {
  let finish;
  const bench = (window.__bench = {
    allReady: null,
    ready: 0,
    error: null,
    tasks: [],
    shifts: [],
    done: new Promise((resolve) => (finish = resolve)),
  });
  const seen = new WeakSet();
  const ready = (target) => {
    if (target && seen.has(target)) return;
    if (target) seen.add(target);
    if (++bench.ready === count) {
      bench.allReady = performance.now();
      finish();
    }
  };
  if (kind === 'ours') {
    document.addEventListener('service-widget-ready', (e) => ready(e.target));
    document.addEventListener('service-widget-error', (e) => {
      bench.error ??= e.detail;
      finish();
    });
  } else window.__benchTypeformReady = () => ready(null);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.tasks.push({ at: entry.startTime, ms: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (!entry.hadRecentInput) bench.shifts.push({ at: entry.startTime, value: entry.value });
  }).observe({ type: 'layout-shift', buffered: true });
}

/**
 * One cold load (a new context: empty cache, no open connection) of `url` at `viewport`: when all
 * `count` placeholders were ready, the long tasks that began before then (the longest; the total
 * blocking time, what each took beyond 50 ms), the layout shift until just after, and the requests
 * made until then: JS files, API requests (fetch and XHR), preflights (OPTIONS, seen by CDP:
 * Playwright does not report them), iframe documents and stylesheets.
 */
async function loadPlaceholders(browser, { url, viewport, count, kind }) {
  const context = await browser.newContext({ viewport, ignoreHTTPSErrors: kind === 'typeform' });
  try {
    await context.addInitScript(recordPlaceholders, { count, kind });
    const requests = { js: 0, api: 0, preflight: 0, documents: 0, css: 0, other: 0 };
    let counting = true;
    context.on('request', (request) => {
      if (!counting) return;
      const type = request.resourceType();
      if (type === 'script') requests.js++;
      else if (type === 'fetch' || type === 'xhr') requests.api++;
      else if (type === 'document') requests.documents++;
      else if (type === 'stylesheet') requests.css++;
      else requests.other++;
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    cdp.on('Network.requestWillBeSent', (e) => {
      if (counting && e.request.method === 'OPTIONS') requests.preflight++;
    });
    await page.goto(url, { waitUntil: 'commit', timeout: PAGE_TIMEOUT_MS });
    // Awaiting the page's own promise: polling would put work of ours on the main thread measured.
    await Promise.race([
      page.evaluate(() => window.__bench.done),
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new Error(`not every placeholder was ready after ${PAGE_TIMEOUT_MS / 1000} s`)),
          PAGE_TIMEOUT_MS,
        ).unref(),
      ),
    ]);
    counting = false;
    requests.documents--; // the page itself
    const seen = await page.evaluate(
      ({ settle, kind }) =>
        new Promise((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() =>
              setTimeout(() => {
                const { done, ...bench } = window.__bench;
                const shown =
                  kind === 'ours'
                    ? document.querySelectorAll('div[data-service-widget][data-service-state="ready"]').length
                    : document.querySelectorAll('div[data-tf-widget] iframe').length;
                resolve({ ...bench, shown });
              }, settle),
            ),
          ),
        ),
      { settle: SETTLE_MS, kind },
    );
    if (seen.error) throw new Error(`a ${seen.error.type} placeholder failed: ${seen.error.code} (${seen.error.message})`);
    if (seen.shown !== count) throw new Error(`${seen.shown} of ${count} placeholders were shown`);
    const tasks = seen.tasks.filter((t) => t.at < seen.allReady);
    return {
      readyMs: Number(seen.allReady.toFixed(1)),
      longestTaskMs: Math.max(0, ...tasks.map((t) => t.ms)),
      longTasks: tasks.length,
      totalBlockingMs: tasks.reduce((sum, t) => sum + Math.max(0, t.ms - LONG_TASK_MS), 0),
      layoutShift: Number(seen.shifts.reduce((sum, s) => sum + s.value, 0).toFixed(6)),
      requests,
    };
  } finally {
    await context.close();
  }
}

/**
 * Every count at every width, ours and Typeform's loaded in turn (so that the machine's other work
 * falls on both alike), after one unmeasured load of each (the browser's and the service's first
 * answers are slow for reasons a visitor never meets). Each figure is the median of `runs` loads.
 */
export async function measurePlaceholders(browser, { siteUrl, runs, counts = PLACEHOLDER_COUNTS, typeform, summary, log }) {
  const kinds = typeform ? ['ours', 'typeform'] : ['ours'];
  const results = [];
  for (const viewport of WIDTHS) {
    for (const count of counts) {
      log(`  ${count} placeholder${count > 1 ? 's' : ''} at ${viewport.width} px…`);
      const samples = Object.fromEntries(kinds.map((k) => [k, []]));
      for (let run = -1; run < runs; run++) {
        for (const kind of kinds) {
          const load = await loadPlaceholders(browser, { url: `${siteUrl}/${kind}-${count}.html`, viewport, count, kind });
          if (run >= 0) samples[kind].push(load);
        }
      }
      for (const kind of kinds) {
        const loads = samples[kind];
        const of = (pick) => summary(loads.map(pick));
        results.push({
          kind,
          count,
          width: viewport.width,
          readyMs: of((l) => l.readyMs),
          longestTaskMs: of((l) => l.longestTaskMs),
          longTasks: of((l) => l.longTasks),
          totalBlockingMs: of((l) => l.totalBlockingMs),
          layoutShift: of((l) => l.layoutShift),
          requests: Object.fromEntries(Object.keys(loads[0].requests).map((r) => [r, of((l) => l.requests[r]).median])),
          samples: loads,
        });
      }
    }
  }
  return results;
}

/**
 * Bytes of what is served: each loader, each chunk, each widget's first render (its loader and its
 * files, from scripts/size.ts), minified as built, and as the build's gzip and brotli copies (the
 * bytes sent); Typeform's files compressed the same way (scripts/compress.mjs).
 */
export async function measureBytes(widgetsDir, sizes, typeform) {
  const built = (path) => ({
    min: statSync(path).size,
    gzip: statSync(`${path}.gz`).size,
    brotli: statSync(`${path}.br`).size,
  });
  const compressed = async (path) => {
    const buffer = readFileSync(path);
    return { min: buffer.length, gzip: (await gzipBest(buffer)).length, brotli: brotliBest(buffer).length };
  };
  const known = new Map();
  const file = (name) => {
    if (!known.has(name)) known.set(name, { file: name, ...built(join(widgetsDir, name)) });
    return known.get(name);
  };
  const loaders = sizes.loaders.map((l) => ({ version: l.version, ...file(l.file) }));
  const chunks = readdirSync(join(widgetsDir, 'chunks'))
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((f) => file(`chunks/${f}`));
  const firstRenders = sizes.widgets.map((w) => {
    const parts = [file(`v${w.version}/loader.js`), ...w.files.map((f) => file(f.file))];
    const sum = (key) => parts.reduce((total, p) => total + p[key], 0);
    return { type: w.type, files: parts.map((p) => p.file), min: sum('min'), gzip: sum('gzip'), brotli: sum('brotli') };
  });
  const result = { loaders, chunks, firstRenders };
  if (typeform?.dir) {
    result.typeform = {
      version: typeform.version,
      files: [
        { file: 'embed.js', ...(await compressed(join(typeform.dir, 'build', 'embed.js'))) },
        { file: 'css/widget.css', ...(await compressed(join(typeform.dir, 'build', 'css', 'widget.css'))) },
      ],
    };
  }
  return result;
}
