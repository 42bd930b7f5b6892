import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LOCAL_PAGE, participantToken, useTestService, type Json } from './helpers.ts';

const svc = useTestService();

const firstRender = (query = '') =>
  svc.json(`/widget-api/v1/widget?key=wk_demo_video&type=video${query}`, { headers: { Origin: LOCAL_PAGE } });
const askMedia = (id: string, token?: string, key = 'wk_demo_video') =>
  svc.json(`/widget-api/v1/videos/${id}/media?key=${key}`, {
    method: 'POST',
    headers: { Origin: LOCAL_PAGE, ...(token ? { 'X-Service-Token': token } : {}) },
  });
/** A file path of an answer, fetched as the player would (relative to the service). */
const file = (path: string, headers: Record<string, string> = {}) => svc.fetch(`/${path}`, { headers });
const advance = (seconds: number) =>
  svc.fetch('/dev/clock', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advance_s: seconds }),
  });

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
    await advance(10 * 60 + 1);
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

    await advance(10 * 60 + 1);
    const expired = await svc.json(`/${src}`);
    assert.equal(expired.status, 403);
    assert.equal(expired.body.error.code, 'media-link-expired');
    const again = await askMedia('vid_ts_session_1', token);
    assert.equal((await file(again.body.media.src)).status, 200, 'a new link works');
  });

  test('another company’s video, or an unknown one, is not-found; a key of another type is refused', async () => {
    const token = await participantToken(svc, 'ada@example.org');
    assert.equal((await askMedia('vid_nope', token)).status, 404);
    const other = await askMedia('vid_ts_session_1', token, 'wk_demo_map');
    assert.equal(other.status, 403);
    assert.equal(other.body.error.code, 'type-mismatch');
  });
});
