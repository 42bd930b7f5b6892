#!/usr/bin/env node
// `npm test`: installs what is missing, then type-checks, lints, builds, checks the size budgets,
// and runs the service, browser (on Lit's development build, then on the Lit that ships) and
// end-to-end tests. It ends with one plain line:
// `N passed, N failed` (`, N skipped` when any were).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureChromium, ensureCurl, ensureDependencies, root, versionOf } from './setup.mjs';

const install = await ensureDependencies();
if (install.installed) console.log(`Installed ${install.packages} packages (npm ci).`);
const chrome = ensureChromium();
console.log(`Chromium: ${chrome} (${versionOf(chrome)})`);
const curl = ensureCurl();
console.log(`curl: ${curl} (${versionOf(curl)})`);
const env = { ...process.env, CHROME_PATH: chrome, FORCE_COLOR: '0' };
const bin = (name) => `${root}node_modules/.bin/${name}`;

/** Runs a command, echoing its output, and resolves with its exit code and output. */
const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const echo = (stream) => (chunk) => {
      output += chunk;
      stream.write(chunk);
    };
    child.stdout.on('data', echo(process.stdout));
    child.stderr.on('data', echo(process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });

const lastMatch = (text, pattern) => [...text.matchAll(pattern)].at(-1);

/** Passed, failed and skipped of a `node --test` run, from its spec reporter's summary. */
const nodeTestCount = ({ output }) => {
  const pass = lastMatch(output, /^ℹ pass (\d+)/gm);
  const fail = lastMatch(output, /^ℹ fail (\d+)/gm);
  const skipped = lastMatch(output, /^ℹ skipped (\d+)/gm);
  const todo = lastMatch(output, /^ℹ todo (\d+)/gm);
  return pass && fail ? [, pass[1], fail[1], String(Number(skipped?.[1] ?? 0) + Number(todo?.[1] ?? 0))] : null;
};

// Each step: how to run it and how to count what it checked.
const steps = [
  {
    // Three projects: Node (no DOM), the browser (no Node), and the end-to-end tests (both).
    name: 'type check',
    run: async () => {
      const outcomes = [];
      for (const project of ['tsconfig.node.json', 'tsconfig.browser.json', 'tsconfig.e2e.json']) {
        outcomes.push(await run(bin('tsc'), ['--noEmit', '-p', project]));
      }
      return { code: Math.max(...outcomes.map((o) => o.code)), output: outcomes.map((o) => o.output).join('') };
    },
    count: 'one',
  },
  {
    name: 'lint',
    // ESLint's rules, then Prettier's formatting (`npm run format` fixes the latter).
    run: async () => {
      const eslint = await run(bin('eslint'), ['--max-warnings', '0', '.']);
      const prettier = await run(bin('prettier'), ['--check', '.']);
      return { code: eslint.code || prettier.code, output: eslint.output + prettier.output };
    },
    count: 'one',
  },
  { name: 'build', run: () => run(bin('tsx'), ['scripts/build.ts']), count: 'one' },
  {
    name: 'size budgets',
    run: () => run(bin('tsx'), ['scripts/size.ts']),
    count: ({ output }) => lastMatch(output, /^(\d+) passed, (\d+) failed/gm),
  },
  {
    // docs/widgets.md against the build's custom-elements manifest; the widgets against what the
    // build leaves out of Lit, and those patches against the installed Lit.
    name: 'docs tests',
    run: () =>
      run(process.execPath, [
        '--import',
        'tsx',
        '--test',
        '--test-reporter=spec',
        'test/docs/manifest.test.ts',
        'test/docs/lit.test.ts',
        'test/docs/lit-patches.test.ts',
      ]),
    count: nodeTestCount,
  },
  {
    name: 'service tests',
    run: () => {
      const files = readdirSync(`${root}service/test`)
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => `service/test/${f}`);
      return run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files]);
    },
    count: nodeTestCount,
  },
  {
    name: 'browser tests',
    run: () => run(process.execPath, ['--import', 'tsx', 'node_modules/@web/test-runner/dist/bin.js']),
    count: ({ output }) => lastMatch(output, /^(\d+) passed, (\d+) failed, (\d+) skipped$/gm),
  },
  {
    // The same tests on the Lit that ships: its production build with the build's edits.
    name: 'browser, built Lit',
    run: () =>
      run(process.execPath, [
        '--import',
        'tsx',
        'node_modules/@web/test-runner/dist/bin.js',
        '--config',
        'web-test-runner.built-lit.config.mjs',
      ]),
    count: ({ output }) => lastMatch(output, /^(\d+) passed, (\d+) failed, (\d+) skipped$/gm),
  },
  {
    name: 'end-to-end tests',
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

const started = Date.now();
const results = [];
for (const step of steps) {
  console.log(`\n=== ${step.name} ===`);
  const stepStart = Date.now();
  const outcome = await step.run();
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
  results.push({ name: step.name, passed, failed, skipped, seconds: (Date.now() - stepStart) / 1000 });
}

console.log('\n=== summary ===');
for (const r of results) {
  console.log(
    `${r.failed ? 'FAIL' : 'ok  '} ${r.name.padEnd(18)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed${r.skipped ? ` ${r.skipped} skipped` : ''}  (${r.seconds.toFixed(1)} s)`,
  );
}
const total = (key) => results.reduce((sum, r) => sum + r[key], 0);
console.log(`in ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${total('passed')} passed, ${total('failed')} failed${total('skipped') ? `, ${total('skipped')} skipped` : ''}`);
process.exit(total('failed') ? 1 : 0);
