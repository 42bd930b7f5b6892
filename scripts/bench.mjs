#!/usr/bin/env node
// `npm run bench`: how fast and how big, measured (never by timed tests). Builds when dist/ is missing
// or older than its sources, starts the reference service on a free port with a fresh data folder,
// and reports: the loaders' and widgets' bytes (scripts/size.ts); in real Chromium, for each v1
// widget on a page with the v1 loader, the time from navigation start to `service-widget-ready` and
// the layout shift, cold and warm cache; and the service's throughput and latency for the first
// render GET and the registration POST. It prints one report and writes the figures as JSON under
// bench-results/. It exits non-zero only when it cannot measure, never because something is slow.
//
// Settings (environment): BENCH_RUNS page loads per widget and cache state (default 10),
// BENCH_CONCURRENCY requests in flight against the service (default 10), BENCH_SECONDS measured
// seconds per endpoint (default 5, after 1 s of warm-up).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { chromiumLaunchOptions } from './chromium.mjs';

/** Every widget type and its loader version. */
const TYPES = { registration: 1, profile: 1, contact: 1, calendar: 2, checkout: 2, video: 2, map: 2 };
const WARMUP_SECONDS = 1;
/** Pairs of logins (a known email, a stranger's) timed for each login. */
const LOGIN_PAIRS = 400;
const PAGE_TIMEOUT_MS = 20_000;
/** After `service-widget-ready`: two frames and this long, so that its layout shift is reported. */
const SETTLE_MS = 250;

if (isMainThread) await main();
else parentPort.postMessage(await (workerData.loginTiming ? timeLogins(workerData.serviceUrl) : load(workerData)));

