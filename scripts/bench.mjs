#!/usr/bin/env node
// `npm run bench`: how fast and how big, measured (never by timed tests). Builds when dist/ is missing
// or older than its sources, starts the reference service on a free port with a fresh data folder,
// and reports: the loaders', chunks' and first renders' bytes (scripts/size.ts), min, gzip and brotli;
// in real Chromium, for each widget on a page with its loader, the time from navigation start to
// `service-widget-ready` and the layout shift, cold and warm cache; pages with 1, 7, 50 and 200
// placeholders, ours and @typeform/embed's in turn (scripts/bench-placeholders.mjs); whether a login's time tells a known email; and the
// service's requests per second, p50 and p99 as processes on SQLite and PostgreSQL (one and two),
// at 1 × and 100 × the seed's data, for every first render, a calendar month, a REST page, a quote
// and a registration (loaded by wrk). It prints one report and writes the figures as JSON under
// bench-results/. It exits non-zero only when it cannot measure, never because something is slow.
//
// Settings (environment): BENCH_RUNS page loads per widget and cache state (default 10) and per
// placeholder page (default 5), BENCH_PLACEHOLDERS the placeholder counts (default 1,7,50,200),
// BENCH_CONCURRENCY requests in flight against the service (default 10), BENCH_SECONDS measured
// seconds per answer (default 3, after 1 s of warm-up), BENCH_PARTS what to measure besides the
// sizes (default `pages,placeholders,logins,service`).
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  PLACEHOLDER_COUNTS,
  ensureTypeform,
  measureBytes,
  measurePlaceholders,
  startPlaceholderSite,
  startTypeformStub,
} from './bench-placeholders.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';

/** Every widget type and its loader version. */
const TYPES = { registration: 1, profile: 1, contact: 1, calendar: 2, checkout: 2, video: 2, map: 2 };
const WARMUP_SECONDS = 1;
/** The service is measured with the seed's data once and 100 times over (`POST /dev/reset {"times": 100}`). */
const SCALES = [1, 100];
/** The demo's REST application. */
const REST_APP = { 'X-SERVICE-API-KEY': 'rk_demo_acme' };
/** Pairs of logins (a known email, a stranger's) timed for each login. */
const LOGIN_PAIRS = 400;
const PAGE_TIMEOUT_MS = 20_000;
/** After `service-widget-ready`: two frames and this long, so that its layout shift is reported. */
const SETTLE_MS = 250;

if (isMainThread) await main();
else parentPort.postMessage(await (workerData.loginTiming ? timeLogins(workerData.serviceUrl) : load(workerData)));

