import type { Locator, Page, Route } from '@playwright/test';
import {
  advanceClock,
  axeViolations,
  expect,
  flakyChunks,
  ofChunk,
  recordEvents,
  SERVICE,
  serviceJson,
  sidewaysScroll,
  signedIn,
  SITE,
  test,
} from './support.ts';

const ready = (page: Page) =>
  expect(page.locator('div[data-service-widget=video]')).toHaveAttribute('data-service-state', 'ready');
/** Presses Tab until the element has the focus (keyboard alone). */
const tabTo = async (page: Page, locator: Locator) => {
  for (let i = 0; i < 40 && !(await locator.evaluate((el) => el.matches(':focus'))); i++) await page.keyboard.press('Tab');
  await expect(locator).toBeFocused();
};
/** The first `service-video` element's <video>, as the page sees it. */
const playerState = (page: Page) =>
  page.locator('service-video video').evaluate((video: HTMLVideoElement) => ({
    time: video.currentTime,
    paused: video.paused,
    muted: video.muted,
    src: video.src,
    showing: [...video.textTracks].filter((t) => t.mode === 'showing').map((t) => t.language),
    tracks: [...video.textTracks].map((t) => t.language),
  }));
/**
 * Records where each video of the widget was when it began to play (its `playing` events, which stay
 * in the widget's shadow root), by video id: a video that goes on from a kept position begins there.
 */
const recordPlaying = async (page: Page) => {
  await page.locator('service-video').evaluate((el) => {
    const w = window as unknown as { playingAt: Record<string, number[]> };
    w.playingAt = {};
    el.shadowRoot!.addEventListener(
      'playing',
      (e) => {
        const video = e.target as HTMLVideoElement;
        (w.playingAt[video.currentSrc.split('/').at(-2)!] ??= []).push(video.currentTime);
      },
      true,
    );
  });
  /** Where the video began to play first, if it has. */
  return (id: string) =>
    page.evaluate((id) => (window as unknown as { playingAt: Record<string, number[]> }).playingAt[id]?.[0], id);
};
/** The media links the service handed the page (`POST …/videos/{id}/media`). */
const mediaAnswers = (page: Page) => {
  const answers: number[] = [];
  page.on('response', (r) => /\/videos\/[\w-]+\/media\?/.test(r.url()) && answers.push(r.status()));
  return answers;
};
/** The position the player keeps for a video in the tab's session storage (widgets/video/video-player.ts). */
const keptPosition = (page: Page, id: string) =>
  page.evaluate(
    (id) =>
      Object.entries(sessionStorage).find(
        ([key]) => key.startsWith('service-widgets:video-position:') && key.endsWith(`:${id}`),
      )?.[1],
    id,
  );
const PLAY_WELCOME = 'Play “Welcome to Acme Academy”, 0:06';
const PLAY_MEMBERS = 'Play “TypeScript for teams: session 1”, 0:06';