async function main() {
  const { ensureChromium, ensureDependencies, root } = await import('./setup.mjs');
  const settings = {
    runs: setting('BENCH_RUNS', 10),
    concurrency: setting('BENCH_CONCURRENCY', 10),
    seconds: setting('BENCH_SECONDS', 5),
  };
  await ensureDependencies();
  const chrome = ensureChromium();
  ensureBuilt(root);

  // The service and scripts/size.ts are TypeScript: tsx compiles them on import.
  const { register } = await import('tsx/esm/api');
  register();
  const { startService } = await import('../service/server.ts');
  const { measureSizes } = await import('./size.ts');
  const { chromium } = await import('@playwright/test');

  const cleanups = [];
  const cleanUp = async () => {
    for (const step of cleanups.splice(0).reverse()) await step().catch(() => {});
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void cleanUp().then(() => process.exit(130)));

  try {
    const dataDir = mkdtempSync(join(tmpdir(), 'widgets-bench-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    // The bench measures the paths, not the limits: its service lets one address register and log
    // in without end (the limiter still runs on every request).
    const unlimited = { max: 1e9, windowMs: 60_000 };
    const service = await startService({
      port: 0,
      dataDir,
      quiet: true,
      limits: {
        registration: { perAddress: unlimited, perKey: unlimited },
        login: { perAddress: unlimited, perEmail: unlimited },
        voucher: { perAddress: unlimited },
        confirmationEmail: { perRecipient: unlimited },
      },
    });
    cleanups.push(() => service.close());
    const site = await startSite(service.url);
    cleanups.push(() => new Promise((resolve) => site.server.close(resolve)));

    const results = {
      date: new Date().toISOString(),
      commit:
        git(root, ['rev-parse', '--short', 'HEAD']) + (git(root, ['status', '--porcelain']) ? ' (with uncommitted changes)' : ''),
      // Other work on the machine skews every figure: the 1-minute load average says how busy it was.
      machine: {
        node: process.version,
        cpus: cpus().length,
        cpu: cpus()[0]?.model.trim() ?? 'unknown',
        chromium: '',
        loadAtStart: loadavg()[0],
      },
      settings,
      sizes: measureSizes(),
      pages: [],
      service: [],
    };

    console.log(`Chromium: ${settings.runs} runs per widget, cold and warm cache…`);
    const browser = await chromium.launch(chromiumLaunchOptions({ executablePath: chrome }));
    cleanups.push(() => browser.close());
    results.machine.chromium = browser.version();
    results.pages = await measurePages(browser, site.url, settings.runs);
    await browser.close();

    console.log(`Service: ${settings.concurrency} requests in flight, ${settings.seconds} s per endpoint…`);
    results.service = await measureService(service.url, settings);
    console.log(`Login timing: ${LOGIN_PAIRS} pairs per login, a known email and a stranger's in turn…`);
    results.loginTiming = await measureLoginTiming(service.url);

    results.machine.loadAtEnd = loadavg()[0];
    const file = `bench-results/bench-${results.date.replace(/[:.]/g, '-')}.json`;
    mkdirSync(join(root, 'bench-results'), { recursive: true });
    writeFileSync(join(root, file), JSON.stringify(results, null, 2) + '\n');
    console.log(`\n${report(results)}\n\nFigures written to ${file}`);
  } catch (err) {
    console.error(`\nThe bench could not run: ${err instanceof Error ? err.message : err}`);
    process.exitCode = 1;
  } finally {
    await cleanUp();
  }
}

/** A whole number ≥ 1 from the environment, or the default; anything else stops the bench. */
function setting(name, fallback) {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} must be a whole number of at least 1, not "${text}".`);
    process.exit(1);
  }
  return value;
}

function git(root, args) {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : 'unknown';
}

/** Builds as `npm start` does, but only when a built file is missing or older than a source. */
function ensureBuilt(root) {
  const outputs = ['widgets/v1/loader.js', 'widgets/v2/loader.js', 'widgets/.vite/manifest.json'].map((f) =>
    join(root, 'dist', f),
  );
  const inputs = [
    'contract',
    'loader',
    'widgets',
    'vite.config.ts',
    'scripts/build.ts',
    'package-lock.json',
    'tsconfig.base.json',
    'tsconfig.browser.json',
  ].map((f) => join(root, f));
  const newest = (path) => {
    const stat = statSync(path);
    if (!stat.isDirectory()) return path.endsWith('.test.ts') ? 0 : stat.mtimeMs;
    return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
  };
  const built = outputs.every((f) => existsSync(f)) ? Math.min(...outputs.map((f) => statSync(f).mtimeMs)) : -Infinity;
  if (built >= Math.max(...inputs.filter((f) => existsSync(f)).map(newest))) return;
  console.log(built === -Infinity ? 'Building (dist/ is missing)…' : 'Building (dist/ is older than its sources)…');
  if (spawnSync(`${root}node_modules/.bin/tsx`, ['scripts/build.ts'], { cwd: root, stdio: 'inherit' }).status !== 0) {
    console.error('The bench could not run: the build failed (see above).');
    process.exit(1);
  }
}

/**
 * A customer's site on its own origin (another port of 127.0.0.1: Chromium lets such a page reach
 * the service on this machine): one page per v1 widget, with text below the widget that would move
 * if the widget did not reserve its space.
 */
async function startSite(serviceUrl) {
  const page = (type) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Bench: ${type}</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <h1>A customer's page</h1>
    <div data-service-widget="${type}" data-service-id="wk_demo_${type}"><a href="/elsewhere">Our ${type} page</a></div>
    <p>Text below the widget.</p>
    <script async src="${serviceUrl}/widgets/v${TYPES[type]}/loader.js"></script>
  </body>
</html>
`;
  const server = createServer((req, res) => {
    const type = new URL(req.url ?? '/', 'http://site').pathname.replace(/^\/|\.html$/g, '');
    if (!Object.hasOwn(TYPES, type)) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(page(type));
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

/** Runs in the page before its own scripts: records when the widget is ready and every layout shift. */
function recordWidget() {
  const bench = (window.__bench = { ready: null, error: null, shifts: [] });
  document.addEventListener('service-widget-ready', () => (bench.ready ??= performance.now()));
  document.addEventListener('service-widget-error', (e) => (bench.error ??= e.detail));
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (!entry.hadRecentInput) bench.shifts.push({ at: entry.startTime, value: entry.value });
  }).observe({ type: 'layout-shift', buffered: true });
}

/**
 * One page load in `context`: ms from navigation start to `service-widget-ready`, and the layout
 * shift (the sum of every shift until just after ready; the part before ready comes from reserving
 * the space after the first paint, the rest from content taller or shorter than the reserved space).
 */
async function loadPage(context, url, type) {
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: 'commit', timeout: PAGE_TIMEOUT_MS });
    await page.waitForFunction(() => window.__bench.ready !== null || window.__bench.error !== null, null, {
      timeout: PAGE_TIMEOUT_MS,
    });
    const seen = await page.evaluate(
      (settle) =>
        new Promise((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(window.__bench), settle))),
        ),
      SETTLE_MS,
    );
    if (seen.error) throw new Error(`the ${type} widget failed to show: ${seen.error.code} (${seen.error.message})`);
    const total = (shifts) => Number(shifts.reduce((sum, s) => sum + s.value, 0).toFixed(6));
    return {
      readyMs: seen.ready,
      shift: total(seen.shifts),
      shiftBeforeReady: total(seen.shifts.filter((s) => s.at < seen.ready)),
    };
  } catch (err) {
    if (err instanceof Error && err.name === 'TimeoutError')
      throw new Error(`the ${type} widget was not ready after ${PAGE_TIMEOUT_MS / 1000} s`);
    throw err;
  } finally {
    await page.close();
  }
}