async function main() {
  const { ensureChromium, ensureDependencies, findWrk, root } = await import('./setup.mjs');
  const settings = {
    runs: setting('BENCH_RUNS', 10),
    // Each load of a page with 200 placeholders takes seconds (Typeform's, ten and more): five by default.
    placeholderRuns: setting('BENCH_RUNS', 5),
    placeholderCounts: counts(),
    concurrency: setting('BENCH_CONCURRENCY', 10),
    seconds: setting('BENCH_SECONDS', 3),
    parts: parts(),
    wrk: '',
  };
  await ensureDependencies();
  const chrome = ensureChromium();
  ensureBuilt(root);
  if (settings.parts.includes('service')) settings.wrk = findWrk();

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
    let closing;
    const closeService = () => (closing ??= service.close());
    cleanups.push(closeService);
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
      // The load client by name, not by its path.
      settings: { ...settings, wrk: undefined, client: settings.wrk ? 'wrk' : 'Node (no wrk found)' },
      sizes: measureSizes(),
      bytes: null,
      pages: [],
      placeholders: [],
      typeform: null,
      loginTiming: [],
      service: [],
      serviceSkipped: [],
    };

    if (settings.parts.includes('pages')) {
      console.log(`Chromium: ${settings.runs} runs per widget, cold and warm cache…`);
      const browser = await chromium.launch(chromiumLaunchOptions({ executablePath: chrome }));
      cleanups.push(() => browser.close());
      results.machine.chromium = browser.version();
      results.pages = await measurePages(browser, site.url, settings.runs);
      await browser.close();
    }
    const typeform = settings.parts.includes('placeholders') ? ensureTypeform(root) : null;
    results.typeform = typeform && (typeform.skipped ? { skipped: typeform.skipped } : { version: typeform.version });
    results.bytes = await measureBytes(join(root, 'dist', 'widgets'), results.sizes, typeform);
    if (settings.parts.includes('placeholders')) {
      const stub = typeform.skipped ? null : await startTypeformStub(typeform);
      if (stub) cleanups.push(() => new Promise((resolve) => stub.server.close(resolve)));
      const placeholderSite = await startPlaceholderSite(service.url);
      cleanups.push(() => new Promise((resolve) => placeholderSite.server.close(resolve)));
      console.log(
        `Chromium: pages with ${settings.placeholderCounts.join(', ')} placeholders, ${settings.placeholderRuns} cold loads each` +
          (stub ? `, ours and @typeform/embed ${typeform.version}'s in turn…` : ` (no Typeform: ${typeform.skipped})…`),
      );
      // Typeform's hosts resolve to the stub (only in this browser; the flag changes nothing else).
      const args = stub ? [`--host-resolver-rules=${stub.hostResolverRules}`] : [];
      const browser = await chromium.launch(chromiumLaunchOptions({ executablePath: chrome, args }));
      cleanups.push(() => browser.close());
      results.machine.chromium = browser.version();
      results.placeholders = await measurePlaceholders(browser, {
        siteUrl: placeholderSite.url,
        runs: settings.placeholderRuns,
        counts: settings.placeholderCounts,
        typeform: Boolean(stub),
        summary,
        log: (line) => console.log(line),
      });
      await browser.close();
    }
    if (settings.parts.includes('logins')) {
      console.log(`Login timing: ${LOGIN_PAIRS} pairs per login, a known email and a stranger's in turn…`);
      results.loginTiming = await measureLoginTiming(service.url);
    }
    await closeService();

    if (settings.parts.includes('service')) {
      console.log(`Service processes: ${settings.concurrency} requests in flight, ${settings.seconds} s per answer…`);
      const scale = await measureScale(root, settings, cleanups);
      results.service = scale.results;
      results.serviceSkipped = scale.skipped;
    }

    results.machine.loadAtEnd = loadavg()[0];
    const file = `bench-results/bench-${results.date.replace(/[:.]/g, '-')}.json`;
    mkdirSync(join(root, 'bench-results'), { recursive: true });
    writeFileSync(join(root, file), JSON.stringify(results, null, 2) + '\n');
    console.log(`\n${report(results)}\n\nFigures written to ${file}`);
  } catch (err) {
    console.error(
      `\nThe bench could not run: ${err instanceof Error ? `${err.message}${err.cause ? ` (${err.cause.message ?? err.cause})` : ''}` : err}`,
    );
    process.exitCode = 1;
  } finally {
    await cleanUp();
  }
}

/** BENCH_PARTS: some of `pages`, `placeholders`, `logins` and `service`, comma-separated; anything else stops the bench. */
function parts() {
  const all = ['pages', 'placeholders', 'logins', 'service'];
  const chosen = (process.env.BENCH_PARTS || all.join(',')).split(',').map((p) => p.trim());
  const unknown = chosen.filter((p) => !all.includes(p));
  if (unknown.length) {
    console.error(`BENCH_PARTS may name ${all.join(', ')} (comma-separated), not "${unknown.join(', ')}".`);
    process.exit(1);
  }
  return chosen;
}

