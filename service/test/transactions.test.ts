/**
 * The transactional rules under concurrency: the store is asynchronous (Kysely), so requests
 * interleave between their queries; each rule must still hold as if they came one by one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Clock } from '../core/clock.ts';
import { randomId } from '../core/ids.ts';
import { openStore, type Store } from '../db/database.ts';
import { Refusal } from '../core/refusal.ts';
import { bookableClasses, decideSeats } from '../domain/seats.ts';
import { refusalAnswer } from '../http/errors.ts';
import { LOCAL_PAGE, otherPin, uniqueKey, useTestService, type Json } from './helpers.ts';

const svc = useTestService();

const P = '/widget-api/v1/participant';
const post = (path: string, body: Json | undefined, headers: Record<string, string> = {}) =>
  svc.postJson(path, body, { Origin: LOCAL_PAGE, ...headers });

describe('PIN guesses at once', () => {
  test('participants: 8 wrong guesses at once count 8 tries: 4 pin-wrong (4, 3, 2, 1 left), then pin-locked; the right PIN is dead', async () => {
    assert.equal(
      (await post(`${P}/login?key=wk_demo_profile`, { email: 'ada@example.org', return_url: `${LOCAL_PAGE}/` })).status,
      202,
    );
    const pin = await svc.lastPin('ada@example.org');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post(`${P}/verify?key=wk_demo_profile`, { email: 'ada@example.org', pin: otherPin(pin) })),
    );
    const wrong = answers.filter((a) => a.body.error.code === 'pin-wrong');
    assert.deepEqual(wrong.map((a) => a.body.error.attempts_left).sort(), [1, 2, 3, 4]);
    assert.equal(answers.filter((a) => a.body.error.code === 'pin-locked').length, 4);
    assert.equal(
      (await post(`${P}/verify?key=wk_demo_profile`, { email: 'ada@example.org', pin })).body.error.code,
      'pin-locked',
    );
  });

  test('REST users: 6 wrong guesses at once use up the PIN', async () => {
    const rest = { 'X-SERVICE-API-KEY': 'rk_demo_acme' };
    assert.equal((await post('/v1/login', { login: 'max.member@acme.example', verification_method: 'email' }, rest)).status, 200);
    const pin = await svc.lastPin('max.member@acme.example');
    const guesses = await Promise.all(
      Array.from({ length: 6 }, () =>
        post('/v1/verify', { action: 'validate_pin', email: 'max.member@acme.example', pin: otherPin(pin) }, rest),
      ),
    );
    assert.deepEqual(
      guesses.map((g) => g.status),
      Array(6).fill(401),
    );
    assert.equal((await post('/v1/verify', { action: 'validate_pin', email: 'max.member@acme.example', pin }, rest)).status, 401);
  });
});

describe('the waitlist under concurrency', () => {
  test('one place cancelled by five requests at once (other keys) frees one seat: one person moves up, once', async () => {
    assert.equal(
      (await post(`${P}/login?key=wk_demo_profile`, { email: 'ada@example.org', return_url: `${LOCAL_PAGE}/` })).status,
      202,
    );
    const { token } = (
      await post(`${P}/verify?key=wk_demo_profile`, { email: 'ada@example.org', pin: await svc.lastPin('ada@example.org') })
    ).body;
    const waitlisted = await svc.count(
      "SELECT count(*) FROM registrations WHERE class_id = 'cls_ts_1' AND status = 'waitlisted'",
    );
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        post(`${P}/registrations/reg_seed_ada_ts_1/cancel?key=wk_demo_profile`, undefined, {
          'X-Service-Token': token,
          'Idempotency-Key': uniqueKey(),
        }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(5).fill(200),
    );
    assert.equal(
      await svc.count("SELECT count(*) FROM registrations WHERE class_id = 'cls_ts_1' AND status = 'confirmed'"),
      8,
      'never overbooked',
    );
    assert.equal(
      await svc.count("SELECT count(*) FROM registrations WHERE class_id = 'cls_ts_1' AND status = 'waitlisted'"),
      waitlisted - 1,
    );
    const promoted = (await svc.outbox('grace@example.org')).filter((e: Json) => /freed up/.test(e.text));
    assert.equal(promoted.length, 1, 'Grace is told once');
  });
});

describe('one seat decision for several classes in one transaction (the checkout)', () => {
  let store: Store;
  let dataDir: string;
  const now = () => Date.now();
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'service-seats-'));
    store = await openStore(dataDir, new Clock(), { mode: 'development' });
  });
  after(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Books one place per class id given, all or nothing, as a checkout order would. */
  const book = (classIds: string[]) =>
    store.transaction(async (tx) => {
      const decisions = decideSeats(await bookableClasses(tx, { companyId: 1, classIds, now: now() }), now());
      for (const { cls, status } of decisions) {
        await tx
          .insertInto('registrations')
          .values({
            id: randomId('reg'),
            class_id: cls.id,
            participant_id: 'p_ada',
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: 'ada@example.org',
            phone: null,
            status,
            created_at: now(),
            widget_key: null,
            cancelled_at: null,
          })
          .execute();
      }
      return decisions.map((d) => [d.cls.id, d.status, d.after.seats_left]);
    });
  const confirmed = async (classId: string) =>
    Number(
      (
        await store.db
          .selectFrom('registrations')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('class_id', '=', classId)
          .where('status', '=', 'confirmed')
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('several places of one class count up within the decision: seats, then the waitlist', async () => {
    await store.reset();
    const decided = await book(Array(6).fill('cls_web_1'));
    assert.deepEqual(
      decided.map(([, status]) => status),
      [...Array(5).fill('confirmed'), 'waitlisted'],
    );
    assert.deepEqual(
      decided.map(([, , left]) => left),
      [4, 3, 2, 1, 0, 0],
    );
    assert.equal(await confirmed('cls_web_1'), 12);
  });

  test('a full class refuses the whole booking, and nothing of it is stored; an unknown or past class is 422', async () => {
    await store.reset();
    await assert.rejects(
      book(['cls_web_2', 'cls_lead_1']),
      (e: Refusal) => e instanceof Refusal && refusalAnswer(e).status === 409 && e.code === 'class-full',
    );
    assert.equal(await confirmed('cls_web_2'), 3, 'the open class of the refused booking keeps its seats');
    for (const classId of ['cls_nope', 'cls_web_past', 'cls_gx_safety_1']) {
      await assert.rejects(
        book(['cls_web_2', classId]),
        (e: Refusal) => e instanceof Refusal && refusalAnswer(e).status === 422 && 'class_id' in e.fields!,
      );
    }
  });

  test('12 bookings of two classes at once never overbook either', async () => {
    await store.reset();
    // cls_web_1: 5 seats left, then its waitlist; cls_lead_2: 6 seats, no waitlist.
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => book(['cls_web_1', 'cls_lead_2'])));
    const booked = results.filter((r) => r.status === 'fulfilled');
    assert.equal(booked.length, 6, 'cls_lead_2 takes six');
    assert.ok(results.filter((r) => r.status === 'rejected').every((r) => (r.reason as Refusal).code === 'class-full'));
    assert.equal(await confirmed('cls_lead_2'), 6);
    assert.equal(await confirmed('cls_web_1'), 12);
  });
});
