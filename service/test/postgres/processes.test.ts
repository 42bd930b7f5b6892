/**
 * Two service processes on one PostgreSQL database behave as one service: the store seeded once,
 * N+10 concurrent bookings (registrations and checkout orders mixed, spread over both) confirm
 * exactly N, a replay sent to the other process answers the same record, the rate limits and the
 * development clock are shared. Each process is a real `npm run serve` on its own port.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { TEST_POSTGRES, freshDatabase, registrationBody, uniqueKey, type Json } from '../helpers.ts';
import { serve, stopAll, type Process } from './serve.ts';

if (!TEST_POSTGRES)
  throw new Error('These tests need a PostgreSQL server: SERVICE_TEST_DATABASE_URL=postgres://… (npm test finds or starts one).');

const LOCAL_PAGE = 'http://localhost:5173';
let url = '';
let drop: () => Promise<void>;
let folder = '';
const processes: Process[] = [];
/** `npm run serve` on the database, as its own process: resolves once it listens. */
const serveHere = () => serve(url, folder);

const query = async <T = Json>(sql: string, params: unknown[] = []): Promise<T[]> => {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
};

let visitor = 0;
/** A POST from a visitor of its own (the service trusts this machine as its proxy). */
const post = (
  to: Process,
  path: string,
  body: unknown,
  { idem = uniqueKey(), address = `203.0.113.${(visitor = (visitor % 250) + 1)}` } = {},
) =>
  fetch(`${to.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idem, Origin: LOCAL_PAGE, 'X-Forwarded-For': address },
    body: JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, headers: res.headers, body: (await res.json()) as Json }));

before(
  async () => {
    ({ url, drop } = await freshDatabase());
    folder = mkdtempSync(join(tmpdir(), 'service-processes-'));
    // Both at once on an empty database: the migrations and the seed happen once.
    const started = await Promise.allSettled([serveHere(), serveHere()]);
    for (const s of started) if (s.status === 'fulfilled') processes.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  },
  { timeout: 60_000 },
);
after(async () => {
  await stopAll();
  await drop();
  rmSync(folder, { recursive: true, force: true });
});

describe('two processes on one PostgreSQL database', () => {
  test('started together on an empty database, they migrate and seed it once', async () => {
    assert.deepEqual(await query('select count(*)::int as n from companies'), [{ n: 2 }]);
    assert.deepEqual(await query("select count(*)::int as n from widget_keys where key = 'wk_demo_registration'"), [{ n: 1 }]);
  });

  test('N+10 concurrent bookings over both, registrations and orders mixed, confirm exactly N', async () => {
    const N = 5;
    const [{ n: before }] = await query<{ n: number }>(
      "select count(*)::int as n from registrations where class_id = 'cls_web_2' and status = 'confirmed'",
    );
    await query("update classes set capacity = $1, waitlist = 0 where id = 'cls_web_2'", [before + N]);
    const attempts = Array.from({ length: N + 10 }, (_, i) => {
      const to = processes[i % 2]!;
      if (i % 3 === 0) {
        return post(to, '/widget-api/v1/orders?key=wk_demo_checkout', {
          items: [{ class_id: 'cls_web_2', seats: 1, attendees: [{ first_name: 'Grace', last_name: `Hopper ${i}` }] }],
          buyer: {
            first_name: 'Grace',
            last_name: 'Hopper',
            email: `order.${i}@example.org`,
            address: { line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' },
          },
          payment_method: 'invoice',
          return_url: `${LOCAL_PAGE}/checkout`,
          consent: true,
        });
      }
      return post(
        to,
        '/widget-api/v1/registrations?key=wk_demo_registration',
        registrationBody({ class_id: 'cls_web_2', email: `booking.${i}@example.org` }),
      );
    });
    const answers = await Promise.all(attempts);
    const taken = answers.filter((a) => a.status === 201);
    assert.equal(taken.length, N, answers.map((a) => `${a.status} ${a.body.error?.code ?? ''}`).join(', '));
    for (const refused of answers.filter((a) => a.status !== 201))
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.deepEqual(
      await query("select count(*)::int as n from registrations where class_id = 'cls_web_2' and status = 'confirmed'"),
      [{ n: before + N }],
    );
  });

  test('a replay sent to the other process answers the same record', async () => {
    const idem = uniqueKey('replay');
    const body = registrationBody({ class_id: 'cls_open_1', email: 'replayed@example.org' });
    const first = await post(processes[0]!, '/widget-api/v1/registrations?key=wk_demo_registration', body, {
      idem,
      address: '198.51.100.7',
    });
    assert.equal(first.status, 201);
    const again = await post(processes[1]!, '/widget-api/v1/registrations?key=wk_demo_registration', body, {
      idem,
      address: '198.51.100.7',
    });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.registration.id, first.body.registration.id);
    assert.deepEqual(await query("select count(*)::int as n from registrations where email = 'replayed@example.org'"), [
      { n: 1 },
    ]);
  });

  test('the limits hold across processes: ten registrations from one address in all, then 429 at either', async () => {
    const address = '198.51.100.99';
    for (let i = 0; i < 10; i++) {
      const res = await post(
        processes[i % 2]!,
        '/widget-api/v1/registrations?key=wk_demo_registration',
        registrationBody({ class_id: 'cls_open_1', email: `limited.${i}@example.org` }),
        { address },
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    for (const p of processes) {
      const refused = await post(
        p,
        '/widget-api/v1/registrations?key=wk_demo_registration',
        registrationBody({ class_id: 'cls_open_1', email: 'one.more@example.org' }),
        { address },
      );
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, 'rate-limited');
    }
  });

  test('an unpaid card order whose time is up is released once, whichever process sees it first, and the waitlist moves up once', async () => {
    const [{ n: confirmed }] = await query<{ n: number }>(
      "select count(*)::int as n from registrations where class_id = 'cls_web_2' and status = 'confirmed'",
    );
    await query("update classes set capacity = $1, waitlist = 1, waitlist_capacity = null where id = 'cls_web_2'", [
      confirmed + 1,
    ]);
    const order = await post(processes[0]!, '/widget-api/v1/orders?key=wk_demo_checkout', {
      items: [{ class_id: 'cls_web_2', seats: 1, attendees: [{ first_name: 'Unpaid', last_name: 'Card' }] }],
      buyer: {
        first_name: 'Unpaid',
        last_name: 'Card',
        email: 'unpaid.card@example.org',
        address: { line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' },
      },
      payment_method: 'card',
      return_url: `${LOCAL_PAGE}/checkout`,
      consent: true,
    });
    assert.equal(order.status, 201, JSON.stringify(order.body));
    const waiting = await post(
      processes[1]!,
      '/widget-api/v1/registrations?key=wk_demo_registration',
      registrationBody({ class_id: 'cls_web_2', email: 'next.in.line@example.org' }),
    );
    assert.equal(waiting.body.registration.status, 'waitlisted');

    // Past the hold, both processes look at once, again and again.
    await fetch(`${processes[0]!.url}/dev/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance_s: 16 * 60 }),
    });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        fetch(`${processes[i % 2]!.url}/widget-api/v1/widget?key=wk_demo_registration&type=registration`, {
          headers: { Origin: LOCAL_PAGE },
        }).then((r) => r.arrayBuffer()),
      ),
    );
    assert.deepEqual(await query('select status from orders where id = $1', [order.body.order.id]), [{ status: 'cancelled' }]);
    assert.deepEqual(await query("select status from registrations where email = 'next.in.line@example.org'"), [
      { status: 'confirmed' },
    ]);
    assert.deepEqual(
      await query("select count(*)::int as n from outbox where to_addr = 'next.in.line@example.org'"),
      [{ n: 2 }],
      'the waitlist email, and one email that a place is theirs',
    );
  });

  test('the development clock is one: moved at one process, the other keeps its time', async () => {
    const moved = await fetch(`${processes[0]!.url}/dev/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance_s: 3600 }),
    });
    assert.equal(moved.status, 200);
    const { offset_s } = (await moved.json()) as Json;
    assert.ok(offset_s >= 3600);
    const other = (await (await fetch(`${processes[1]!.url}/dev/clock`)).json()) as Json;
    assert.equal(other.offset_s, offset_s);
  });
});