/**
 * Cold: a new browser context per load (empty HTTP cache, no open connection). Warm: one context,
 * loaded once unmeasured, then every load from its cache (the loader for 5 minutes, the chunks for
 * good; the widget API answer is never cached, so each load still makes its one request).
 */
async function measurePages(browser, siteUrl, runs) {
  const newContext = async () => {
    const context = await browser.newContext();
    await context.addInitScript(recordWidget);
    return context;
  };
  const results = [];
  for (const type of Object.keys(TYPES)) {
    const url = `${siteUrl}/${type}.html`;
    // Unmeasured: the browser's first page and the service's first answer for this type are slow
    // for reasons a visitor never meets.
    const first = await newContext();
    await loadPage(first, url, type);
    await first.close();

    const cold = [];
    for (let i = 0; i < runs; i++) {
      const context = await newContext();
      try {
        cold.push(await loadPage(context, url, type));
      } finally {
        await context.close();
      }
    }
    const warm = [];
    const context = await newContext();
    try {
      await loadPage(context, url, type);
      for (let i = 0; i < runs; i++) warm.push(await loadPage(context, url, type));
    } finally {
      await context.close();
    }
    for (const [cache, loads] of [
      ['cold', cold],
      ['warm', warm],
    ]) {
      results.push({
        type,
        cache,
        readyMs: summary(loads.map((l) => l.readyMs)),
        layoutShift: summary(loads.map((l) => l.shift)),
        layoutShiftBeforeReady: summary(loads.map((l) => l.shiftBeforeReady)),
        samples: loads,
      });
    }
  }
  return results;
}

