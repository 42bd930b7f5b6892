import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LOCAL_PAGE, participantToken, useTestService, type Json } from './helpers.ts';

const svc = useTestService();

const firstRender = (query = '') => svc.firstRender('wk_demo_video', 'video', query);
const askMedia = (id: string, token?: string, key = 'wk_demo_video') =>
  svc.json(`/widget-api/v1/videos/${id}/media?key=${key}`, {
    method: 'POST',
    headers: { Origin: LOCAL_PAGE, ...(token ? { 'X-Service-Token': token } : {}) },
  });
/** A file path of an answer, fetched as the player would (relative to the service). */
const file = (path: string, headers: Record<string, string> = {}) => svc.fetch(`/${path}`, { headers });

describe('GET /widget?type=video', () => {
  test('lists the company’s videos: poster, title, duration, programme, and the files of public ones only', async () => {
    const { status, body } = await firstRender();
    assert.equal(status, 200);
    assert.deepEqual(
      body.videos.map((v: Json) => [v.id, v.access, v.course?.title ?? null, v.duration_s, `${v.width}x${v.height}`]),
      [
        ['vid_welcome', 'public', null, 6, '320x180'],
        ['vid_web_intro', 'public', 'Web accessibility in practice', 6, '320x180'],
        ['vid_ts_session_1', 'participants', 'TypeScript for teams', 6, '320x180'],
      ],
    );
    const [welcome, , members] = body.videos;
    assert.deepEqual(
      welcome.media.tracks.map((t: Json) => t.lang),
      ['en', 'de'],
    );
    assert.equal(members.media, null, 'a participants-only video names no file');
    assert.equal((await file(members.poster)).status, 200, 'its poster is public');
  });

  test('one video with `video`; an unknown one is video-not-found', async () => {
    const one = await firstRender('&video=vid_web_intro');
    assert.deepEqual(
      one.body.videos.map((v: Json) => v.id),
      ['vid_web_intro'],
    );
    const unknown = await firstRender('&video=vid_nope');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'video-not-found');
  });
});

