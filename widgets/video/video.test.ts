import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import {
  darkPage,
  failOnWarnings,
  keyOf,
  ownMethods,
  participantToken,
  service,
  settled,
  textOf,
  until,
} from '../../test/browser/support.ts';
import { writeSession } from '../shared/session.ts';
import '../profile/profile.ts';
import './video.ts';
import type { ServiceVideo } from './video.ts';

failOnWarnings();

const mount = (video = '', locale = 'en') =>
  fixture<ServiceVideo>(
    html`<service-video key=${keyOf('video')} base-url=${service.url} locale=${locale} video=${video}></service-video>`,
  );
const $ = <T extends Element = HTMLElement>(el: ServiceVideo, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
/** Presses a key on the focused element, as a person would (a real key press, which lets a video play). */
const press = (key: string) => sendKeys({ press: key });
/** The page's next `times` requests for `path` fail, as on a dropped network. */
const failRequests = (path: string, times = 1) => executeServerCommand('fail-requests', { path, times });
/** Asks to play the widget's (first) video and waits until its poster says why it cannot. */
const heldAfterPlay = async (el: ServiceVideo) => {
  $<HTMLButtonElement>(el, '.play').focus();
  await press('Enter');
  await until(() => !!el.shadowRoot!.querySelector('.held'));
  return $(el, '.held');
};

describe('service-video', () => {
  it('lists the videos: poster at the video’s aspect ratio, title, duration, programme, participants-only marked; accessible', async () => {
    const el = await settled(await mount());
    expect(textOf(el)).to.contain('Videos of Acme Academy');
    const cards = [...el.shadowRoot!.querySelectorAll('.card')].map((c) => c.querySelector('h3')!.textContent);
    expect(cards).to.deep.equal([
      'Welcome to Acme Academy',
      'Web accessibility in practice: what to expect',
      'TypeScript for teams: session 1',
    ]);
    expect(textOf(el)).to.contain('0:06 Web accessibility in practice');
    expect(textOf(el)).to.contain('For participants');
    const img = $<HTMLImageElement>(el, 'img');
    expect([img.getAttribute('width'), img.getAttribute('height')]).to.deep.equal(['320', '180']);
    await expect(el).to.be.accessible();
  });

  // First of the tests that play: a module that has come is never fetched again, so its failure can
  // only be tested before.
  it('a player whose code does not come (the network dropped) says so on the poster, in English and German, with a retry that plays; accessible', async () => {
    for (const [locale, line, retry] of [
      ['en', 'The player could not be loaded. Check your connection and try again.', 'Try again'],
      [
        'de',
        'Der Player konnte nicht geladen werden. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
        'Erneut versuchen',
      ],
    ]) {
      await failRequests('/widgets/video/video-player.ts');
      const el = await settled(await mount('vid_welcome', locale));
      const held = await heldAfterPlay(el);
      expect(held.getAttribute('role')).to.equal('alert');
      expect(held.querySelector('p')!.textContent).to.equal(line);
      expect(el.shadowRoot!.activeElement?.textContent).to.equal(retry);
      expect(el.shadowRoot!.querySelector('video')).to.equal(null);
      await expect(el).to.be.accessible();
      if (locale === 'de') {
        const started = oneEvent(el, 'service-video-started');
        await press('Enter');
        expect((await started).detail).to.deep.equal({ id: 'vid_welcome' });
        await el.updateComplete;
        expect(el.shadowRoot!.querySelector('.held')).to.equal(null);
        expect(el.shadowRoot!.activeElement?.getAttribute('aria-label')).to.equal('Pause');
      }
    }
  });

  it('plays one video by keyboard: the player in the poster’s place, captions in the widget’s language, keys for everything; accessible', async () => {
    const el = await settled(await mount('vid_welcome', 'de'));
    const before = $(el, '.media').getBoundingClientRect().height;
    $<HTMLButtonElement>(el, '.play').focus();
    const started = oneEvent(el, 'service-video-started');
    await press('Enter');
    expect((await started).detail).to.deep.equal({ id: 'vid_welcome' });
    await until(() => !!$(el, 'video'));
    const video = $<HTMLVideoElement>(el, 'video');
    expect($(el, '.media').getBoundingClientRect().height).to.equal(before);
    await until(() => [...video.textTracks].some((t) => t.mode === 'showing'));
    expect([...video.textTracks].filter((t) => t.mode === 'showing').map((t) => t.language)).to.deep.equal(['de']);
    expect(el.shadowRoot!.activeElement?.getAttribute('aria-label')).to.equal('Pause');
    await expect(el).to.be.accessible();
    await press('k');
    await until(() => video.paused);
    await press('m');
    expect(video.muted).to.equal(true);
    await press('ArrowUp');
    await press('c');
    await until(() => [...video.textTracks].every((t) => t.mode !== 'showing'));
    expect($<HTMLSelectElement>(el, 'select').value).to.equal('');
    await el.updateComplete;
    await expect(el).to.be.accessible();
  });

  it('keeps every control of the player in sight at 320 px, Full screen too; its sliders are targets of 24 px', async () => {
    // A phone of 320 px with the page's margins of 16 px.
    const page = await fixture<HTMLElement>(html`<div style="width: 288px"></div>`);
    const el = await mount('vid_welcome', 'de');
    page.append(el);
    await settled(el);
    $<HTMLButtonElement>(el, '.play').focus();
    await press('Enter');
    await until(() => !!$(el, 'video'));
    await el.updateComplete;
    const bar = $(el, '.controls').getBoundingClientRect();
    const shown = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.controls button, .controls input, .controls select')].filter(
      (c) => c.checkVisibility(),
    );
    expect(shown.map((c) => c.getAttribute('aria-label'))).to.include('Vollbild');
    for (const control of shown) {
      const box = control.getBoundingClientRect();
      expect([box.left >= bar.left, box.right <= bar.right], control.getAttribute('aria-label')!).to.deep.equal([true, true]);
    }
    await expect(el).to.be.accessible();
  });

  it('reads well on a dark page: the posters’ play buttons and the player’s controls keep their focus rings in sight', async () => {
    const page = await darkPage(html`<service-video key=${keyOf('video')} base-url=${service.url} locale="en"></service-video>`);
    const el = await settled(page.querySelector('service-video')!);
    await expect(page).to.be.accessible();
    $<HTMLButtonElement>(el, '.play').focus();
    await press('Enter');
    await until(() => !!$(el, 'video'));
    await el.updateComplete;
    await expect(page).to.be.accessible();
  });

  it('a video whose file cannot be played says so on the poster, with a retry; accessible', async () => {
    const el = await settled(await mount('vid_welcome'));
    await failRequests('/media/videos/vid_welcome/video.webm', 3);
    const held = await heldAfterPlay(el);
    expect(held.querySelector('p')!.textContent).to.equal('The video could not be played.');
    expect(el.shadowRoot!.activeElement?.textContent).to.equal('Try again');
    await expect(el).to.be.accessible();
  });

  it('asks for the sign-in before a participants-only video; without a sign-in on the page it says where, in English and German', async () => {
    sessionStorage.clear();
    for (const [locale, line] of [
      ['en', 'This video is for participants of Acme Academy. Sign in to your account on this site, then play it again.'],
      [
        'de',
        'Dieses Video ist für Teilnehmende von Acme Academy. Melden Sie sich auf dieser Website bei Ihrem Konto an und spielen Sie es dann erneut ab.',
      ],
    ]) {
      const el = await settled(await mount('vid_ts_session_1', locale));
      const held = await heldAfterPlay(el);
      expect(held.textContent!.trim()).to.equal(line);
      expect(el.shadowRoot!.activeElement).to.equal(held);
      expect(el.shadowRoot!.querySelector('video')).to.equal(null);
      await expect(el).to.be.accessible();
    }
  });

  it('a profile widget of another company is no sign-in for this video; one of its company is, even inside a shadow root of the page', async () => {
    sessionStorage.clear();
    const page = await fixture<HTMLElement>(html`<div>
      <service-profile key="wk_globex_profile" base-url=${service.url}></service-profile>
      <service-video key=${keyOf('video')} base-url=${service.url} video="vid_ts_session_1"></service-video>
    </div>`);
    const el = page.querySelector('service-video')!;
    await Promise.all([settled(el), settled(page.querySelector('service-profile')!)]);
    expect((await heldAfterPlay(el)).textContent).to.contain('Sign in to your account on this site, then play it again.');
    expect(el.shadowRoot!.querySelector('.held button')).to.equal(null);

    // The page's own component holds Acme's profile widget in its shadow root.
    const host = document.createElement('div');
    const profile = document.createElement('service-profile');
    Object.assign(profile, { key: keyOf('profile'), baseUrl: service.url });
    host.attachShadow({ mode: 'open' }).append(profile);
    el.before(host);
    await settled(profile);
    const video = Object.assign(document.createElement('service-video'), {
      key: keyOf('video'),
      baseUrl: service.url,
      video: 'vid_ts_session_1',
    });
    page.append(video);
    const held = await heldAfterPlay(await settled(video));
    expect(held.textContent).to.contain('This video is for participants of Acme Academy. Sign in to watch it.');
    expect(video.shadowRoot!.activeElement?.textContent).to.equal('Sign in');
    await expect(video).to.be.accessible();
    await press('Enter');
    expect(profile.shadowRoot!.activeElement?.getAttribute('type')).to.equal('email');
  });

  it('a signed-in participant of another programme is told whose recording it is, in English and German; nothing to retry', async () => {
    // A new participant with a place on the free open day only (the seeded ones' places change in other tests).
    const email = `open-day-${Date.now()}@example.org`;
    const registered = await fetch(new URL(`widget-api/v1/registrations?key=${keyOf('registration')}`, service.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ class_id: 'cls_open_1', first_name: 'Open', last_name: 'Day', email, consent: true }),
    });
    expect(registered.status).to.equal(201);
    writeSession(service.url, 'c_acme', { token: await participantToken(email) });
    try {
      for (const [locale, line] of [
        ['en', 'This recording is for participants of TypeScript for teams.'],
        ['de', 'Diese Aufzeichnung ist für Teilnehmende von „TypeScript for teams“.'],
      ]) {
        const el = await settled(await mount('vid_ts_session_1', locale));
        const held = await heldAfterPlay(el);
        expect(held.textContent!.trim()).to.equal(line);
        expect(held.querySelector('button'), 'nothing to try again').to.equal(null);
        expect(el.shadowRoot!.activeElement).to.equal(held);
        expect(el.shadowRoot!.querySelector('video')).to.equal(null);
        await expect(el).to.be.accessible();
      }
    } finally {
      writeSession(service.url, 'c_acme', undefined);
    }
  });

  it('has no public method for its player: only the hooks of Lit and of the base (the player gets callbacks)', () => {
    expect(ownMethods(customElements.get('service-video')!)).to.deep.equal([]);
  });

  it('an unknown video is not-available', async () => {
    const el = await settled(await mount('vid_nope'), 'error');
    expect(el.errorCode).to.equal('not-available');
  });
});