test('a list of videos: poster first, then a player by keyboard alone, with captions, seeking by range requests', async ({
  watched: page,
}) => {
  const chunks: string[] = [];
  const media: { url: string; status: number }[] = [];
  page.on('request', (r) => r.url().includes('/widgets/chunks/') && chunks.push(r.url().split('/').pop()!));
  page.on('response', (r) => r.url().includes('/video.webm') && media.push({ url: r.url(), status: r.status() }));
  await page.goto(`${SITE}/media.html`);
  await ready(page);
  const widget = page.locator('service-video');
  await expect(widget.getByRole('heading', { name: 'Videos of Acme Academy' })).toBeVisible();
  // Posters keep the videos' aspect ratio; the player's code has not come, Leaflet never does.
  const poster = widget.locator('img').first();
  const box = (await poster.boundingBox())!;
  expect(box.width / box.height).toBeCloseTo(16 / 9, 1);
  expect(chunks.some((c) => c.startsWith('video-player-'))).toBe(false);

  const events = await recordEvents(page, 'service-video-started');
  await tabTo(page, widget.getByRole('button', { name: PLAY_WELCOME }));
  await page.keyboard.press('Enter');
  await expect.poll(events).toEqual([{ type: 'service-video-started', detail: { id: 'vid_welcome' } }]);
  await expect(widget.getByRole('button', { name: 'Pause' })).toBeFocused();
  expect(chunks.some((c) => c.startsWith('video-player-'))).toBe(true);

  // Captions in the page's language, shown; c turns them off and on; the menu chooses another.
  await expect.poll(async () => (await playerState(page)).tracks).toEqual(['en', 'de']);
  await expect.poll(async () => (await playerState(page)).showing).toEqual(['en']);
  await page.keyboard.press('c');
  await expect.poll(async () => (await playerState(page)).showing).toEqual([]);
  await page.keyboard.press('c');
  await expect.poll(async () => (await playerState(page)).showing).toEqual(['en']);
  await widget.getByRole('combobox', { name: 'Captions' }).selectOption('de');
  await expect.poll(async () => (await playerState(page)).showing).toEqual(['de']);

  // k pauses, m mutes, arrows seek; the file answers ranges.
  await widget.getByRole('button', { name: 'Pause' }).focus();
  await page.keyboard.press('k');
  await expect.poll(async () => (await playerState(page)).paused).toBe(true);
  await page.keyboard.press('m');
  await expect(widget.getByRole('button', { name: 'Mute' })).toHaveAttribute('aria-pressed', 'true');
  await page.locator('service-video video').evaluate((v: HTMLVideoElement) => (v.currentTime = 0));
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await playerState(page)).time).toBe(5);
  expect(media.length).toBeGreaterThan(0);
  expect(media.every((m) => m.status === 206)).toBe(true);
  const seek = widget.getByRole('slider', { name: 'Position' });
  await expect(seek).toHaveAttribute('aria-valuetext', '0:05 of 0:06');
  expect(chunks.some((c) => c.startsWith('map-leaflet-'))).toBe(false);
});

test('the position is kept per video for the tab’s session: after a reload the video goes on from there, another from its beginning', async ({
  watched: page,
}) => {
  await page.goto(`${SITE}/media.html`);
  await ready(page);
  const widget = page.locator('service-video');
  await widget.getByRole('button', { name: PLAY_WELCOME }).press('Enter');
  await expect(widget.getByRole('button', { name: 'Pause' })).toBeFocused();
  await page.keyboard.press('k');
  await expect.poll(async () => (await playerState(page)).paused).toBe(true);
  // The visitor moves the position slider to 0:03.
  await widget.getByRole('slider', { name: 'Position' }).fill('3');
  await expect.poll(async () => (await playerState(page)).time).toBe(3);
  // The player keeps the position on the video's next `timeupdate`: a reload before it finds none.
  await expect.poll(() => keptPosition(page, 'vid_welcome')).toBe('3');

  await page.reload();
  await ready(page);
  const playingAt = await recordPlaying(page);
  await widget.getByRole('button', { name: PLAY_WELCOME }).press('Enter');
  // It begins where it was left (a video begun at 0:00 would reach 0:03 later, never begin there).
  await expect.poll(() => playingAt('vid_welcome')).toBeGreaterThanOrEqual(3);
  expect(await playingAt('vid_welcome')).toBeLessThan(4);

  // The other video was never played: it begins at its beginning.
  await widget.getByRole('button', { name: 'Play “Web accessibility in practice: what to expect”, 0:06' }).press('Enter');
  await expect.poll(() => playingAt('vid_web_intro')).toBeDefined();
  expect(await playingAt('vid_web_intro')).toBeLessThan(1);
});

