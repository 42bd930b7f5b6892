// Set-up shared by `npm start` and `npm test`, with Node's own modules only (it runs before any
// dependency is installed): install the dependencies when they are missing or stale, and find a
// Chromium for the browser tests and curl for the documentation's curl walk-throughs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs `npm ci` when node_modules is missing or older than the lockfile, saying what it does while
 * it runs (a line per phase; on a terminal, the seconds as they pass) and keeping npm's own output
 * for a failure. Resolves with what it did: `{ installed: false }`, or `{ installed: true, packages }`.
 */
export async function ensureDependencies({ log = (line) => console.log(line) } = {}) {
  const installed = `${root}node_modules/.package-lock.json`;
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(`${root}package-lock.json`).mtimeMs) {
    return { installed: false };
  }
  // A node_modules that links to another checkout's: `npm ci` would empty the folder it points to,
  // under every checkout that shares it, and then put a folder of its own in the link's place.
  if (lstatSync(`${root}node_modules`, { throwIfNoEntry: false })?.isSymbolicLink()) {
    log(
      `node_modules links to ${readlinkSync(`${root}node_modules`)}, whose install is missing or older than package-lock.json: ` +
        'left as it is (run npm ci there if the lockfile changed).',
    );
    return { installed: false };
  }
  const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8'));
  const packages = Object.keys(lock.packages ?? {}).filter((path) => path.startsWith('node_modules/')).length;
  const child = spawn('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: nativeBuildEnv(),
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));

  // What npm ci is doing, told by what it has written so far: the packages, then SQLite's compilation.
  const phase = () =>
    existsSync(`${root}node_modules/better-sqlite3/build`)
      ? 'compiling SQLite (better-sqlite3) from source, the longest part'
      : `fetching and unpacking ${packages} packages`;
  const started = Date.now();
  const tty = process.stdout.isTTY;
  let told = '';
  const tell = () => {
    const now = phase();
    const seconds = Math.round((Date.now() - started) / 1000);
    if (tty) process.stdout.write(`\r\x1b[2K           npm ci: ${now} … ${seconds} s`);
    else if (now !== told) log(`           npm ci: ${now} …`);
    told = now;
  };
  tell();
  const ticker = setInterval(tell, 1000);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(ticker);
  if (tty) process.stdout.write('\r\x1b[2K');
  if (code !== 0) {
    process.stderr.write(output);
    console.error('npm ci failed: see the lines above. Node 20.19 or newer and the npm registry are needed.');
    process.exit(1);
  }
  return { installed: true, packages };
}

/**
 * The environment of an install: native modules (better-sqlite3) are compiled against this
 * machine's Node headers, never downloaded ones, when they are here. node-gyp takes its `nodedir`
 * from `npm_package_config_node_gyp_nodedir`, which npm passes on without a word; npm 11 warns about
 * the older `npm_config_nodedir` ("Unknown env config"), so that one is translated, not passed on.
 */
export function nativeBuildEnv(env = process.env) {
  const { npm_config_nodedir: legacy, ...rest } = env;
  const nodedir =
    rest.npm_package_config_node_gyp_nodedir ?? legacy ?? (existsSync('/usr/include/node/node_api.h') ? '/usr' : undefined);
  return nodedir ? { ...rest, npm_package_config_node_gyp_nodedir: nodedir } : rest;
}

const which = (name) => {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : '';
};

/**
 * The Chromium the browser and end-to-end tests drive: CHROME_PATH, else a Chromium or Chrome on the
 * PATH, else Debian's `chromium` installed with apt-get when this user may, else a clear message.
 */
export function ensureChromium() {
  if (process.env.CHROME_PATH) {
    if (existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
    fail(`CHROME_PATH is set to ${process.env.CHROME_PATH}, but no file is there.`);
  }
  const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
  for (const name of names) {
    const path = which(name);
    if (path) return path;
  }
  const path = aptInstall('chromium', 'No Chromium found');
  if (path) return path;
  fail(
    'The browser tests need Chromium. Install it (Debian/Ubuntu: `sudo apt-get install -y chromium`; ' +
      'macOS: install Google Chrome) or set CHROME_PATH to a Chromium or Chrome executable.',
  );
}

/**
 * curl, which the service tests need to run the documentation's curl walk-throughs as a reader would:
 * on the PATH, else Debian's `curl` installed with apt-get when this user may, else a clear message.
 */
export function ensureCurl() {
  const path = which('curl') || aptInstall('curl', 'No curl found');
  if (path) return path;
  fail('The service tests run the documentation’s curl examples: install curl (Debian/Ubuntu: `sudo apt-get install -y curl`).');
}

/**
 * nginx, which the test of the README's two processes behind a proxy runs with the README's own
 * configuration: on the PATH (or Debian's /usr/sbin), else Debian's `nginx` installed with apt-get
 * when this user may, else a clear message.
 */
export function ensureNginx() {
  const path =
    which('nginx') || (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : '') || aptInstall('nginx', 'No nginx found');
  if (path) return path;
  fail(
    'The service tests run the README’s nginx example: install nginx (Debian/Ubuntu: `sudo apt-get install -y nginx`; macOS: `brew install nginx`).',
  );
}

/**
 * wrk, the load client `npm run bench` prefers (a client in Node takes the CPU the service would
 * use): on the PATH, else Debian's `wrk` installed with apt-get when this user may, else '' (the
 * bench then loads the service from Node, and says so).
 */
export function findWrk() {
  return which('wrk') || aptInstall('wrk', 'No wrk found');
}

/** Installs a Debian package that provides the command of the same name; its path, or ''. */
function aptInstall(name, why) {
  const isRoot = process.getuid?.() === 0;
  if (!which('apt-get') || !(isRoot || which('sudo'))) return '';
  console.log(`${why}: installing Debian’s ${name} package…`);
  const sudo = isRoot ? [] : ['sudo', '-n'];
  const run = (args) =>
    spawnSync(sudo[0] ?? args[0], [...sudo.slice(1), ...(sudo.length ? args : args.slice(1))], { stdio: 'inherit' });
  if (run(['apt-get', 'update']).status !== 0 || run(['apt-get', 'install', '-y', name]).status !== 0) return '';
  return which(name);
}

function fail(message) {
  console.error(message);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

/** The version of a tool, for the log; never fails. */
export const versionOf = (file, args = ['--version']) => {
  // (Some tools, nginx among them, tell their version on stderr.)
  const result = spawnSync(file, args, { encoding: 'utf8' });
  return (result.stdout || result.stderr || '').trim().split('\n')[0] || 'unknown';
};