describe('the files', () => {
  test('answer range requests (206), so that the player seeks, with CORS for the captions', async () => {
    const { body } = await firstRender('&video=vid_welcome');
    const { src, tracks } = body.videos[0].media;
    const whole = await file(src);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('content-type'), 'video/webm');
    const size = Number(whole.headers.get('content-length'));
    const part = await file(src, { Range: 'bytes=100-199' });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 100-199/${size}`);
    assert.equal((await part.arrayBuffer()).byteLength, 100);
    const captions = await file(tracks[1].src, { Origin: LOCAL_PAGE });
    assert.equal(captions.headers.get('access-control-allow-origin'), '*');
    assert.match(await captions.text(), /^WEBVTT\n[^]*Willkommen/);
  });

  test('a participants-only video’s picture and captions are never public files', async () => {
    for (const name of ['video.webm', 'captions.en.vtt']) {
      const res = await svc.json(`/media/videos/vid_ts_session_1/${name}`);
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'media-link-invalid');
    }
    assert.equal((await svc.fetch('/media/videos/vid_welcome/captions.fr.vtt')).status, 404);
    assert.equal((await svc.fetch('/media/videos/vid_welcome/..%2Fwelcome.webm')).status, 404);
  });

  test('every answer carries Access-Control-Allow-Origin: *, refusals too (a page reads why with CORS)', async () => {
    const token = await participantToken(svc, 'ada@example.org');
    const { src } = (await askMedia('vid_ts_session_1', token)).body.media;
    await svc.advance(10 * 60 + 1);
    const answers: [string, number][] = [
      ['media/videos/vid_welcome/poster.jpg', 200],
      ['media/videos/vid_ts_session_1/video.webm', 403],
      [src, 403],
      ['media/videos/vid_welcome/captions.fr.vtt', 404],
      ['media/videos/vid_nope/poster.jpg', 404],
    ];
    for (const [path, status] of answers) {
      const res = await file(path, { Origin: LOCAL_PAGE });
      assert.equal(res.status, status, path);
      assert.equal(res.headers.get('access-control-allow-origin'), '*', `${path} (${status})`);
      assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin', `${path} (${status})`);
    }
  });
});

describe('POST /videos/{id}/media', () => {
  test('needs a signed-in participant of the company', async () => {
    for (const token of [undefined, 'ptok_nobody_knows']) {
      const res = await askMedia('vid_ts_session_1', token);
      assert.equal(res.status, 401);
      assert.equal(res.body.error.code, 'invalid-token');
    }
    // A participant of another company is no participant here.
    const katherine = await participantToken(svc, 'katherine@example.net', 'wk_globex_profile');
    assert.equal((await askMedia('vid_ts_session_1', katherine)).body.error.code, 'invalid-token');
  });

  test('hands a participant paths signed for ten minutes, without the token; they answer ranges, then expire', async () => {
    const token = await participantToken(svc, 'ada@example.org');
    const { status, body } = await askMedia('vid_ts_session_1', token);
    assert.equal(status, 200);
    const { src, tracks, expires_at } = body.media;
    assert.match(src, /^media\/videos\/vid_ts_session_1\/video\.webm\?expires=\d+&signature=[\w-]+$/);
    assert.ok(!src.includes(token) && !tracks[0].src.includes(token), 'the token stays out of the URL');
    const now = (await svc.json('/dev/clock')).body.now;
    assert.ok(Math.abs(Date.parse(body.now) - Date.parse(now)) < 1000, 'the service’s time, by its clock');
    assert.equal(Date.parse(expires_at) - Date.parse(body.now), 10 * 60 * 1000, 'ten minutes from now');

    const part = await file(src, { Range: 'bytes=0-99' });
    assert.equal(part.status, 206);
    assert.equal((await file(tracks[0].src)).status, 200);
    const altered = src.replace(/signature=./, (s: string) => (s.endsWith('A') ? `${s.slice(0, -1)}B` : `${s.slice(0, -1)}A`));
    assert.equal((await svc.json(`/${altered}`)).body.error.code, 'media-link-invalid');

    await svc.advance(10 * 60 + 1);
    const expired = await svc.json(`/${src}`);
    assert.equal(expired.status, 403);
    assert.equal(expired.body.error.code, 'media-link-expired');
    const again = await askMedia('vid_ts_session_1', token);
    assert.equal((await file(again.body.media.src)).status, 200, 'a new link works');
  });

  test('a signature is taken in the one spelling the service writes: other base64 spellings of it are refused', async () => {
    const token = await participantToken(svc, 'ada@example.org');
    const { src } = (await askMedia('vid_ts_session_1', token)).body.media;
    const [, path, expires, signature] = /^(.*)\?expires=(\d+)&signature=([\w-]+)$/.exec(src)!;
    assert.equal(signature!.length, 43);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // The last character carries 4 bits of the digest and 2 unused ones: the same bytes, another string.
    const last = signature!.at(-1)!;
    const spellings = [
      `${signature}=`,
      `${signature!.slice(0, -1)}${alphabet[alphabet.indexOf(last) ^ 1]}`,
      `${signature!.slice(0, -1)}${alphabet[alphabet.indexOf(last) ^ 3]}`,
      signature!.replace(/-/g, '+').replace(/_/g, '/') + (/[-_]/.test(signature!) ? '' : '=='),
    ];
    assert.equal((await file(src)).status, 200, 'the signature as written works');
    const padded = await svc.json(`/${path}?expires=0${expires}&signature=${signature}`);
    assert.equal(padded.body.error.code, 'media-link-invalid', 'the expiry as written too (no leading zero)');
    for (const other of spellings) {
      assert.notEqual(other, signature);
      assert.deepEqual(Buffer.from(other, 'base64url'), Buffer.from(signature!, 'base64url'), 'the same bytes');
      const res = await svc.json(`/${path}?expires=${expires}&signature=${encodeURIComponent(other)}`);
      assert.equal(res.status, 403, other);
      assert.equal(res.body.error.code, 'media-link-invalid');
    }
  });

  test('another company’s video, or an unknown one, is not-found; a key of another type is refused', async () => {
    const token = await participantToken(svc, 'ada@example.org');
    assert.equal((await askMedia('vid_nope', token)).status, 404);
    const other = await askMedia('vid_ts_session_1', token, 'wk_demo_map');
    assert.equal(other.status, 403);
    assert.equal(other.body.error.code, 'type-mismatch');
  });
});

describe('who may watch a participants-only video', () => {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    svc.json(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: LOCAL_PAGE, 'Idempotency-Key': `v-${Math.random()}`, ...headers },
      body: JSON.stringify(body),
    });
  /** An order of one seat of cls_ts_2 ("TypeScript for teams") by `email`. */
  const buy = async (email: string, payment_method: 'invoice' | 'card') => {
    const res = await post('/widget-api/v1/orders?key=wk_demo_checkout', {
      items: [{ class_id: 'cls_ts_2', seats: 1, attendees: [{ first_name: 'Alan', last_name: 'Turing' }] }],
      buyer: {
        first_name: 'Alan',
        last_name: 'Turing',
        email,
        address: { line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' },
      },
      payment_method,
      return_url: `${LOCAL_PAGE}/checkout`,
      consent: true,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { order: Json; token: string };
  };
  /** Refused; `unpaid`: with a confirmed place in the programme that is not paid yet, which the refusal says. */
  const refused = async (token: string, unpaid = false) => {
    const res = await askMedia('vid_ts_session_1', token);
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'participants-only');
    assert.equal(
      res.body.error.message,
      unpaid
        ? "This recording plays once the participant's place in TypeScript for teams is paid."
        : 'This recording is for participants of TypeScript for teams: it plays for a paid (or free) place in one of its classes.',
    );
    assert.deepEqual(res.body.error.course, { id: 'crs_ts', title: 'TypeScript for teams' });
    assert.equal(res.body.error.unpaid, unpaid);
    assert.equal(res.body.media, undefined);
  };

  test('a participant of another programme (the free open day) gets 403 participants-only, and the public videos', async () => {
    const email = 'open.day@example.org';
    const registered = await post('/widget-api/v1/registrations?key=wk_demo_registration', {
      class_id: 'cls_open_1',
      first_name: 'Open',
      last_name: 'Day',
      email,
      consent: true,
    });
    assert.equal(registered.body.registration.status, 'confirmed');
    const token = await participantToken(svc, email);
    await refused(token);
    assert.equal((await askMedia('vid_welcome', token)).status, 200, 'a public video plays for anyone signed in');
  });

  test('a waitlist place is no place; a confirmed one is, until it is cancelled', async () => {
    await refused(await participantToken(svc, 'grace@example.org')); // waitlisted in cls_ts_1
    const ada = await participantToken(svc, 'ada@example.org'); // confirmed in cls_ts_1
    assert.equal((await askMedia('vid_ts_session_1', ada)).status, 200);
    const cancelled = await post(
      `/widget-api/v1/participant/registrations/reg_seed_ada_ts_1/cancel?key=wk_demo_profile`,
      {},
      { 'X-Service-Token': ada },
    );
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    await refused(ada);
  });

  test('a place through the registration widget, in a class that costs money, is no paid place', async () => {
    const email = 'registered.unpaid@example.org';
    const registered = await post('/widget-api/v1/registrations?key=wk_demo_registration', {
      class_id: 'cls_ts_2',
      first_name: 'Unpaid',
      last_name: 'Place',
      email,
      consent: true,
    });
    assert.equal(registered.body.registration.status, 'confirmed');
    await refused(await participantToken(svc, email), true);
  });

  test('a buyer: not while the card payment is waiting, nor after an unpaid order was cancelled, nor by invoice not yet paid; once paid by card, yes', async () => {
    const waiting = await buy('card.buyer@example.org', 'card');
    const buyer = await participantToken(svc, 'card.buyer@example.org');
    await refused(buyer, true);
    const pay = new URL(waiting.order.payment.redirect_url).pathname;
    assert.equal((await svc.fetch(`${pay}/pay`, { method: 'POST', redirect: 'manual' })).status, 303);
    assert.equal((await askMedia('vid_ts_session_1', buyer)).status, 200, 'paid');

    const gaveUp = await buy('gave.up@example.org', 'card');
    const cancel = await post(`/widget-api/v1/orders/${gaveUp.order.id}/cancel?key=wk_demo_checkout`, undefined, {
      'X-Order-Token': gaveUp.token,
    });
    assert.equal(cancel.body.order.status, 'cancelled');
    await refused(await participantToken(svc, 'gave.up@example.org'));

    await buy('invoice.buyer@example.org', 'invoice');
    await refused(await participantToken(svc, 'invoice.buyer@example.org'), true);
  });
});