test('a participants-only video asks for the page’s sign-in, then plays from a signed link, by keyboard alone', async ({
  watched: page,
}) => {
  const media: string[] = [];
  page.on('request', (r) => r.url().includes('/media/videos/vid_ts_session_1/video.webm') && media.push(r.url()));
  await page.goto(`${SITE}/media.html`);
  await ready(page);
  await expect(page.locator('div[data-service-widget=profile]')).toHaveAttribute('data-service-state', 'ready');
  const widget = page.locator('service-video');
  // At 1280 px the three posters stand in a row.
  await tabTo(page, widget.getByRole('button', { name: PLAY_MEMBERS }));
  await page.keyboard.press('Enter');
  await expect(widget.getByRole('alert')).toHaveText(/This video is for participants of Acme Academy. Sign in to watch it./);
  await expect(widget.getByRole('button', { name: 'Sign in' })).toBeFocused();
  // What it says stands within its poster, which takes the row.
  const [held, screen] = await Promise.all([
    widget.getByRole('alert').boundingBox(),
    widget.locator('.card.active .screen').boundingBox(),
  ]);
  expect(held!.y + held!.height).toBeLessThanOrEqual(screen!.y + screen!.height + 1);
  expect(media).toEqual([]);

  await page.keyboard.press('Enter');
  const profile = page.locator('service-profile');
  await expect(profile.getByLabel('Email')).toBeFocused();
  await page.keyboard.type('ada@example.org');
  await page.keyboard.press('Enter');
  await expect(profile.getByLabel('PIN')).toBeFocused();
  const outbox = await (await fetch(`${SERVICE}/dev/outbox?to=ada@example.org`)).json();
  await page.keyboard.type(outbox.emails[0].pin);
  const events = await recordEvents(page, 'service-video-started');
  await page.keyboard.press('Enter');
  await expect.poll(events).toEqual([{ type: 'service-video-started', detail: { id: 'vid_ts_session_1' } }]);
  await expect.poll(async () => (await playerState(page)).paused).toBe(false);
  const token = await page.evaluate(() => JSON.stringify(sessionStorage).match(/ptok_[\w-]+/)![0]);
  expect(media[0]).toMatch(/\?expires=\d+&signature=[\w-]+$/);
  expect(media.every((url) => !url.includes(token))).toBe(true);
});

test('a participants-only video plays on over several lifetimes of its links: each is renewed before it expires, the video going on where it is', async ({
  watched: page,
}) => {
  // The page's clock and the service's move on together, by minutes at a time.
  await page.clock.install();
  await signedIn(page, 'alan@example.org');
  const answers = mediaAnswers(page);
  await page.goto(`${SITE}/media.html`);
  await ready(page);
  const widget = page.locator('service-video');
  const events = await recordEvents(page, 'service-video-started', 'service-video-ended');
  await widget.getByRole('button', { name: PLAY_MEMBERS }).press('Enter');
  await expect.poll(events).toEqual([{ type: 'service-video-started', detail: { id: 'vid_ts_session_1' } }]);
  await widget.getByRole('button', { name: 'Pause' }).press('Space');
  await expect.poll(async () => (await playerState(page)).paused).toBe(true);
  await widget.getByRole('slider', { name: 'Position' }).fill('1');

  const links = [(await playerState(page)).src];
  for (let lifetime = 1; lifetime <= 3; lifetime++) {
    // Nine minutes on, a minute before the links expire, new ones come; the video stays where it is,
    // playing or paused.
    const { time, paused } = await playerState(page);
    await advanceClock(9 * 60);
    await page.clock.runFor('09:00');
    await expect.poll(async () => (await playerState(page)).src).not.toBe(links.at(-1));
    links.push((await playerState(page)).src);
    if (paused) await expect.poll(async () => (await playerState(page)).time).toBeCloseTo(time, 1);
    else await expect.poll(async () => (await playerState(page)).time).toBeGreaterThan(time);
    expect((await playerState(page)).paused).toBe(paused);
    await widget.getByRole('button', { name: paused ? 'Play' : 'Pause', exact: true }).press('Space');
    await expect.poll(async () => (await playerState(page)).paused).toBe(!paused);
  }
  expect(answers).toEqual([200, 200, 200, 200]);
  expect(new Set(links).size).toBe(4);
  // The first links have expired by now; the last one works.
  const status = async (link: string) => (await fetch(link, { headers: { Range: 'bytes=0-9' } })).status;
  expect(await Promise.all(links.map(status))).toEqual([403, 403, 206, 206]);
  await expect(widget.getByRole('alert')).toHaveCount(0);
  // It plays on to its end, as one play: from a second before it (the rest would pass in real time).
  const position = widget.getByRole('slider', { name: 'Position' });
  await position.fill(String(Number(await position.getAttribute('max')) - 1));
  await expect
    .poll(events, { timeout: 15_000 })
    .toContainEqual({ type: 'service-video-ended', detail: { id: 'vid_ts_session_1' } });
  expect((await events()).filter((e) => e.type === 'service-video-started')).toHaveLength(1);
});

