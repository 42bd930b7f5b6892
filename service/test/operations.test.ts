/**
 * What an operator relies on, with the service as its own process: SIGTERM answers the requests in
 * flight before it stops; the JSON log tells every request without a token, PIN or address in it;
 * `/healthz` and `/readyz`; a full disk answers 503 with Retry-After and logs the real cause.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request, type ClientRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { after, describe, test } from 'node:test';
import { REPO_ROOT, startService } from '../server.ts';
import { LOCAL_PAGE, registrationBody, uniqueKey, writeHeaders, type Json } from './helpers.ts';

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-operations-'));
  folders.push(dir);
  return dir;
};
after(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A process whose stdout is JSON lines: every line kept, and a wait for the first line that matches. */
class Program {
  readonly lines: Json[] = [];
  readonly exited: Promise<number | null>;
  readonly #waiters: { match: (line: Json) => boolean; resolve: (line: Json) => void }[] = [];
  stderr = '';

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (text) => {
      let line: Json;
      try {
        line = JSON.parse(text);
      } catch {
        line = { text };
      }
      this.lines.push(line);
      for (const waiter of [...this.#waiters]) {
        if (waiter.match(line)) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  /** The first line (seen or to come) that matches. */
  line(match: (line: Json) => boolean): Promise<Json> {
    const seen = this.lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      this.#waiters.push({ match, resolve });
      void this.exited.then((code) => reject(new Error(`exited (${code}) before the line came: ${this.stderr}`)));
    });
  }
}

/** `npm run serve` as a process of its own, in development, logging JSON; answers it and its URL. */
async function serve(env: Record<string, string>): Promise<{ program: Program; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/main.ts', '--development'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', DATA_DIR: folder(), LOG_FORMAT: 'json', ...env },
  });
  const program = new Program(child);
  const started = await program.line((l) => /^Service widgets running at /.test(l.msg ?? ''));
  const port = /:(\d+)\//.exec(started.msg)![1];
  return { program, url: `http://127.0.0.1:${port}` };
}

interface Pending {
  req: ClientRequest;
  answer: Promise<{ status: number; headers: Json; body: string } | Error>;
}

/**
 * A registration whose body comes in two parts: resolves once the service has taken its headers (its
 * `100 Continue`) and the first part, so the request is in flight; `finish()` sends the rest.
 */
async function slowRegistration(url: string, n: number): Promise<Pending & { finish(): void }> {
  const body = Buffer.from(JSON.stringify(registrationBody({ email: `inflight.${n}@example.org` })));
  const target = new URL('/widget-api/v1/registrations?key=wk_demo_registration', url);
  const req = request(target, {
    method: 'POST',
    agent: false,
    headers: { ...writeHeaders(uniqueKey('term')), 'Content-Length': String(body.length), Expect: '100-continue' },
  });
  const answer = new Promise<{ status: number; headers: Json; body: string } | Error>((resolve) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', resolve);
    });
    req.on('error', resolve);
  });
  await new Promise<void>((resolve, reject) => {
    req.on('continue', () => req.write(body.subarray(0, 20), () => resolve()));
    req.on('error', reject);
    req.flushHeaders();
  });
  return { req, answer, finish: () => req.end(body.subarray(20)) };
}