/** Login timing, measured from a worker thread (see `timeLogins`). */
async function measureLoginTiming(serviceUrl) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { loginTiming: true, serviceUrl } });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the login timing worker stopped (exit code ${code})`)));
  });
}

/**
 * Whether a login's time tells that an email belongs to someone: the REST login and the participant
 * login, each asked for a known email and a stranger's in turn, one request at a time, from a thread
 * of its own as a client on another machine would (in the service's thread, the client would wait
 * for the service's work after the answer). Reports each one's median and how often the known
 * email's answer was the slower of its pair (50 % is no signal).
 */
async function timeLogins(serviceUrl) {
  const logins = [
    {
      name: 'POST /v1/login (email)',
      url: `${serviceUrl}/v1/login`,
      headers: { 'Content-Type': 'application/json', 'X-SERVICE-API-KEY': 'rk_demo_acme' },
      body: (email) => ({ login: email, verification_method: 'email' }),
      known: 'olivia.owner@acme.example',
    },
    {
      name: 'POST participant/login',
      url: `${serviceUrl}/widget-api/v1/participant/login?key=wk_demo_profile`,
      headers: { 'Content-Type': 'application/json' },
      body: (email) => ({ email, return_url: 'http://localhost:3000/account' }),
      known: 'ada@example.org',
    },
  ];
  const results = [];
  for (const login of logins) {
    const time = async (email) => {
      const start = performance.now();
      const response = await fetch(login.url, {
        method: 'POST',
        headers: login.headers,
        body: JSON.stringify(login.body(email)),
      });
      await response.arrayBuffer();
      if (response.status >= 300) throw new Error(`${login.name} answered ${response.status}`);
      return performance.now() - start;
    };
    for (let i = 0; i < 20; i++) await time(login.known); // warm-up
    const known = [];
    const stranger = [];
    let knownSlower = 0;
    for (let i = 0; i < LOGIN_PAIRS; i++) {
      // Alternating which goes first, so that order is no signal either.
      const pair =
        i % 2
          ? [await time(login.known), await time(`stranger-${i}@example.org`)]
          : [NaN, await time(`stranger-${i}@example.org`)];
      if (!(i % 2)) pair[0] = await time(login.known);
      known.push(pair[0]);
      stranger.push(pair[1]);
      if (pair[0] > pair[1]) knownSlower++;
    }
    results.push({
      name: login.name,
      knownMs: summary(known),
      strangerMs: summary(stranger),
      knownSlowerShare: knownSlower / LOGIN_PAIRS,
    });
  }
  return results;
}

/** The two endpoints, one after the other, each loaded from a worker thread (see `load`). */
async function measureService(serviceUrl, settings) {
  const api = `${serviceUrl}/widget-api/v1`;
  const first = await fetch(`${api}/widget?key=wk_demo_registration&type=registration`);
  if (first.status !== 200) throw new Error(`GET widget answered ${first.status}`);
  // The class with most seats left that has a waitlist: every registration is then taken
  // (confirmed, then waitlisted), never refused as full.
  const classes = (await first.json()).courses.flatMap((course) => course.classes);
  const target = classes.filter((c) => c.waitlist && c.status !== 'full').sort((a, b) => b.seats_left - a.seats_left)[0];
  if (!target) throw new Error('the registration widget offers no class that takes registrations');

  const endpoints = [
    { name: 'GET widget (registration)', url: `${api}/widget?key=wk_demo_registration&type=registration`, expect: 200 },
    { name: 'GET calendar (a month)', url: `${api}/calendar?key=wk_demo_calendar`, expect: 200 },
    {
      name: `POST checkout/quote (${target.id}, a voucher)`,
      url: `${api}/checkout/quote?key=wk_demo_checkout`,
      expect: 200,
      body: { items: [{ class_id: target.id, seats: 2 }], voucher: 'WELCOME10' },
    },
    {
      name: `POST registration (${target.id})`,
      url: `${api}/registrations?key=wk_demo_registration`,
      expect: 201,
      classId: target.id,
    },
  ];
  const results = [];
  for (const endpoint of endpoints) {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { ...endpoint, concurrency: settings.concurrency, seconds: settings.seconds, warmupSeconds: WARMUP_SECONDS },
    });
    const result = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the load worker stopped (exit code ${code})`)));
    });
    if (!result.requests) throw new Error(`${endpoint.name}: no request succeeded (${JSON.stringify(result.failures)})`);
    results.push({ name: endpoint.name, url: endpoint.url.replace(serviceUrl, ''), ...result });
  }
  return results;
}

/**
 * In a worker thread, so that the client's own work does not share the service's event loop:
 * `concurrency` loops, each sending its next request when the previous answer is read, for
 * `warmupSeconds` unmeasured, then `seconds` measured. Only answers with the expected status count
 * in the figures; the others are counted by status.
 */