/** BENCH_PLACEHOLDERS: placeholder counts, comma-separated whole numbers of at least 1. */
function counts() {
  const text = process.env.BENCH_PLACEHOLDERS;
  if (!text) return PLACEHOLDER_COUNTS;
  const chosen = text.split(',').map((c) => Number(c.trim()));
  if (!chosen.every((c) => Number.isInteger(c) && c >= 1)) {
    console.error(`BENCH_PLACEHOLDERS must be whole numbers of at least 1, comma-separated, not "${text}".`);
    process.exit(1);
  }
  return chosen;
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

/**
 * Each store (SQLite; PostgreSQL where one is found or can be started, scripts/postgres.mjs), at 1 ×
 * and 100 × the seed's data (`POST /dev/reset {"times": 100}`), with one service process and, on
 * PostgreSQL, two (each client connection sticks to one of them, alternately, as a proxy spreading
 * connections would): every answer of `scaleEndpoints`, one after the other, each loaded from a
 * worker thread (see `load`). The processes are `scripts/bench-service.ts`, the development service
 * without rate limits.
 */
async function measureScale(root, settings, cleanups) {
  const stores = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'widgets-bench-sqlite-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  stores.push({ store: 'SQLite', arg: { dataDir }, most: 1 });
  const skipped = [];
  try {
    const { ensurePostgres } = await import('./postgres.mjs');
    const server = await ensurePostgres();
    cleanups.push(async () => server.stop());
    const { default: pg } = await import('pg');
    const name = `bench_${randomUUID().slice(0, 8)}`;
    const admin = async (sql) => {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`create database ${name}`);
    cleanups.push(() => admin(`drop database if exists ${name} with (force)`));
    const databaseUrl = new URL(server.url);
    databaseUrl.pathname = `/${name}`;
    stores.push({ store: 'PostgreSQL', arg: { databaseUrl: databaseUrl.href }, most: 2, server: server.what });
  } catch (err) {
    skipped.push(`PostgreSQL: not measured (${err instanceof Error ? err.message : err})`);
    console.log(skipped.at(-1));
  }

  const results = [];
  for (const { store, arg, most, server } of stores) {
    const first = await startProcess(root, arg);
    cleanups.push(first.stop);
    try {
      for (const times of SCALES) {
        for (const processes of [1, 2].filter((n) => n <= most)) {
          // The same data for each run: the registrations of the one before would be in its pages.
          await reset(first.url, times);
          const setup = await scaleSetup(first.url);
          console.log(
            `  ${store}${server ? ` (${server})` : ''}, ${times} × the seed's data, ${processes} process${processes > 1 ? 'es' : ''}…`,
          );
          const second = processes > 1 ? await startProcess(root, arg) : undefined;
          try {
            const urls = second ? [first.url, second.url] : [first.url];
            for (const endpoint of scaleEndpoints(setup)) {
              const result = await measureLoad(urls, endpoint, settings);
              if (!result.requests)
                throw new Error(
                  `${endpoint.name}: no request succeeded (${JSON.stringify(result.failures)}: ${JSON.stringify(result.said)})`,
                );
              results.push({ store, times, processes, name: endpoint.name, ...result });
            }
          } finally {
            await second?.stop();
          }
        }
      }
    } finally {
      await first.stop();
    }
  }
  return { results, skipped };
}

/** One `scripts/bench-service.ts` process: its URL once it listens, and how to stop it (SIGTERM). */
async function startProcess(root, arg) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench-service.ts', JSON.stringify(arg)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!out.includes('\n')) return;
      const line = out.slice(0, out.indexOf('\n'));
      try {
        resolve(JSON.parse(line).url);
      } catch {
        reject(new Error(`a service process said "${line}" instead of its URL`));
      }
    });
    child.once('exit', (code) => reject(new Error(`a service process stopped as it started (exit code ${code})`)));
  });
  let stopped;
  const stop = () =>
    (stopped ??= new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }));
  return { url, stop };
}

/**
 * A request on a connection of its own (closed after it): `fetch` keeps its connections, and one
 * the service closed as idle during a long load (its keep-alive timeout) fails the next request.
 */
function once(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.once('end', () => resolve({ status: res.statusCode, text: async () => text, json: async () => JSON.parse(text) }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

async function reset(url, times) {
  const response = await once(`${url}/dev/reset`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ times }),
  });
  if (response.status !== 200) throw new Error(`POST /dev/reset answered ${response.status}: ${await response.text()}`);
}

/**
 * What the answers need from the store as it is: the seed's class with five seats left and an open
 * waitlist without limit (every registration is taken: confirmed, then waitlisted, never refused as
 * full), another class with seats left for the quotes, the busiest month, a REST token.
 */
