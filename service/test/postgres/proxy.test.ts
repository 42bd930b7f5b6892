/**
 * The README's example of two processes behind a proxy, run as an operator would: the README's own
 * nginx block (only its ports and certificate files are this machine's), two `npm run serve`
 * processes on one PostgreSQL database, and HTTPS requests to nginx. Everything answers through the
 * one address, both processes take requests, a visitor's own X-Forwarded-For changes nothing about
 * the limits they meet, and a process that stops loses no request.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort, selfSignedCertificate } from '../../../test/serving.ts';
import { REPO_ROOT } from '../../server.ts';
import { TEST_POSTGRES, freshDatabase, registrationBody, uniqueKey } from '../helpers.ts';
import { logged, serve, stopAll, type Process } from './serve.ts';

if (!TEST_POSTGRES)
  throw new Error('These tests need a PostgreSQL server: SERVICE_TEST_DATABASE_URL=postgres://… (npm test finds or starts one).');
const NGINX = process.env.NGINX_PATH;
if (!NGINX) throw new Error('These tests run nginx: NGINX_PATH=/usr/sbin/nginx (npm test finds or installs it).');

const LOCAL_PAGE = 'http://localhost:5173';
let drop: () => Promise<void>;
let dir = '';
let port = 0;
let cert = '';
let nginx: ChildProcess | undefined;
const processes: Process[] = [];

/** The README's nginx block, with this machine's ports and certificate: each replaced line must be there. */
function siteConfig(first: number, second: number, certificate: { key: string; cert: string }): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /<!-- nginx example[^>]*-->\s*```nginx\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, 'the README has its nginx example');
  const replacements: [RegExp, string][] = [
    [/server 127\.0\.0\.1:8801;/, `server 127.0.0.1:${first};`],
    [/server 127\.0\.0\.1:8802;/, `server 127.0.0.1:${second};`],
    [/listen 443 /, `listen 127.0.0.1:${port} `],
    [/ssl_certificate +\S+;/, `ssl_certificate ${certificate.cert};`],
    [/ssl_certificate_key +\S+;/, `ssl_certificate_key ${certificate.key};`],
  ];
  return replacements.reduce((text, [pattern, by]) => {
    assert.match(text, pattern, `the README's nginx block has ${pattern}`);
    return text.replace(pattern, by);
  }, block);
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to nginx over HTTPS (its certificate is the test's own), as a visitor's browser sends it. */
function through(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: init.method ?? (body ? 'POST' : 'GET'),
        servername: 'localhost',
        ca: cert,
        agent: false,
        headers: {
          Host: 'localhost',
          Origin: LOCAL_PAGE,
          ...(body ? { 'Content-Type': 'application/json', 'Idempotency-Key': uniqueKey() } : {}),
          ...init.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('latin1');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/** nginx, started on the README's block: resolves once it answers over HTTPS. */
async function startNginx(): Promise<void> {
  const certificate = selfSignedCertificate(dir, 'localhost');
  cert = readFileSync(certificate.cert, 'utf8');
  writeFileSync(join(dir, 'site.conf'), siteConfig(processes[0]!.port, processes[1]!.port, certificate));
  // The frame an nginx.conf gives a site: this folder for everything nginx writes.
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')};
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path ${join(dir, 'body')};
    proxy_temp_path ${join(dir, 'proxy')};
    fastcgi_temp_path ${join(dir, 'fastcgi')};
    uwsgi_temp_path ${join(dir, 'uwsgi')};
    scgi_temp_path ${join(dir, 'scgi')};
    include ${join(dir, 'site.conf')};
}
`,
  );
  const started = spawn(NGINX!, ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  nginx = started;
  let stderr = '';
  started.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const stopped = new Promise<never>((_, reject) =>
    started.once('exit', (code) =>
      reject(new Error(`nginx stopped (${code}): ${stderr}${readFileSync(join(dir, 'error.log'), 'utf8')}`)),
    ),
  );
  // nginx says nothing once it listens: its port is asked until it answers (or nginx stops).
  const answers = async (): Promise<void> => {
    for (;;) {
      const answer = await through('/healthz').catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ECONNREFUSED') throw err;
        return undefined;
      });
      if (answer) return assert.equal(answer.status, 200, answer.body);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await Promise.race([answers(), stopped]);
}

before(
  async () => {
    let url: string;
    ({ url, drop } = await freshDatabase());
    dir = mkdtempSync(join(tmpdir(), 'service-nginx-'));
    port = await freePort();
    const env = { PUBLIC_URL: `https://localhost:${port}` };
    processes.push(await serve(url, dir, env));
    processes.push(await serve(url, dir, env));
    await startNginx();
  },
  { timeout: 60_000 },
);
after(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((resolve) => nginx!.once('exit', resolve));
    nginx.kill('SIGQUIT');
    await exited;
  }
  await stopAll();
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the README's two processes behind nginx", () => {
  test('one address serves the widget API, the loaders and the REST API, with the service’s own headers', async () => {
    assert.equal((await through('/readyz')).status, 200);
    const render = await through('/widget-api/v1/widget?key=wk_demo_registration&type=registration', {
      headers: { 'Accept-Encoding': 'br' },
    });
    assert.equal(render.status, 200);
    assert.equal(render.headers['content-encoding'], 'br', 'the service’s compression passes through');
    // The loader as the service sends it, through nginx and straight: the same bytes and headers,
    // its build's compressed copy too.
    for (const encoding of ['identity', 'br']) {
      const headers = { 'Accept-Encoding': encoding };
      const loader = await through('/widgets/v1/loader.js', { headers });
      const direct = await fetch(`${processes[0]!.url}/widgets/v1/loader.js`, { headers });
      assert.equal(loader.status, 200);
      assert.equal(loader.headers['cache-control'], direct.headers.get('cache-control'));
      assert.equal(loader.headers['etag'], direct.headers.get('etag'), encoding);
      assert.equal(loader.headers['content-encoding'], encoding === 'br' ? 'br' : undefined);
      if (encoding === 'identity') assert.equal(loader.body, await direct.text());
    }
    const rest = await through('/v1/login', {
      body: { login: 'olivia.owner@acme.example', verification_method: 'client_secret', client_secret: 'cs_demo_acme_secret' },
      headers: { 'X-SERVICE-API-KEY': 'rk_demo_acme' },
    });
    assert.equal(rest.status, 200, rest.body);
  });

  test('requests are spread over both processes', async () => {
    const before = processes.map((p) => p.requests.length);
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await through('/widget-api/v1/widget?key=wk_demo_calendar&type=calendar'));
    assert.deepEqual(
      answers.map((a) => a.status),
      Array<number>(20).fill(200),
    );
    // Each answer is in one log or the other, and each process answered some.
    await logged(processes, before[0]! + before[1]! + 20);
    const served = processes.map((p, i) => p.requests.slice(before[i]).filter((path) => path === '/widget-api/v1/widget'));
    assert.equal(served[0]!.length + served[1]!.length, 20);
    assert.ok(
      served.every((s) => s.length >= 5),
      `each process answered some of the 20: ${served.map((s) => s.length).join(' and ')}`,
    );
  });

  test('a visitor’s own X-Forwarded-For is replaced: the limit counts the address nginx saw, on both processes together', async () => {
    const statuses = [];
    for (let i = 1; i <= 11; i++) {
      const answer = await through('/widget-api/v1/registrations?key=wk_demo_registration', {
        body: registrationBody(),
        headers: { 'X-Forwarded-For': `198.51.100.${i}` },
      });
      statuses.push(answer.status);
    }
    assert.deepEqual(statuses, [...Array<number>(10).fill(201), 429], 'ten registrations per address, then 429');
  });

  test('a process stopped (SIGTERM) while requests arrive loses none: nginx sends them to the other', async () => {
    const [first, second] = processes as [Process, Process];
    let stopping: Promise<number | null> | undefined;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        through(i % 4 ? '/widget-api/v1/widget?key=wk_demo_map&type=map' : '/widget-api/v1/checkout/quote?key=wk_demo_checkout', {
          ...(i % 4 ? {} : { body: { items: [{ class_id: 'cls_web_1', seats: 1 }] } }),
        }).then((answer) => {
          // Once the first answers have come, while the rest are on their way.
          if (!stopping) {
            first.child.kill('SIGTERM');
            stopping = first.exited;
          }
          return answer;
        }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      Array<number>(40).fill(200),
    );
    assert.equal(await stopping, 0);
    // After it: the other process answers everything.
    const after = second.requests.length;
    const more = await Promise.all(Array.from({ length: 5 }, () => through('/widget-api/v1/widget?key=wk_demo_map&type=map')));
    assert.deepEqual(
      more.map((a) => a.status),
      Array<number>(5).fill(200),
    );
    await logged([second], after + 5);
  });
});