describe('SIGTERM', () => {
  test('stops taking connections, answers every request in flight, then exits 0', async () => {
    const dataDir = folder();
    const { program, url } = await serve({ SHUTDOWN_GRACE_MS: '30000', DATA_DIR: dataDir });
    const inFlight = await Promise.all(Array.from({ length: 40 }, (_, n) => slowRegistration(url, n)));
    program.child.kill('SIGTERM');
    await program.line((l) => /^Stopping: no new connections/.test(l.msg ?? ''));
    // A new connection is refused now …
    const refused = await fetch(`${url}/healthz`).then(
      () => 'answered',
      (err: Error & { cause?: { code?: string } }) => err.cause?.code,
    );
    assert.equal(refused, 'ECONNREFUSED');
    // … while every request already taken is answered, in full.
    for (const r of inFlight) r.finish();
    const answers = await Promise.all(inFlight.map((r) => r.answer));
    // Each one a whole answer: taken, or (past the per-address limit of registrations) refused with 429.
    const statuses = answers.map((a) => (a instanceof Error ? a.message : a.status));
    assert.deepEqual(
      statuses.filter((s) => s !== 201 && s !== 429),
      [],
    );
    for (const a of answers) {
      assert.ok(!(a instanceof Error));
      assert.equal(a.headers.connection, 'close');
      assert.ok(JSON.parse(a.body));
    }
    assert.equal(await program.exited, 0);
    assert.ok(program.lines.some((l) => l.msg === 'Stopped.'));
    // Every registration answered 201 is in the store.
    const db = new Database(join(dataDir, 'service.sqlite'), { readonly: true });
    const stored = db.prepare("SELECT count(*) FROM registrations WHERE email LIKE 'inflight.%'").pluck().get();
    db.close();
    assert.equal(stored, statuses.filter((s) => s === 201).length);
    assert.ok(stored >= 10, `${stored} stored`);
  });

  test('a burst of new connections as SIGTERM comes: each one is answered (readiness: 503 stopping), or refused, none reset', async () => {
    const { program, url } = await serve({ SHUTDOWN_GRACE_MS: '30000' });
    const { port } = new URL(url);
    /** One GET on a connection of its own: its status (and error code), or why it failed (ECONNREFUSED: never taken). */
    const get = (path: string) =>
      new Promise<string>((resolve) => {
        const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          res.on('end', () => resolve(res.statusCode === 503 ? `503 ${JSON.parse(body).error.code}` : String(res.statusCode)));
          res.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
        });
        req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
        req.end();
      });
    // SIGTERM once some answers are in: the others are being taken, or wait in the queue to be.
    let answered = 0;
    let some!: () => void;
    const someAnswered = new Promise<void>((resolve) => (some = resolve));
    const outcomes: Promise<string>[] = Array.from({ length: 300 }, (_, i) =>
      get(['/healthz', '/openapi.json', '/readyz'][i % 3]!).then((r) => {
        if (++answered === 20) some();
        return r;
      }),
    );
    await someAnswered;
    program.child.kill('SIGTERM');
    const results = await Promise.all(outcomes);
    const counts: Record<string, number> = {};
    for (const r of results) counts[r] = (counts[r] ?? 0) + 1;
    assert.deepEqual(
      Object.keys(counts).filter((r) => !['200', 'ECONNREFUSED', '503 stopping'].includes(r)),
      [],
      JSON.stringify(counts),
    );
    assert.ok((counts['200'] ?? 0) >= 100, JSON.stringify(counts));
    assert.equal(await program.exited, 0);
  });

  test('stopping, readiness says so at once, every answer closes its connection, and connections that come meanwhile are answered', async () => {
    const service = await startService({ port: 0, dataDir: folder(), quiet: true });
    const stopped = service.stop(10_000);
    // Asked three times one after the other from the moment the stop begins: each one answered.
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${service.url}/readyz`).catch(() => undefined);
      if (!res) break;
      answers.push(`${res.status} ${((await res.json()) as Json).error?.code} ${res.headers.get('connection')}`);
    }
    await stopped;
    assert.deepEqual(answers, Array(3).fill('503 stopping close'));
    // Then, quiet, the port closes: a new connection is refused.
    const after = await fetch(`${service.url}/readyz`).then(
      () => 'answered',
      (err: Error & { cause?: { code?: string } }) => err.cause?.code,
    );
    assert.equal(after, 'ECONNREFUSED');
  });

  test('a request that never finishes is cut off after SHUTDOWN_GRACE_MS, and the process still stops', async () => {
    const { program, url } = await serve({ SHUTDOWN_GRACE_MS: '500' });
    const stuck = await slowRegistration(url, 1);
    program.child.kill('SIGTERM');
    const answer = await stuck.answer;
    assert.ok(answer instanceof Error, 'its connection was closed');
    assert.equal(await program.exited, 0);
    assert.ok(program.lines.some((l) => l.msg === 'Stopping: the requests still in flight are cut off.'));
  });
});

describe('one process per SQLite store', () => {
  test('a second service on the same DATA_DIR stops and says which process holds it; after a stop the store is free', async () => {
    const dataDir = folder();
    const { program: first } = await serve({ DATA_DIR: dataDir });
    const second = new Program(
      spawn(process.execPath, ['--import', 'tsx', 'service/main.ts', '--development'], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', DATA_DIR: dataDir, LOG_FORMAT: 'json' },
      }),
    );
    assert.equal(await second.exited, 1);
    assert.match(
      second.stderr,
      new RegExp(
        `Another service \\(process ${first.child.pid}\\) uses the store .*one service process per SQLite store \\(for several, use PostgreSQL: DATABASE_URL\\)`,
      ),
    );
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
    const { program: third } = await serve({ DATA_DIR: dataDir });
    third.child.kill('SIGTERM');
    assert.equal(await third.exited, 0);
  });
});

describe('the log, health and readiness', () => {
  test('JSON lines with a request id, method, path, status and time; never a key, token, PIN or email address', async () => {
    const { program, url } = await serve({});
    try {
      const email = 'log.reader@example.org';
      const post = (path: string, body: unknown) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: LOCAL_PAGE },
          body: JSON.stringify(body),
        });
      assert.equal(
        (
          await post('/widget-api/v1/participant/login?key=wk_demo_profile', {
            email: 'ada@example.org',
            return_url: `${LOCAL_PAGE}/a`,
          })
        ).status,
        202,
      );
      const outbox = (await (await fetch(`${url}/dev/outbox?to=ada@example.org`)).json()) as Json;
      const { pin, link } = outbox.emails[0];
      const verified = await post('/widget-api/v1/participant/verify?key=wk_demo_profile', { email: 'ada@example.org', pin });
      const { token } = (await verified.json()) as Json;
      const registered = await fetch(`${url}/widget-api/v1/registrations?key=wk_demo_registration`, {
        method: 'POST',
        headers: writeHeaders(uniqueKey()),
        body: JSON.stringify(registrationBody({ email })),
      });
      assert.equal(registered.status, 201);
      const id = registered.headers.get('x-request-id');
      assert.match(id ?? '', /^[0-9a-f-]{36}$/);

      const health = await fetch(`${url}/healthz`);
      assert.deepEqual([health.status, await health.json()], [200, { status: 'ok' }]);
      const ready = await fetch(`${url}/readyz`);
      assert.deepEqual([ready.status, await ready.json()], [200, { status: 'ready' }]);

      const line = await program.line((l) => l.req?.id === id);
      assert.deepEqual(Object.keys(line.req).sort(), ['id', 'method', 'ms', 'path', 'status']);
      assert.deepEqual(
        [line.req.method, line.req.path, line.req.status, line.level],
        ['POST', '/widget-api/v1/registrations', 201, 'info'],
      );
      assert.equal(typeof line.req.ms, 'number');
      assert.match(line.time, /^\d{4}-\d\d-\d\dT/);
      await program.line((l) => l.req?.path === '/readyz');
      // Refused before the app by Node's parser (headers too large): answered, and logged too.
      const refused = await new Promise<number>((resolve, reject) => {
        const req = request(`${url}/healthz`, { headers: { 'X-Big': 'x'.repeat(20_000) }, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(refused, 431);
      await program.line((l) => l.req?.status === 431 && l.req.path === '-');
      const log = program.lines.map((l) => JSON.stringify(l)).join('\n');
      for (const secret of [
        pin,
        token,
        new URL(link).searchParams.get('key'),
        'wk_demo_registration',
        email,
        'ada@example.org',
      ]) {
        assert.ok(!log.includes(secret), `the log holds no ${secret}`);
      }
    } finally {
      program.child.kill('SIGTERM');
      await program.exited;
    }
  });
});

/** `sh -c script` in a mount namespace of its own (as root, or as this user mapped to root in it). */
const inMountNamespace = (script: string, env: Record<string, string>) =>
  spawn('unshare', [...(process.getuid?.() === 0 ? ['-m'] : ['-r', '-m']), '--propagation', 'private', 'sh', '-c', script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });

describe('a full disk', () => {
  test('a write answers 503 with Retry-After and the log names the cause; once there is room, the same request is taken', async () => {
    // The service in a mount namespace of its own, whose data folder is a 16 MB disk (tmpfs).
    const dataDir = folder();
    const child = inMountNamespace(
      `mount -t tmpfs -o size=16m tmpfs "$DATA_DIR" && exec "${process.execPath}" --import tsx service/test/fixtures/small-disk.ts`,
      { DATA_DIR: dataDir },
    );
    const program = new Program(child);
    const { url } = await program
      .line((l) => typeof l.url === 'string')
      .catch((err: Error) => {
        throw new Error(`This test needs a mount namespace (unshare, from util-linux): ${err.message}`);
      });
    const command = async (name: string) => {
      child.stdin.write(`${name}\n`);
      await program.line((l) => l.done === name && !l.seen && (l.seen = true));
    };
    try {
      const idem = uniqueKey('full');
      const register = () =>
        fetch(`${url}/widget-api/v1/registrations?key=wk_demo_registration`, {
          method: 'POST',
          headers: writeHeaders(idem),
          body: JSON.stringify(registrationBody({ email: 'full.disk@example.org' })),
        });
      await command('fill');
      const full = await register();
      assert.equal(full.status, 503);
      assert.equal(full.headers.get('retry-after'), '30');
      const body = (await full.json()) as Json;
      assert.equal(body.error.code, 'unavailable');
      const cause = await program.line((l) => l.level === 'error');
      assert.match(JSON.stringify(cause), /SQLITE_FULL|database or disk is full/);
      assert.ok(!program.lines.some((l) => /no transaction is active/.test(JSON.stringify(l))), 'the cause is not hidden');

      await command('free');
      const taken = await register();
      assert.equal(taken.status, 201, await taken.clone().text());
    } finally {
      await command('stop').catch(() => {});
      child.kill('SIGTERM');
      await program.exited;
    }
  });
});

describe('a read-only store', () => {
  test('a start on a read-only disk stops and says so, rather than fail on the first write', async () => {
    const dataDir = folder();
    // A store made, then its folder mounted read-only (a disk remounted read-only after an error).
    const { program: first } = await serve({ DATA_DIR: dataDir });
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
    const child = inMountNamespace(
      `mount --bind "$DATA_DIR" "$DATA_DIR" && mount -o remount,bind,ro "$DATA_DIR" && exec "${process.execPath}" --import tsx service/main.ts --development`,
      { DATA_DIR: dataDir, PORT: '0', LOG_FORMAT: 'json' },
    );
    const program = new Program(child);
    assert.equal(await program.exited, 1);
    assert.match(program.stderr, /^The service cannot start: The store .*service\.sqlite cannot be opened for writing/);
    assert.match(program.stderr, /DATA_DIR .* is read-only: make it writable/);
  });
});