async function scaleSetup(url) {
  const api = `${url}/widget-api/v1`;
  const seed = await (await once(`${url}/dev/seed`)).json();
  const target = seed.classes.five_seats_left;
  const first = await once(`${api}/widget?key=wk_demo_registration&type=registration`);
  if (first.status !== 200) throw new Error(`GET widget answered ${first.status}`);
  const classes = (await first.json()).courses.flatMap((course) => course.classes);
  const quoted = classes.filter((c) => c.id !== target && c.status === 'open' && c.price.amount > 0)[0];
  if (!quoted) throw new Error('the registration widget offers no class with seats left to quote');
  const calendar = await (await once(`${api}/calendar?key=wk_demo_calendar`)).json();
  const month = calendar.classes.length ? calendar.month : calendar.next_month;
  const login = await once(`${url}/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...REST_APP },
    body: JSON.stringify({
      login: seed.users[0].email,
      verification_method: 'client_secret',
      client_secret: seed.rest.client_secret,
    }),
  });
  if (login.status !== 200) throw new Error(`POST /v1/login answered ${login.status}`);
  return { target, quoted: quoted.id, month, token: (await login.json()).token };
}

/** The answers measured: each widget's first render, a calendar month, a REST page, a quote, a registration. */
function scaleEndpoints({ target, quoted, month, token }) {
  const api = '/widget-api/v1';
  return [
    ...Object.keys(TYPES).map((type) => ({
      name: `first render, ${type}`,
      path: `${api}/widget?key=wk_demo_${type}&type=${type}`,
      expect: 200,
    })),
    { name: `calendar month (${month})`, path: `${api}/calendar?key=wk_demo_calendar&month=${month}`, expect: 200 },
    {
      name: 'REST GET /v1/courses (page 1)',
      path: '/v1/courses',
      headers: { ...REST_APP, 'X-SERVICE-TOKEN': token, 'X-SERVICE-COMPANY': '1' },
      expect: 200,
    },
    {
      name: 'POST checkout/quote (a voucher)',
      path: `${api}/checkout/quote?key=wk_demo_checkout`,
      method: 'POST',
      body: { items: [{ class_id: quoted, seats: 2 }], voucher: 'WELCOME10' },
      expect: 200,
    },
    { name: 'POST registration', path: `${api}/registrations?key=wk_demo_registration`, registration: target, expect: 201 },
  ];
}

/**
 * The load of one answer, by wrk when it is on the PATH (a C client: on 2 cores a client in Node
 * takes the CPU the service would use, and reports a half or less of what it serves), else by
 * Node (`load`, in a worker thread). wrk's two threads each keep half the connections, the first
 * to the first process and the second to the second when there are two. Its Lua script makes each
 * registration's email and Idempotency-Key new and counts the answers whose status is not the
 * expected one (they are left out of the figures, as `load` does).
 */
async function measureLoad(urls, endpoint, settings) {
  if (!settings.wrk) return inWorker({ urls, endpoint, ...settings, warmupSeconds: WARMUP_SECONDS });
  const lua = (s) => JSON.stringify(String(s)); // a JSON string is a Lua string here (no \u escapes in our values)
  const headers = { 'Accept-Encoding': 'br, gzip', ...endpoint.headers };
  if (endpoint.body || endpoint.registration) headers['Content-Type'] = 'application/json';
  const script = `
local ports = { ${urls.map((u) => lua(new URL(u).port)).join(', ')} }
local threads = {}
function setup(thread)
  local n = #threads + 1
  thread.addr = wrk.lookup("127.0.0.1", ports[(n - 1) % #ports + 1])[1]
  thread:set("id", n)
  threads[n] = thread
end
count, failed, said = 0, 0, nil
-- Each run of wrk its own emails and keys (the warm-up's are not replayed).
function init(args)
  run = args[1]
end
local headers = { ${Object.entries(headers)
    .map(([k, v]) => `[${lua(k)}] = ${lua(v)}`)
    .join(', ')} }
function request()
  count = count + 1
  ${
    endpoint.registration
      ? `local unique = run .. "-" .. id .. "-" .. count
  headers["Idempotency-Key"] = unique
  return wrk.format("POST", ${lua(endpoint.path)}, headers, '{"class_id":' .. ${lua(JSON.stringify(endpoint.registration))} .. ',"first_name":"Bench","last_name":"Runner","email":"bench-' .. unique .. '@example.org","consent":true}')`
      : `return wrk.format(${lua(endpoint.body ? 'POST' : 'GET')}, ${lua(endpoint.path)}, headers, ${endpoint.body ? lua(JSON.stringify(endpoint.body)) : 'nil'})`
  }
end
function response(status, headers, body)
  if status ~= ${endpoint.expect} then
    failed = failed + 1
    said = said or (status .. " " .. string.gsub(string.sub(body, 1, 300), '[%c"\\\\]', " "))
  end
end
function done(summary, latency, requests)
  local failures, samples = 0, {}
  for _, thread in ipairs(threads) do
    failures = failures + thread:get("failed")
    local s = thread:get("said")
    if s then samples[#samples + 1] = s end
  end
  io.write(string.format('{"requests":%d,"errors":%d,"failed":%d,"us":%d,"p50":%d,"p95":%d,"p99":%d,"min":%d,"max":%d,"said":%q}\\n',
    summary.requests, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    failures, summary.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.min, latency.max,
    table.concat(samples, " | ")))
end
`;
  const dir = mkdtempSync(join(tmpdir(), 'widgets-bench-wrk-'));
  try {
    writeFileSync(join(dir, 'load.lua'), script);
    const run = (seconds) => {
      const result = spawnSync(
        settings.wrk,
        [
          '-t2',
          `-c${Math.max(2, settings.concurrency)}`,
          `-d${seconds}s`,
          '--timeout',
          '10s',
          '-s',
          join(dir, 'load.lua'),
          urls[0] + endpoint.path,
          '--',
          randomUUID().slice(0, 8),
        ],
        { encoding: 'utf8' },
      );
      const line = result.stdout.split('\n').find((l) => l.startsWith('{"requests"'));
      if (result.status !== 0 || !line) throw new Error(`wrk failed: ${result.stderr || result.stdout}`);
      return JSON.parse(line);
    };
    run(WARMUP_SECONDS);
    const r = run(settings.seconds);
    const ok = r.requests - r.failed;
    const ms = (us) => Number((us / 1000).toFixed(4));
    return {
      requests: ok,
      failed: r.failed + r.errors,
      failures: r.failed + r.errors ? { other: r.failed, connection: r.errors } : {},
      said: r.said ? { sample: r.said } : {},
      seconds: Number((r.us / 1e6).toFixed(2)),
      perSecond: Math.round(ok / (r.us / 1e6)),
      // wrk's percentiles are of every answer, the failed ones too (they are counted apart).
      latencyMs: { median: ms(r.p50), p95: ms(r.p95), p99: ms(r.p99), min: ms(r.min), max: ms(r.max) },
      client: 'wrk',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `load` in a worker thread, so that the client's own work does not share the bench's event loop. */
async function inWorker(data) {
  const worker = new Worker(new URL(import.meta.url), { workerData: data });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the load worker stopped (exit code ${code})`)));
  });
}

