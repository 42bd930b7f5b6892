#!/usr/bin/env node
// `npm test`: installs what is missing, then type-checks, lints, builds, checks the size budgets,
// and runs the docs, npm package, service (on SQLite, and on PostgreSQL: scripts/postgres.mjs), browser (on Lit's development build, then on the Lit that ships) and
// end-to-end tests. The service tests run alone; the other steps that do not depend on each other
// run side by side, two at a time (TEST_JOBS=n for more or fewer); each step's output is printed
// whole when it ends. It ends with
// one plain line: `N passed, N failed` (`, N skipped` when any were).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { ensurePostgres } from './postgres.mjs';
import { ensureChromium, ensureCurl, ensureDependencies, ensureNginx, root, versionOf } from './setup.mjs';

const install = await ensureDependencies();
if (install.installed) console.log(`Installed ${install.packages} packages (npm ci).`);
const chrome = ensureChromium();
console.log(`Chromium: ${chrome} (${versionOf(chrome)})`);
const curl = ensureCurl();
console.log(`curl: ${curl} (${versionOf(curl)})`);
const nginx = ensureNginx();
console.log(`nginx: ${nginx} (${versionOf(nginx, ['-v'])})`);
const env = { ...process.env, CHROME_PATH: chrome, NGINX_PATH: nginx, FORCE_COLOR: '0' };
const bin = (name) => `${root}node_modules/.bin/${name}`;
// Two at a time on two cores: most steps wait on a browser or the network as much as they compute;
// a third beside them made the whole run slower here.
const jobs = Math.max(1, Number(process.env.TEST_JOBS) || Math.min(2, availableParallelism()));

/** Runs a command, keeping its output (stdout and stderr in the order written), and resolves with its exit code and output. */
const run = (command, args, more = {}) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...env, ...more }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });

/** Runs commands one after the other: the worst exit code, and their outputs in turn. */
const runEach = async (...commands) => {
  const outcomes = [];
  for (const [command, args] of commands) outcomes.push(await run(command, args));
  return { code: Math.max(...outcomes.map((o) => o.code)), output: outcomes.map((o) => o.output).join('') };
};

/**
 * A port nobody listens on now, from the system's pool: each browser run gets its own, where
 * @web/test-runner's own search from 8000 lets two runs that start together take the same one.
 */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** The service tests (SQLite), one file each. */
const serviceTests = () =>
  readdirSync(`${root}service/test`)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `service/test/${f}`);
/** Service tests about SQLite's files and one machine's processes (the store's file, a full disk, the support tool's DATA_DIR), and SQLite's query plans (growth). */
const SQLITE_ONLY = ['store.test.ts', 'operations.test.ts', 'production.test.ts', 'growth.test.ts'];

const lastMatch = (text, pattern) => [...text.matchAll(pattern)].at(-1);

/** Passed, failed and skipped of a `node --test` run, from its spec reporter's summary. */
const nodeTestCount = ({ output }) => {
  const pass = lastMatch(output, /^ℹ pass (\d+)/gm);
  const fail = lastMatch(output, /^ℹ fail (\d+)/gm);
  const skipped = lastMatch(output, /^ℹ skipped (\d+)/gm);
  const todo = lastMatch(output, /^ℹ todo (\d+)/gm);
  return pass && fail ? [, pass[1], fail[1], String(Number(skipped?.[1] ?? 0) + Number(todo?.[1] ?? 0))] : null;
};
const browserCount = ({ output }) => lastMatch(output, /^(\d+) passed, (\d+) failed, (\d+) skipped$/gm);
const webTestRunner = async (...args) =>
  run(process.execPath, [
    '--import',
    'tsx',
    'node_modules/@web/test-runner/dist/bin.js',
    '--port',
    String(await freePort()),
    ...args,
  ]);

/**
 * Each step: how to run it, how to count what it checked, and the steps it must follow. What may run
 * side by side: the browser and service tests start their own services on ports the system gives,
 * over data folders of their own; the end-to-end tests use fixed ports (E2E_*_PORT) and rebuild
 * dist/ when they try `npm start`, so whatever reads dist/ comes before them.
 */
