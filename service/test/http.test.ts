/**
 * The HTTP layer under hostile or broken clients: every answer in the error shape, nothing logged as
 * a failure of ours, no connection held open by a client that stops sending.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { rawRequest, registrationBody, startTestService, uniqueKey, writeHeaders, type TestService } from './helpers.ts';

const PATH = '/widget-api/v1/registrations?key=wk_demo_registration';
let svc: TestService;
before(async () => {
  svc = await startTestService({ bodyTimeoutMs: 300 });
});
after(() => svc.close());

/** Sends raw bytes on a new connection and resolves with everything the server wrote back before closing. */
const rawExchange = (url: string, bytes: string) =>
  new Promise<string>((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });

const parse = (answer: string) => {
  const [head, body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head!.split(' ')[1]), head: head!, body };
};

describe('the Host header', () => {
  test('HTTP/1.0 without Host, HTTP/1.1 without Host, and a malformed Host: 400 in the error shape', async () => {
    for (const request of [
      'GET /dev/seed HTTP/1.0\r\n\r\n',
      'GET /dev/seed HTTP/1.1\r\nConnection: close\r\n\r\n',
      'GET /dev/seed HTTP/1.1\r\nHost: exa mple.com:x\r\nConnection: close\r\n\r\n',
      'GET /dev/seed HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n',
    ]) {
      const { status, head, body } = parse(await rawExchange(svc.url, request));
      assert.equal(status, 400, request);
      assert.match(head, /content-type: application\/json; charset=utf-8/i, request);
      const error = JSON.parse(body).error;
      assert.equal(error.code, 'bad-request');
      assert.match(error.message, /Host header/);
    }
  });
});

