// The PostgreSQL server the service tests run on in their second round: `DATABASE_URL_TEST` if set,
// else a server on 127.0.0.1:5432 that answers, else a throwaway cluster made from the installed
// PostgreSQL binaries (as the `postgres` user when run as root: initdb refuses root), else Debian's
// `postgresql` installed where this may install packages, else an error that says what to install.
// Never a silent skip. Each test service makes a database of its own on that server and drops it.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether a server answers at this URL (a query, not only a connection). */
async function answers(url) {
  // Imported here: `npm test` loads this file before it installs the dependencies.
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** The folder of the newest installed PostgreSQL's programs (Debian's layout), or undefined. */
export function binaries() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const version = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return version ? join(base, version, 'bin') : undefined;
}

/** A cluster of its own in a temporary folder, on a free port: answers its URL and how to stop it. */
export async function throwawayCluster(bin) {
  const dir = mkdtempSync(join(tmpdir(), 'service-pg-'));
  const asRoot = process.getuid?.() === 0;
  const as = (program, args) => {
    const [command, all] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]]
      : [join(bin, program), args];
    const result = spawnSync(command, all, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr || result.stdout || result.error?.message}`);
  };
  if (asRoot) {
    chmodSync(dir, 0o700);
    execFileSync('chown', ['postgres:postgres', dir]);
  }
  const data = join(dir, 'data');
  as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  as('pg_ctl', [
    '-D',
    data,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    '-l',
    join(dir, 'log'),
    '-w',
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The server's URL (a database to connect to for CREATE DATABASE), what it is, and a stop for a
 * cluster made here.
 */
export async function ensurePostgres() {
  if (process.env.DATABASE_URL_TEST) {
    if (await answers(process.env.DATABASE_URL_TEST))
      return { url: process.env.DATABASE_URL_TEST, what: 'DATABASE_URL_TEST', stop() {} };
    throw new Error('DATABASE_URL_TEST is set, but no PostgreSQL server answers there: start it, or unset DATABASE_URL_TEST.');
  }
  const local = 'postgres://postgres@127.0.0.1:5432/postgres';
  if (await answers(local)) return { url: local, what: 'the server on 127.0.0.1:5432', stop() {} };
  let bin = binaries();
  if (!bin && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    const installed = spawnSync(
      'sh',
      ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql'],
      {
        encoding: 'utf8',
      },
    );
    if (installed.status !== 0) throw new Error(`Installing Debian's postgresql failed: ${installed.stderr.slice(-500)}`);
    bin = binaries();
  }
  if (!bin) {
    throw new Error(
      'The service tests run on PostgreSQL too, and none was found: set DATABASE_URL_TEST=postgres://user@host:port/database, run a server on 127.0.0.1:5432 (trust for user postgres), or install PostgreSQL (Debian: apt-get install postgresql).',
    );
  }
  const cluster = await throwawayCluster(bin);
  return { ...cluster, what: `a throwaway cluster of ${bin}` };
}
