#!/usr/bin/env node
// `npm start`: install what is missing, build the widgets, and run the reference service with its
// seeded data and the demo, telling each step and its time, then where to go and what to paste.
// The service runs in this process (no child to outlive it): Ctrl+C, SIGTERM to this process, and
// SIGTERM to the npm process that started it all stop it and free the port (service/run.ts).
import { spawn } from 'node:child_process';
import { isAbsolute, relative } from 'node:path';
import { ensureDependencies, root } from './setup.mjs';

const started = performance.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
/**
 * Whether the service logs JSON lines (production's default, or LOG_FORMAT=json): then every line of
 * `npm start` is one too, for the log collector that reads them. The service's own settings say so
 * (service/config.ts), read once the install has brought what reads them; nothing is printed before.
 */
let json = false;
/** A line for the operator: text for a person at a terminal, or a JSON line like the service's own. */
const say = (text, fields = {}) =>
  json ? console.log(JSON.stringify({ level: 'info', time: new Date().toISOString(), ...fields, msg: text })) : console.log(text);
/** One line per step: its name, what it did, its time. */
const step = (name, did, ms) =>
  json
    ? say(`${name}: ${did}`, { step: name, ms: Math.round(ms) })
    : say(`  ${name.padEnd(8)} ${did.padEnd(64)} ${seconds(ms).padStart(7)}`);

let at = performance.now();
const install = await ensureDependencies();
// The service's own settings decide from here on (a bad setting is said by the service's start below).
const { register } = await import('tsx/esm/api');
register();
try {
  const { readConfig } = await import('../service/config.ts');
  json = readConfig(process.env, { development: true }).logFormat === 'json';
} catch {
  // ConfigError: the start below names it.
}
if (!json) say('Service widgets: install, build, seed, serve\n');
step(
  'install',
  install.installed ? `${install.packages} packages (npm ci, SQLite compiled from source)` : 'dependencies up to date',
  performance.now() - at,
);

at = performance.now();
const build = await new Promise((resolve) => {
  const child = spawn(process.execPath, [`${root}node_modules/tsx/dist/cli.mjs`, 'scripts/build.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.on('close', (code) => resolve({ code, output }));
});
if (build.code !== 0) {
  process.stderr.write(build.output);
  console.error('The build failed: see the lines above.');
  process.exit(1);
}
const built = build.output.match(/; widgets: ([\w, ]+);/)?.[1].split(', ').length ?? 0;
step('build', `loaders v1 and v2, ${built} widgets, the demo and the app into dist/`, performance.now() - at);

const { runService } = await import('../service/run.ts');
const service = await runService({ quiet: true, development: true });
const { seed, startup } = service;
const inside = relative(root, service.dataFile);
const data = inside.startsWith('..') || isAbsolute(inside) ? service.dataFile : inside;
const migrated = service.migrated.length ? `, migrated (${service.migrated.join(', ')})` : '';
step(
  service.dev ? 'seed' : 'store',
  (seed.status === 'created'
    ? `${data} created and seeded now`
    : seed.status === 'kept'
      ? `${data}, seeded ${new Date(seed.seededAt).toISOString().slice(0, 10)}`
      : seed.status === 'moved'
        ? `${data}: its classes moved ${seed.weeks} week${seed.weeks === 1 ? '' : 's'} forward, to today`
        : seed.status === 'new'
          ? `${data} created now, empty (production)`
          : `${data} (production)`) + migrated,
  startup.storeMs,
);
const base = service.publicUrl;
step('serve', `running at ${base}/`, startup.listenMs);

const v1 = `${base}/widgets/v1/loader.js`;
if (json) {
  say(`Ready in ${seconds(performance.now() - started)}, ${service.dev ? 'in development' : 'in production'}, at ${base}/`, {
    url: `${base}/`,
    mode: service.dev ? 'development' : 'production',
    ms: Math.round(performance.now() - started),
  });
} else
  say(
    service.dev
      ? `
Ready in ${seconds(performance.now() - started)}.

  Demo     ${base}/
  Outbox   ${base}/demo/outbox.html   (the emails the service “sends”: PINs, links)
  App      ${base}/app/   (publish widgets: sign in as olivia.owner@acme.example, the PIN is in the outbox)
  API      ${base}/openapi.json

Paste into any page served from localhost or 127.0.0.1 (the seeded keys serve every port):

  <div data-service-widget="registration" data-service-id="wk_demo_registration"></div>
  <script async src="${v1}"></script>

{base_url} is ${base} here. For a page on another origin, see "Try it" in README.md.
Ctrl+C stops the service.`
      : `
Ready in ${seconds(performance.now() - started)}, in production (SERVICE_MODE or PUBLIC_URL says so):
no demo, no outbox, no demo keys. "Run it for real" in README.md says what support runs next.

  App      ${base}/app/   (a company's owners publish its widgets)
  API      ${base}/openapi.json
  Health   ${base}/healthz, ${base}/readyz

Ctrl+C stops the service.`,
  );