describe('DNS rebinding: a development service answers its own host names only', () => {
  const asHost = (host: string, path: string, init: { method?: string; body?: string } = {}) =>
    rawRequest(svc.url, {
      method: init.method ?? 'GET',
      path,
      headers: { Host: host, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
      chunks: init.body ? [init.body] : [],
    });

  test('a page on a name that resolves to this machine gets 421 in the error shape: no outbox, no new origin for a key', async () => {
    const { port } = new URL(svc.url);
    const origins = async () =>
      (await svc.json('/dev/widget-keys')).body.widget_keys.find((k: { key: string }) => k.key === 'wk_demo_profile').origins;
    const before = await origins();
    for (const host of [
      `rebind.attacker.example:${port}`,
      'rebind.attacker.example',
      '127.0.0.1.nip.example',
      `localhost.attacker.example:${port}`,
    ]) {
      const outbox = await asHost(host, '/dev/outbox');
      assert.equal(outbox.status, 421, host);
      assert.match(String(outbox.headers['content-type']), /^application\/json/);
      const { error } = JSON.parse(outbox.body);
      assert.equal(error.code, 'misdirected-request');
      assert.match(error.message, /answers requests for localhost, 127\.0\.0\.1, \[::1\] and the host of its PUBLIC_URL only/);
      assert.doesNotMatch(outbox.body, /"pin"/);
      const added = await asHost(host, '/dev/widget-keys', {
        method: 'POST',
        body: JSON.stringify({ key: 'wk_demo_profile', origins: ['https://rebind.attacker.example'] }),
      });
      assert.equal(added.status, 421, host);
      assert.equal((await asHost(host, '/widget-api/v1/widget?key=wk_demo_registration&type=registration')).status, 421);
    }
    assert.deepEqual(await origins(), before, 'the key serves no new origin');
  });

  test('an absolute request target names its host too: another host there is 421 whatever the Host header', async () => {
    const { status, body } = parse(
      await rawExchange(
        svc.url,
        'GET http://rebind.attacker.example/dev/seed HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      ),
    );
    assert.equal(status, 421);
    assert.equal(JSON.parse(body).error.code, 'misdirected-request');
    const own = parse(
      await rawExchange(svc.url, 'GET http://localhost/dev/clock HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
    );
    assert.equal(own.status, 200);
  });

  test('this machine’s own names, on any port, and the host of PUBLIC_URL are answered', async () => {
    for (const host of ['localhost', 'localhost:8787', '127.0.0.1:1', '[::1]:8787', 'acme.localhost:3000', 'LOCALHOST']) {
      assert.equal((await asHost(host, '/dev/clock')).status, 200, host);
    }
    const behind = await startTestService({ publicUrl: 'https://dev.acme.example:8443/booking' });
    try {
      const answer = await rawRequest(behind.url, { path: '/dev/clock', headers: { Host: 'dev.acme.example' } });
      assert.equal(answer.status, 200);
      assert.equal((await rawRequest(behind.url, { path: '/dev/clock', headers: { Host: 'acme.example' } })).status, 421);
    } finally {
      await behind.close();
    }
  });
});

describe('request bodies', () => {
  // The service runs with a body timeout of 300 ms: without one, Node held the connection 5 minutes.
  test(
    'a body that stops arriving (shorter than its Content-Length) is 408 after the body timeout, and the connection closes',
    { timeout: 5000 },
    async () => {
      const answer = await rawExchange(
        svc.url,
        `POST ${PATH} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nIdempotency-Key: ${uniqueKey()}\r\nContent-Length: 400\r\n\r\n{"class_id":`,
      );
      const { status, body } = parse(answer);
      assert.equal(status, 408);
      assert.equal(JSON.parse(body).error.code, 'request-timeout');
    },
  );

  test('an oversized body from a slow client that reads only after sending gets its 413, not a closed connection', async () => {
    // Many HTTP clients send the whole body before they read the answer. This one sends 320 KiB
    // over about a second, as a slow network would; a server that answered at 16 KiB and then
    // closed left it writing into a closed connection (EPIPE), and the 413 was never read.
    const patient = await startTestService(); // the default body timeout, 10 s
    const writeThenRead = () =>
      new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(patient.url);
        const socket = connect(Number(port), hostname);
        socket.pause();
        let answer = '';
        socket.on('error', reject);
        socket.on('connect', async () => {
          socket.write(
            `POST ${PATH} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nIdempotency-Key: ${uniqueKey()}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
          );
          for (let i = 0; i < 40; i++) {
            socket.write(`2000\r\n${'x'.repeat(8192)}\r\n`);
            await delay(25);
          }
          socket.write('0\r\n\r\n');
          socket.setEncoding('utf8');
          socket.on('data', (d: string) => (answer += d));
          socket.on('end', () => resolve(answer));
          socket.resume();
        });
      });
    try {
      const { status, body } = parse(await writeThenRead());
      assert.equal(status, 413);
      assert.equal(JSON.parse(body).error.code, 'payload-too-large');
    } finally {
      await patient.close();
    }
  });

  test('a client that goes away mid-body is not logged as a failure of the service', async () => {
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      for (let i = 0; i < 5; i++) {
        await new Promise<void>((resolve) => {
          const { hostname, port } = new URL(svc.url);
          const socket = connect(Number(port), hostname, () => {
            socket.write(
              `POST ${PATH} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nIdempotency-Key: ${uniqueKey()}\r\nContent-Length: 2000\r\n\r\n{"class_id":"cls`,
              () => setImmediate(() => socket.destroy()),
            );
          });
          socket.on('close', () => resolve());
        });
      }
      // The service still answers, and has had the time to handle the cut-off requests.
      const res = await svc.json(PATH, {
        method: 'POST',
        headers: writeHeaders(uniqueKey()),
        body: JSON.stringify(registrationBody()),
      });
      assert.equal(res.status, 201);
      await svc.json('/dev/seed');
    } finally {
      console.error = original;
    }
    assert.deepEqual(logged, []);
  });
});

describe('/dev/reset', () => {
  test('needs the JSON content type, so that no page of another site can send it; curl with -H works', async () => {
    assert.equal((await svc.json('/dev/reset', { method: 'POST' })).status, 415, 'no body and no type, as curl -X POST sends');
    for (const headers of [{ 'Content-Type': 'text/plain' }, { 'Content-Type': 'application/x-www-form-urlencoded' }]) {
      const res = await svc.json('/dev/reset', { method: 'POST', headers, body: '' });
      assert.equal(res.status, 415, JSON.stringify(headers));
    }
    assert.equal((await svc.json('/dev/reset', { method: 'POST', headers: { 'Content-Type': 'application/json' } })).status, 200);
    assert.equal(
      (await svc.json('/dev/reset', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status,
      200,
    );
  });
});