/**
 * `concurrency` connections, spread over `urls` in turn, each sending its next request when the
 * previous answer is read (keep-alive, asking for br or gzip as browsers do), for `warmupSeconds`
 * unmeasured, then `seconds` measured. Only answers with the expected status count in the figures;
 * the others are counted by status.
 */
async function load({ urls, endpoint, concurrency, seconds, warmupSeconds }) {
  const run = randomUUID().slice(0, 8);
  let next = 0;
  const agents = urls.map(() => new Agent({ keepAlive: true, maxSockets: concurrency }));
  const said = {};
  const send = (connection) =>
    new Promise((resolve) => {
      const which = connection % urls.length;
      const headers = { 'Accept-Encoding': 'br, gzip', ...endpoint.headers };
      let body;
      if (endpoint.registration) {
        headers['Idempotency-Key'] = randomUUID();
        body = JSON.stringify({
          class_id: endpoint.registration,
          first_name: 'Bench',
          last_name: 'Runner',
          email: `bench-${run}-${next++}@example.org`,
          consent: true,
        });
      } else if (endpoint.body) body = JSON.stringify(endpoint.body);
      if (body) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      const method = body ? 'POST' : 'GET';
      const request = httpRequest(new URL(endpoint.path, urls[which]), { method, headers, agent: agents[which] }, (response) => {
        response.once('error', (err) => resolve(err.code ?? err.message));
        if (response.statusCode === endpoint.expect) {
          response.once('end', () => resolve(response.statusCode));
          response.resume();
          return;
        }
        // What a failed answer said, for the report (errors are too short to be compressed).
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.once('end', () => {
          said[response.statusCode] ??= text.slice(0, 300);
          resolve(response.statusCode);
        });
      });
      request.once('error', (err) => resolve(err.code ?? err.message));
      request.end(body);
    });
  const measureFrom = performance.now() + warmupSeconds * 1000;
  const stopAt = measureFrom + seconds * 1000;
  const latencies = [];
  const failures = {};
  let lastAnswer = measureFrom;
  const client = async (connection) => {
    for (let start = performance.now(); start < stopAt; start = performance.now()) {
      const status = await send(connection);
      const end = performance.now();
      if (start < measureFrom) continue;
      lastAnswer = Math.max(lastAnswer, end);
      if (status === endpoint.expect) latencies.push(end - start);
      else failures[status] = (failures[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => client(i)));
  for (const agent of agents) agent.destroy();
  const elapsed = (lastAnswer - measureFrom) / 1000;
  return {
    requests: latencies.length,
    failed: Object.values(failures).reduce((a, b) => a + b, 0),
    failures,
    said,
    seconds: Number(elapsed.toFixed(2)),
    perSecond: Math.round(latencies.length / elapsed),
    latencyMs: summary(latencies),
  };
}

/** Median, 95th and 99th percentile (linear between the two nearest samples), min and max. */
function summary(values) {
  if (!values.length) return { median: null, p95: null, p99: null, min: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => {
    const rank = (sorted.length - 1) * p;
    const low = Math.floor(rank);
    return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (rank - low);
  };
  const round = (v) => Number(v.toFixed(4));
  return {
    median: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    min: round(sorted[0]),
    max: round(sorted.at(-1)),
  };
}

/** One table per store and scale: a row per answer, columns for one and for two processes. */
function serviceTables(service, ms, n, table) {
  const lines = [];
  const groups = new Map();
  for (const s of service) {
    const title = `${s.store}, ${s.times} × the seed's data`;
    groups.set(title, [...(groups.get(title) ?? []), s]);
  }
  for (const [title, rows] of groups) {
    const counts = [...new Set(rows.map((r) => r.processes))];
    const head = [title, ...counts.flatMap((p) => [`${p} process${p > 1 ? 'es' : ''}: req/s`, 'p50', 'p99'])];
    const names = [...new Set(rows.map((r) => r.name))];
    const cells = (r) =>
      r ? [`${n(r.perSecond)}${r.failed ? ` (${n(r.failed)})` : ''}`, ms(r.latencyMs.median), ms(r.latencyMs.p99)] : ['', '', ''];
    lines.push(
      table(
        head,
        names.map((name) => [name, ...counts.flatMap((p) => cells(rows.find((r) => r.name === name && r.processes === p)))]),
      ),
      '',
    );
  }
  return lines;
}

/** The printed report: sizes, page loads, service, aligned. */
function report({ commit, machine, settings, bytes, pages, placeholders, typeform, service, serviceSkipped, loginTiming }) {
  const n = (v) => Math.round(v).toLocaleString('en');
  const ms = (v) => `${v < 10 ? v.toFixed(1) : n(v)} ms`;
  const table = (head, rows) => {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells) => '  ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('   ');
    return [line(head), ...rows.map(line)].join('\n');
  };
  const section = (shown, lines) => (shown ? [...lines, ''] : []);
  return [
    `Bench of ${commit}: Node ${machine.node}${machine.chromium ? `, Chromium ${machine.chromium}` : ''}, ${machine.cpus} × ${machine.cpu}`,
    `Load average (1 min): ${machine.loadAtStart.toFixed(1)} at start, ${machine.loadAtEnd.toFixed(1)} at end (above ${machine.cpus}, other work on the machine skews the figures)`,
    '',
    'Bytes (a first render: its loader, every chunk the widget imports statically and every one its first request fetches)',
    table(
      ['', 'min', 'gzip', 'brotli'],
      [
        ...bytes.loaders.map((l) => [l.file, n(l.min), n(l.gzip), n(l.brotli)]),
        ...bytes.firstRenders.map((w) => [`${w.type} first render (${w.files.length} files)`, n(w.min), n(w.gzip), n(w.brotli)]),
        ...bytes.chunks.map((c) => [c.file, n(c.min), n(c.gzip), n(c.brotli)]),
        ...(bytes.typeform?.files ?? []).map((f) => [
          `@typeform/embed ${bytes.typeform.version} ${f.file}`,
          n(f.min),
          n(f.gzip),
          n(f.brotli),
        ]),
      ],
    ),
    '',
    ...section(pages.length, [
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
    ]),
    ...section(placeholders.length, placeholderLines(placeholders, typeform, settings, ms, n, table)),
    ...section(service.length || serviceSkipped.length, [
      `Service processes: ${settings.concurrency} connections from ${settings.client}, ${settings.seconds} s per answer after ${WARMUP_SECONDS} s of warm-up (req/s, latency p50 and p99; failed answers in brackets)`,
      ...serviceTables(service, ms, n, table),
      ...serviceSkipped.map((line) => `  ${line}`),
    ]),
    ...section(loginTiming.length, [
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
    ]),
  ].join('\n');
}

/**
 * The placeholder pages: a row per count and width, ours and Typeform's medians side by side, with
 * the ratio of the times; then the issue's goals, as measured.
 */
function placeholderLines(placeholders, typeform, settings, ms, n, table) {
  const find = (kind, count, width) => placeholders.find((p) => p.kind === kind && p.count === count && p.width === width);
  const ours = placeholders.filter((p) => p.kind === 'ours');
  const tf = typeform?.version ? `Typeform ${typeform.version}` : '';
  const requests = (r) => `${r.js} / ${r.api} / ${r.preflight}${r.documents ? ` (+${r.documents} frames)` : ''}`;
  // A long task is one of more than 50 ms: none is shown as such.
  const task = (v) => (v ? ms(v) : 'none');
  const rows = ours.map((o) => {
    const t = find('typeform', o.count, o.width);
    return [
      `${n(o.count)} at ${o.width} px`,
      ms(o.readyMs.median),
      task(o.longestTaskMs.median),
      ms(o.totalBlockingMs.median),
      o.layoutShift.median.toFixed(3),
      requests(o.requests),
      ...(tf
        ? t
          ? [
              ms(t.readyMs.median),
              task(t.longestTaskMs.median),
              requests(t.requests),
              (o.readyMs.median / t.readyMs.median).toFixed(2),
            ]
          : ['', '', '', '']
        : []),
    ];
  });
  const lines = [
    `Chromium, pages with N placeholders: navigation start → all ready, long tasks and layout shift until then (median of ${settings.placeholderRuns} cold loads)` +
      (tf
        ? `; ${tf} on the same kind of page with as many of its own, its hosts stubbed (a lower bound of its time)`
        : typeform?.skipped
          ? `; no Typeform: ${typeform.skipped}`
          : ''),
    table(
      [
        'placeholders',
        'ready',
        'longest task',
        'blocking',
        'shift',
        'JS / API / preflight',
        ...(tf ? [`${tf}: ready`, 'longest task', 'JS / API / preflight', 'ours ÷ Typeform'] : []),
      ],
      rows,
    ),
  ];
  // The issue's goals, at 1280 px (the longest task: at 375 px).
  const one = find('ours', 1, 1280);
  const most = find('ours', 200, 1280);
  const seven = find('ours', 7, 375);
  const typeformMost = find('typeform', 200, 1280);
  const goal = (met) => (met ? 'met' : 'not met');
  if (one && most) {
    const times = most.readyMs.median / one.readyMs.median;
    lines.push(`  200 placeholders take ${times.toFixed(1)} × one (goal ≤ 10: ${goal(times <= 10)})`);
  }
  if (most && typeformMost) {
    const ratio = most.readyMs.median / typeformMost.readyMs.median;
    lines.push(`  200 placeholders take ${ratio.toFixed(2)} × Typeform's time (goal ≤ 0.1: ${goal(ratio <= 0.1)})`);
  }
  if (seven)
    lines.push(
      `  seven widgets at 375 px: longest task ${task(seven.longestTaskMs.median)} (median; the longest of any load ${task(seven.longestTaskMs.max)}; goal ≤ 50 ms: ${goal(seven.longestTaskMs.max <= 50)})`,
    );
  return lines;
}