const steps = [
  {
    // Three projects: Node (no DOM), the browser (no Node), and the end-to-end tests (both).
    name: 'type check',
    run: () =>
      runEach(
        ...['tsconfig.node.json', 'tsconfig.browser.json', 'tsconfig.e2e.json'].map((project) => [
          bin('tsc'),
          ['--noEmit', '-p', project],
        ]),
      ),
    count: 'one',
  },
  {
    // ESLint's rules, then Prettier's formatting (`npm run format` fixes the latter).
    name: 'lint',
    run: () => runEach([bin('eslint'), ['--max-warnings', '0', '.']], [bin('prettier'), ['--check', '.']]),
    count: 'one',
  },
  { name: 'build', run: () => run(bin('tsx'), ['scripts/build.ts']), count: 'one' },
  {
    name: 'size budgets',
    after: ['build'],
    run: () => run(bin('tsx'), ['scripts/size.ts']),
    count: ({ output }) => lastMatch(output, /^(\d+) passed, (\d+) failed/gm),
  },
  {
    // docs/widgets.md against the build's custom-elements manifest; the widgets against what the
    // build leaves out of Lit, and those patches against the installed Lit; released versions sealed.
    name: 'docs tests',
    after: ['build'],
    run: () =>
      run(process.execPath, [
        '--import',
        'tsx',
        '--test',
        '--test-reporter=spec',
        'test/docs/manifest.test.ts',
        'test/docs/lit.test.ts',
        'test/docs/lit-patches.test.ts',
        'test/docs/releases.test.ts',
      ]),
    count: nodeTestCount,
  },
  {
    name: 'service tests',
    // Alone: some tests count real time (a contact form sent sooner than its minimum time after it
    // was shown is refused, and told how long to wait): beside the end-to-end tests, their requests
    // took 1.1 to 1.8 s rather than 0.2 to 0.3 s. Two files at a time use both places.
    alone: true,
    run: () =>
      run(process.execPath, [
        '--import',
        'tsx',
        '--test',
        '--test-concurrency=2',
        '--test-timeout=120000',
        '--test-reporter=spec',
        ...serviceTests(),
      ]),
    count: nodeTestCount,
  },
  {
    // The same suite on PostgreSQL (each service on a database of its own), but for what is about
    // SQLite's files and processes on one machine; and what is about PostgreSQL alone.
    name: 'service, PostgreSQL',
    run: async () => {
      const server = await ensurePostgres();
      try {
        const files = [
          ...serviceTests().filter((file) => !SQLITE_ONLY.some((name) => file.endsWith(`/${name}`))),
          ...readdirSync(`${root}service/test/postgres`)
            .filter((f) => f.endsWith('.test.ts'))
            .map((f) => `service/test/postgres/${f}`),
        ];
        const outcome = await run(
          process.execPath,
          // One file at a time: it runs beside the end-to-end tests, the longest step, and tests that
          // count real time run in it (two files at a time took 109 s rather than 171 alone, and made
          // both slower beside each other).
          ['--import', 'tsx', '--test', '--test-timeout=120000', '--test-reporter=spec', ...files],
          {
            SERVICE_TEST_DATABASE_URL: server.url,
          },
        );
        return { ...outcome, output: `PostgreSQL: ${server.what}\n${outcome.output}` };
      } finally {
        server.stop();
      }
    },
    count: nodeTestCount,
  },
  {
    // The npm package as a developer who bundles meets it: packed, type-checked and built into a tiny
    // Vite app, its widget shown in Chromium from a service of its own. It builds the package from
    // the sources into .cache/, reading nothing of dist/.
    name: 'npm package',
    run: () => run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', 'test/package/package.test.ts']),
    count: nodeTestCount,
  },
  { name: 'browser tests', run: () => webTestRunner(), count: browserCount },
  {
    // The same tests on the Lit that ships: its production build with the build's patches.
    name: 'browser, built Lit',
    run: () => webTestRunner('--config', 'web-test-runner.built-lit.config.mjs'),
    count: browserCount,
  },
  {
    // The longest step: it starts as soon as the build and what reads dist/ are done.
    name: 'end-to-end tests',
    after: ['build', 'size budgets', 'docs tests'],
    run: () => {
      rmSync(`${root}.cache/e2e-results.json`, { force: true });
      return run(process.execPath, ['node_modules/@playwright/test/cli.js', 'test']);
    },
    count: () => {
      const file = `${root}.cache/e2e-results.json`;
      if (!existsSync(file)) return null;
      const { stats } = JSON.parse(readFileSync(file, 'utf8'));
      return [, stats.expected + stats.flaky, stats.unexpected, stats.skipped];
    },
  },
];

/**
 * The order in which steps start, once the steps they follow are done and one of the `jobs` places
 * is free (a step that runs alone waits for the others to end, and holds every place): the service
 * tests alone, then the build, what reads it and the end-to-end tests (the longest step), with
 * nothing else in that place before them; the rest fill the other place.
 */