test('a link found expired when the player asks for the file (a device that slept) is renewed; one that fails again is said, with a retry', async ({
  watched: page,
}) => {
  await signedIn(page, 'alan@example.org');
  const answers = mediaAnswers(page);
  // Before the file is fetched with a link the first time, the service's clock passes its ten minutes.
  let expireEach = 1;
  const seen = new Set<string>();
  const files: number[] = [];
  await page.route(/\/media\/videos\/vid_ts_session_1\/video\.webm/, async (route: Route) => {
    const signature = new URL(route.request().url()).searchParams.get('signature')!;
    if (!seen.has(signature) && seen.size < expireEach) await advanceClock(10 * 60 + 1);
    seen.add(signature);
    const response = await route.fetch();
    files.push(response.status());
    await route.fulfill({ response });
  });
  await page.goto(`${SITE}/media.html`);
  await ready(page);
  const widget = page.locator('service-video');
  const events = await recordEvents(page, 'service-video-started');
  await widget.getByRole('button', { name: PLAY_MEMBERS }).press('Enter');
  await expect.poll(events).toEqual([{ type: 'service-video-started', detail: { id: 'vid_ts_session_1' } }]);
  await expect.poll(async () => (await playerState(page)).time).toBeGreaterThan(0);
  expect(files[0]).toBe(403);
  expect(answers).toEqual([200, 200]);

  // Every link expired before it is used (a broken clock): after one renewal the poster says so, with a retry.
  await page.reload();
  await ready(page);
  expireEach = Infinity;
  await widget.getByRole('button', { name: PLAY_MEMBERS }).press('Enter');
  await expect(widget.getByRole('alert')).toHaveText(/The video could not be played./);
  await expect(widget.getByRole('button', { name: 'Try again' })).toBeFocused();
  expect(answers).toHaveLength(4);
  expireEach = 0;
  await page.keyboard.press('Enter');
  await expect(widget.getByRole('button', { name: 'Pause' })).toBeFocused();
  await expect.poll(async () => (await playerState(page)).paused).toBe(false);
});

