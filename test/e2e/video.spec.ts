import type { Page } from '@playwright/test';
import { expect, test } from './support.ts';
import { SITE } from './support.ts';

/** Presses Tab until `name`d element has the focus (keyboard alone). */
const tabTo = async (page: Page, locator: ReturnType<Page['locator']>) => {
  for (let i = 0; i < 40 && !(await locator.evaluate((el) => el.matches(':focus'))); i++) await page.keyboard.press('Tab');
  await expect(locator).toBeFocused();
};
/** The first `service-video` element's <video>, as the page sees it. */
const playerState = (page: Page) =>
  page.locator('service-video video').evaluate((video: HTMLVideoElement) => ({
    time: video.currentTime,
    paused: video.paused,
    muted: video.muted,
    showing: [...video.textTracks].filter((t) => t.mode === 'showing').map((t) => t.language),
    tracks: [...video.textTracks].map((t) => t.language),
  }));
const nextEvent = (page: Page, name: string) =>
  page.evaluate(
    (name) =>
      new Promise((resolve) => document.addEventListener(name, (e) => resolve((e as CustomEvent).detail), { once: true })),
    name,
  );

test('a list of videos: poster first, then a player by keyboard alone, with captions, seeking by range requests, the position kept', async ({
  watched: page,
}) => {
  const chunks: string[] = [];
  const media: { url: string; status: number }[] = [];
  page.on('request', (r) => r.url().includes('/widgets/chunks/') && chunks.push(r.url().split('/').pop()!));
  page.on('response', (r) => r.url().includes('/video.webm') && media.push({ url: r.url(), status: r.status() }));
  await page.goto(`${SITE}/media.html`);
  await expect(page.locator('div[data-service-widget=video]')).toHaveAttribute('data-service-state', 'ready');
  const widget = page.locator('service-video');
  await expect(widget.getByRole('heading', { name: 'Videos of Acme Academy' })).toBeVisible();
  // Posters keep the videos' aspect ratio; the player's code has not come, Leaflet never does.
  const poster = widget.locator('img').first();
  const box = (await poster.boundingBox())!;
  expect(box.width / box.height).toBeCloseTo(16 / 9, 1);
  expect(chunks.some((c) => c.startsWith('video-player-'))).toBe(false);

  const started = nextEvent(page, 'service-video-started');
  await tabTo(page, widget.getByRole('button', { name: 'Play “Welcome to Acme Academy”, 0:06' }));
  await page.keyboard.press('Enter');
  expect(await started).toEqual({ id: 'vid_welcome' });
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

  // The position is kept for this tab: after a reload, the video goes on from there.
  await page.locator('service-video video').evaluate((v: HTMLVideoElement) => {
    v.currentTime = 3;
    v.dispatchEvent(new Event('pause'));
  });
  await page.reload();
  await expect(page.locator('div[data-service-widget=video]')).toHaveAttribute('data-service-state', 'ready');
  await widget.getByRole('button', { name: 'Play “Welcome to Acme Academy”, 0:06' }).press('Enter');
  await expect.poll(async () => (await playerState(page)).time).toBeGreaterThanOrEqual(3);
  expect(chunks.some((c) => c.startsWith('map-leaflet-'))).toBe(false);
});

test('a participants-only video asks for the page’s sign-in, then plays from a signed link, by keyboard alone', async ({
  watched: page,
}) => {
  const media: string[] = [];
  page.on('request', (r) => r.url().includes('/media/videos/vid_ts_session_1/video.webm') && media.push(r.url()));
  await page.goto(`${SITE}/media.html`);
  await expect(page.locator('div[data-service-widget=video]')).toHaveAttribute('data-service-state', 'ready');
  await expect(page.locator('div[data-service-widget=profile]')).toHaveAttribute('data-service-state', 'ready');
  const widget = page.locator('service-video');
  // At 1280 px the three posters stand in a row.
  await tabTo(page, widget.getByRole('button', { name: 'Play “TypeScript for teams: session 1”, 0:06' }));
  await page.keyboard.press('Enter');
  await expect(widget.getByRole('alert')).toHaveText(/This video is for participants of Acme Academy. Sign in to watch it./);
  await expect(widget.getByRole('button', { name: 'Sign in' })).toBeFocused();
  expect(media).toEqual([]);

  await page.keyboard.press('Enter');
  const profile = page.locator('service-profile');
  await expect(profile.getByLabel('Email')).toBeFocused();
  await page.keyboard.type('ada@example.org');
  await page.keyboard.press('Enter');
  await expect(profile.getByLabel('PIN')).toBeFocused();
  const outbox = await (await fetch(`${process.env.E2E_SERVICE_URL}/dev/outbox?to=ada@example.org`)).json();
  await page.keyboard.type(outbox.emails[0].pin);
  const started = nextEvent(page, 'service-video-started');
  await page.keyboard.press('Enter');
  expect(await started).toEqual({ id: 'vid_ts_session_1' });
  await expect.poll(async () => (await playerState(page)).paused).toBe(false);
  const token = await page.evaluate(() => JSON.stringify(sessionStorage).match(/ptok_[\w-]+/)![0]);
  expect(media[0]).toMatch(/\?expires=\d+&signature=[\w-]+$/);
  expect(media.every((url) => !url.includes(token))).toBe(true);
});

test('one video, in German: its title and controls in German, captions in German', async ({ watched: page }) => {
  await page.goto(`${SITE}/video.html`);
  await expect(page.locator('div[data-service-widget=video]')).toHaveAttribute('data-service-state', 'ready');
  const widget = page.locator('service-video');
  await expect(widget.getByRole('heading', { name: 'Welcome to Acme Academy' })).toBeVisible();
  await tabTo(page, widget.getByRole('button', { name: '„Welcome to Acme Academy“ abspielen, 0:06' }));
  await page.keyboard.press('Enter');
  await expect(widget.getByRole('button', { name: 'Pause' })).toBeFocused();
  await expect(widget.getByRole('combobox', { name: 'Untertitel' })).toHaveValue('de');
  await expect.poll(async () => (await playerState(page)).showing).toEqual(['de']);
  await expect(widget.getByRole('button', { name: 'Vollbild' })).toBeVisible();
});