async function load({ url, expect, classId, body, concurrency, seconds, warmupSeconds }) {
  const run = randomUUID().slice(0, 8);
  let next = 0;
  const init = () => {
    if (body) return { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
    if (!classId) return undefined;
    const n = next++;
    return {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({
        class_id: classId,
        first_name: 'Bench',
        last_name: 'Runner',
        email: `bench-${run}-${n}@example.org`,
        consent: true,
      }),
    };
  };
  const measureFrom = performance.now() + warmupSeconds * 1000;
  const stopAt = measureFrom + seconds * 1000;
  const latencies = [];
  const failures = {};
  let lastAnswer = measureFrom;
  const client = async () => {
    for (let start = performance.now(); start < stopAt; start = performance.now()) {
      let status;
      try {
        const response = await fetch(url, init());
        await response.arrayBuffer();
        status = response.status;
      } catch (err) {
        status = err instanceof Error ? (err.cause?.code ?? err.message) : String(err);
      }
      const end = performance.now();
      if (start < measureFrom) continue;
      lastAnswer = Math.max(lastAnswer, end);
      if (status === expect) latencies.push(end - start);
      else failures[status] = (failures[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsed = (lastAnswer - measureFrom) / 1000;
  return {
    requests: latencies.length,
    failed: Object.values(failures).reduce((a, b) => a + b, 0),
    failures,
    seconds: Number(elapsed.toFixed(2)),
    perSecond: Math.round(latencies.length / elapsed),
    latencyMs: summary(latencies),
  };
}

/** Median and 95th percentile (linear between the two nearest samples), min and max. */
function summary(values) {
  if (!values.length) return { median: null, p95: null, min: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => {
    const rank = (sorted.length - 1) * p;
    const low = Math.floor(rank);
    return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (rank - low);
  };
  const round = (v) => Number(v.toFixed(4));
  return { median: round(at(0.5)), p95: round(at(0.95)), min: round(sorted[0]), max: round(sorted.at(-1)) };
}

/** The printed report: sizes, page loads, service, aligned. */
function report({ commit, machine, settings, sizes, pages, service, loginTiming }) {
  const n = (v) => Math.round(v).toLocaleString('en');
  const ms = (v) => `${v < 10 ? v.toFixed(1) : n(v)} ms`;
  const table = (head, rows) => {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells) => '  ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('   ');
    return [line(head), ...rows.map(line)].join('\n');
  };
  return [
    `Bench of ${commit}: Node ${machine.node}, Chromium ${machine.chromium}, ${machine.cpus} × ${machine.cpu}`,
    `Load average (1 min): ${machine.loadAtStart.toFixed(1)} at start, ${machine.loadAtEnd.toFixed(1)} at end (above ${machine.cpus}, other work on the machine skews the figures)`,
    '',
    'Sizes (bytes; a first render: its loader and every chunk the widget imports statically)',
    table(
      ['', 'raw', 'gzip'],
      [
        ...sizes.loaders.map((l) => [`v${l.version}/loader.js`, n(l.raw), n(l.gzip)]),
        ...sizes.widgets.map((w) => [`${w.type} first render (${w.files.length + 1} files)`, n(w.raw), n(w.gzip)]),
      ],
    ),
    '',
    `Chromium, each widget through its loader: navigation start → service-widget-ready, and layout shift (${settings.runs} loads each)`,
    table(
      ['', 'ready median', 'ready p95', 'shift median', 'shift p95', 'of it before ready, median'],
      pages.map((p) => [
        `${p.type}, ${p.cache} cache`,
        ms(p.readyMs.median),
        ms(p.readyMs.p95),
        p.layoutShift.median.toFixed(4),
        p.layoutShift.p95.toFixed(4),
        p.layoutShiftBeforeReady.median.toFixed(4),
      ]),
    ),
    '',
    `Service: ${settings.concurrency} requests in flight, ${settings.seconds} s each after ${WARMUP_SECONDS} s of warm-up`,
    table(
      ['', 'requests/s', 'latency median', 'latency p95', 'failed'],
      service.map((s) => [s.name, n(s.perSecond), ms(s.latencyMs.median), ms(s.latencyMs.p95), n(s.failed)]),
    ),
    '',
    `Login timing: a known email against a stranger's, ${LOGIN_PAIRS} pairs, one request at a time (50 % slower is no signal)`,
    table(
      ['', 'known median', 'stranger median', 'known slower in'],
      loginTiming.map((l) => [
        l.name,
        `${l.knownMs.median.toFixed(2)} ms`,
        `${l.strangerMs.median.toFixed(2)} ms`,
        `${Math.round(l.knownSlowerShare * 100)} %`,
      ]),
    ),
  ].join('\n');
}