test('the player’s code that does not come (a dropped network) is said on the poster, in German; a retry plays', async ({
  watched: page,
}) => {
  const requests = await flakyChunks(page, 1, /^video-player-/);
  await page.goto(`${SITE}/video.html`);
  await ready(page);
  const widget = page.locator('service-video');
  await widget.getByRole('button', { name: '„Welcome to Acme Academy“ abspielen, 0:06' }).press('Enter');
  await expect(widget.getByRole('alert')).toContainText(
    'Der Player konnte nicht geladen werden. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  );
  await expect(widget.getByRole('button', { name: 'Erneut versuchen' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(widget.getByRole('button', { name: 'Pause' })).toBeFocused();
  await expect.poll(async () => (await playerState(page)).paused).toBe(false);
  expect(ofChunk(requests, 'video-player')).toHaveLength(2);
});

test('on a phone (375 px): the first video lies whole within the widget’s first view, its poster and then its player', async ({
  watched: page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${SITE}/media.html`);
  await ready(page);
  const widget = page.locator('service-video');
  const card = widget.getByRole('listitem').first();
  /** The box of the part of the widget that shows (its first view's list, which clips what goes beyond it). */
  const shown = () => widget.locator('.fill').boundingBox();
  const within = async (part: Locator) => {
    const [inner, outer, host] = await Promise.all([part.boundingBox(), shown(), widget.boundingBox()]);
    for (const box of [outer!, host!]) {
      expect(inner!.x).toBeGreaterThanOrEqual(box.x);
      expect(inner!.y).toBeGreaterThanOrEqual(box.y);
      expect(inner!.x + inner!.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
      expect(inner!.y + inner!.height).toBeLessThanOrEqual(box.y + box.height + 0.5);
    }
  };
  await within(card.locator('img'));
  await within(card.getByRole('heading', { name: 'Welcome to Acme Academy' }));
  await within(card.getByText('0:06'));
  await card.getByRole('button', { name: PLAY_WELCOME }).press('Enter');
  await expect(widget.getByRole('button', { name: 'Pause' })).toBeFocused();
  await within(widget.locator('video'));
  await within(widget.getByRole('button', { name: 'Full screen' }));
});

test('one video, in German: its title and controls in German, captions in German', async ({ watched: page }) => {
  await page.goto(`${SITE}/video.html`);
  await ready(page);
  const widget = page.locator('service-video');
  await expect(widget.getByRole('heading', { name: 'Welcome to Acme Academy' })).toBeVisible();
  await tabTo(page, widget.getByRole('button', { name: '„Welcome to Acme Academy“ abspielen, 0:06' }));
  await page.keyboard.press('Enter');
  await expect(widget.getByRole('button', { name: 'Pause' })).toBeFocused();
  await expect(widget.getByRole('combobox', { name: 'Untertitel' })).toHaveValue('de');
  await expect.poll(async () => (await playerState(page)).showing).toEqual(['de']);
  await expect(widget.getByRole('button', { name: 'Vollbild' })).toBeVisible();
});

/** The latest sign-in email to `to` in the service's outbox: its PIN and link. */
const signInEmail = async (to: string) =>
  (
    await serviceJson<{ emails: { pin: string | null; link: string | null }[] }>(`/dev/outbox?to=${encodeURIComponent(to)}`)
  ).emails.find((e) => e.pin)!;
const ALAN = 'alan@example.org';

test('a page with only a video widget: a participants-only video signs in where it is by keyboard (a wrong and an expired PIN said), then plays; axe in every state', async ({
  watched: page,
}) => {
  const media: string[] = [];
  page.on('request', (r) => r.url().includes('/media/videos/vid_ts_session_1/video.webm') && media.push(r.url()));
  await page.goto(`${SITE}/recordings.html`);
  await ready(page);
  const widget = page.locator('service-video');
  await tabTo(page, widget.getByRole('button', { name: PLAY_MEMBERS }));
  await page.keyboard.press('Enter');
  await expect(widget.locator('.held')).toHaveText('This video is for participants of Acme Academy. Sign in to watch it.');
  const email = widget.getByLabel('Email');
  await expect(email).toBeFocused();
  await expect(widget.getByText('Sign in with your email address: we will send you a PIN.')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await page.keyboard.type(ALAN);
  await page.keyboard.press('Enter');
  const pin = widget.getByLabel('PIN');
  await expect(pin).toBeFocused();
  await expect(widget.getByText(`If ${ALAN} belongs to an account, we have sent it a 6-digit PIN`)).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  const first = await signInEmail(ALAN);
  expect(first.link).toMatch(new RegExp(`^${SITE}/recordings\\.html\\?service-video=vid_ts_session_1&key=ptok_`));

  // A wrong PIN, said with the tries left; then the right one, too late.
  await page.keyboard.type(first.pin === '000000' ? '000001' : '000000');
  await page.keyboard.press('Enter');
  await expect(widget.getByText('That PIN is not right. Tries left: 4.')).toBeVisible();
  await expect(pin).toHaveAttribute('aria-invalid', 'true');
  expect(await axeViolations(page)).toEqual([]);
  await advanceClock(5 * 60 + 1);
  await pin.fill(first.pin!);
  await page.keyboard.press('Enter');
  await expect(widget.getByText('This PIN has expired. Send a new one.')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await tabTo(page, widget.getByRole('button', { name: 'Send a new PIN' }));
  await page.keyboard.press('Enter');
  await expect(widget.getByText('A new PIN is on its way.')).toBeVisible();
  await expect(pin).toBeFocused();
  await expect(pin).toHaveValue('');
  const fresh = await signInEmail(ALAN);
  expect(fresh.pin).not.toBe(first.pin);
  const events = await recordEvents(page, 'service-video-started');
  await page.keyboard.type(fresh.pin!);
  await page.keyboard.press('Enter');
  await expect.poll(events).toEqual([{ type: 'service-video-started', detail: { id: 'vid_ts_session_1' } }]);
  await expect(widget.getByRole('button', { name: 'Pause' })).toBeFocused();
  await expect.poll(async () => (await playerState(page)).paused).toBe(false);
  await expect(widget.locator('.held')).toHaveCount(0);
  expect(media[0]).toMatch(/\?expires=\d+&signature=[\w-]+$/);
  expect(await axeViolations(page)).toEqual([]);
});

test('on a phone (375 px): the sign-in below the poster, then the emailed link opened signs in and the video plays; axe in every state', async ({
  watched: page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${SITE}/recordings.html`);
  await ready(page);
  const widget = page.locator('service-video');
  await widget.getByRole('button', { name: PLAY_MEMBERS }).press('Enter');
  const email = widget.getByLabel('Email');
  await expect(email).toBeFocused();
  const [field, host] = await Promise.all([email.boundingBox(), widget.boundingBox()]);
  expect(field!.x + field!.width).toBeLessThanOrEqual(host!.x + host!.width);
  expect(await sidewaysScroll(page)).toBe(0);
  expect(await axeViolations(page)).toEqual([]);
  await page.keyboard.type(ALAN);
  await page.keyboard.press('Enter');
  await expect(widget.getByLabel('PIN')).toBeFocused();
  expect(await sidewaysScroll(page)).toBe(0);
  expect(await axeViolations(page)).toEqual([]);

  // The visitor opens the emailed link instead: it comes back to this page and signs in.
  const { link } = await signInEmail(ALAN);
  const token = new URL(link!).searchParams.get('key')!;
  await page.goto(link!);
  await ready(page);
  await expect(widget.locator('.held p')).toHaveText('You are signed in as Alan Turing.');
  await expect(widget.locator('.held')).toHaveRole('alert');
  await expect(widget.getByRole('button', { name: 'Play now' })).toBeFocused();
  await expect(page).toHaveURL(`${SITE}/recordings.html`);
  expect(await page.evaluate(() => location.href)).not.toContain(token);
  expect(await sidewaysScroll(page)).toBe(0);
  expect(await axeViolations(page)).toEqual([]);
  const events = await recordEvents(page, 'service-video-started');
  await page.keyboard.press('Enter');
  await expect.poll(events).toEqual([{ type: 'service-video-started', detail: { id: 'vid_ts_session_1' } }]);
  await expect(widget.getByRole('button', { name: 'Pause' })).toBeFocused();
  await expect(widget.getByRole('button', { name: 'Full screen' })).toBeInViewport();
});

test('the sign-in’s code that does not come (a dropped network) is said on the poster, with a retry that shows it', async ({
  watched: page,
}) => {
  const requests = await flakyChunks(page, 1, /^sign-in-/);
  await page.goto(`${SITE}/recordings.html`);
  await ready(page);
  const widget = page.locator('service-video');
  await widget.getByRole('button', { name: PLAY_MEMBERS }).press('Enter');
  await expect(widget.locator('.held')).toContainText('The sign-in could not be loaded. Check your connection and try again.');
  await expect(widget.getByRole('button', { name: 'Try again' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(widget.getByLabel('Email')).toBeFocused();
  expect(ofChunk(requests, 'sign-in')).toHaveLength(2);
});