const startOrder = [
  'service tests',
  'build',
  'service, PostgreSQL',
  'size budgets',
  'docs tests',
  'end-to-end tests',
  'type check',
  'lint',
  'npm package',
  'browser tests',
  'browser, built Lit',
].map((name) => steps.find((step) => step.name === name));

const started = Date.now();
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);
const loadAtStart = loadavg()[0];
console.log(`\n${steps.length} steps, ${jobs} at a time; each step's output follows when it ends.`);

/** Runs a step and counts its tests; prints its output whole when it ends. */
const runStep = async (step) => {
  const stepStart = Date.now();
  console.log(`[${seconds(started).padStart(5)} s] ${step.name} started`);
  const outcome = await step.run().catch((error) => ({ code: 1, output: `${error.stack ?? error}\n` }));
  let passed,
    failed,
    skipped = 0;
  if (step.count === 'one') [passed, failed] = outcome.code === 0 ? [1, 0] : [0, 1];
  else {
    const counted = step.count(outcome);
    if (counted) [passed, failed, skipped] = [Number(counted[1]), Number(counted[2]), Number(counted[3] ?? 0)];
    else [passed, failed] = [0, 1]; // it did not even report: count it as a failure
    // A runner that exits non-zero with no failing test has failed at something else; one that
    // ran nothing has not tested anything.
    if ((outcome.code !== 0 || passed + failed === 0) && failed === 0) failed = 1;
  }
  const result = {
    name: step.name,
    passed,
    failed,
    skipped,
    seconds: (Date.now() - stepStart) / 1000,
    // What failed, by name: the summary repeats it, as a log's tail may be all that is kept of a run.
    failures: failed ? failuresOf(outcome.output) : [],
  };
  console.log(`\n=== ${step.name} (${result.seconds.toFixed(1)} s) ===`);
  process.stdout.write(outcome.output.endsWith('\n') || !outcome.output ? outcome.output : `${outcome.output}\n`);
  console.log(`=== ${step.name}: ${failed ? 'FAILED' : 'ok'} ===\n`);
  return result;
};

/**
 * The names of the tests that failed, as each runner prints them: node's spec reporter (`✖ name`),
 * Playwright's (`✘ … file:line › name`) and web-test-runner's (`❌ name`); at most ten, each on a line.
 */
function failuresOf(output) {
  const names = [
    ...output.matchAll(/^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/gm),
    ...output.matchAll(/^\s*✘\s+\d+ (.+?)(?: \([\d.]+m?s\))?$/gm),
    ...output.matchAll(/^\s*❌ (.+)$/gm),
  ]
    .map((m) => m[1].trim().slice(0, 200))
    // (node's reporter heads its list of failures with a line of its own.)
    .filter((name) => name !== 'failing tests:');
  return [...new Set(names)].slice(0, 10);
}

const results = new Map();
/** The steps running, each with the promise of its end. */
const running = new Map();
const waiting = [...startOrder];
while (waiting.length || running.size) {
  for (const step of [...waiting]) {
    if (running.size >= jobs || [...running.keys()].some((other) => other.alone)) break;
    if (!(step.after ?? []).every((name) => results.has(name))) continue;
    if (step.alone && running.size) break;
    waiting.splice(waiting.indexOf(step), 1);
    running.set(
      step,
      runStep(step).then((result) => {
        results.set(step.name, result);
        running.delete(step);
      }),
    );
  }
  if (!running.size) throw new Error(`steps that can never start: ${waiting.map((step) => step.name).join(', ')}`);
  await Promise.race(running.values());
}

console.log('\n=== summary ===');
const ordered = steps.map((step) => results.get(step.name));
for (const r of ordered) {
  console.log(
    `${r.failed ? 'FAIL' : 'ok  '} ${r.name.padEnd(18)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed${r.skipped ? ` ${r.skipped} skipped` : ''}  (${r.seconds.toFixed(1)} s)`,
  );
}
for (const r of ordered) for (const name of r.failures) console.log(`  failed in ${r.name}: ${name}`);
const total = (key) => ordered.reduce((sum, r) => sum + r[key], 0);
console.log(
  `in ${Math.round((Date.now() - started) / 1000)} s, ${jobs} at a time (load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end)`,
);
console.log(`${total('passed')} passed, ${total('failed')} failed${total('skipped') ? `, ${total('skipped')} skipped` : ''}`);
process.exit(total('failed') ? 1 : 0);
