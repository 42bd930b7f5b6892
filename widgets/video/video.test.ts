import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import {
  darkPage,
  dev,
  failOnWarnings,
  keyOf,
  ownMethods,
  participantToken,
  service,
  settled,
  textOf,
  until,
} from '../../test/browser/support.ts';
import { readSession, writeSession } from '../shared/session.ts';
import '../profile/profile.ts';
import type { ServiceProfile } from '../profile/profile.ts';
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
/** A participant of TypeScript for teams, whose recording (vid_ts_session_1) plays for him; no other file signs him in. */
const ALAN = 'alan@example.org';
/** What has the focus in the widget: `#id` of a field, else its text. */
const focused = (el: ServiceVideo) => {
  const active = el.shadowRoot!.activeElement;
  return active && (active.id ? `#${active.id}` : active.textContent!.trim());
};
const untilText = (el: ServiceVideo, text: string) => until(() => textOf(el).includes(text), `“${text}” in: ${textOf(el)}`);
/** Presses Tab until the widget's button of that name has the focus (keyboard alone). */
const tabTo = async (el: ServiceVideo, name: string) => {
  for (let i = 0; i < 10 && focused(el) !== name; i++) await press('Tab');
  expect(focused(el)).to.equal(name);
};
const emailsTo = async (to: string) =>
  (await dev<{ emails: { pin: string | null; link: string | null }[] }>(`outbox?to=${encodeURIComponent(to)}`)).emails;
const lastSignInEmail = async (to: string) => (await emailsTo(to)).find((e) => e.pin)!;
const otherPin = (pin: string) => String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
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

  it('on a page without a profile, signs in below the poster by keyboard: the email, the emailed PIN (a wrong one said), then it plays; accessible in each step', async () => {
    sessionStorage.clear();
    const el = await settled(await mount('vid_ts_session_1'));
    const held = await heldAfterPlay(el);
    expect(held.textContent!.trim()).to.equal('This video is for participants of Acme Academy. Sign in to watch it.');
    expect(held.getAttribute('role')).to.equal('alert');
    // The sign-in is below the poster, the focus in its field.
    await until(() => focused(el) === '#email', 'the focus in the email field');
    expect($(el, '.sign-in').textContent).to.contain('Sign in with your email address: we will send you a PIN.');
    expect($(el, 'label[for=email]').textContent).to.equal('Email');
    expect($(el, '.media').compareDocumentPosition($(el, '.sign-in')) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
    expect(el.shadowRoot!.querySelector('video')).to.equal(null);
    await expect(el).to.be.accessible();

    await sendKeys({ type: ALAN });
    await press('Enter');
    await until(() => focused(el) === '#pin', 'the PIN step, the focus in its field');
    expect(textOf(el)).to.contain(`If ${ALAN} belongs to an account, we have sent it a 6-digit PIN and a sign-in link.`);
    expect(held.textContent!.trim()).to.equal('This video is for participants of Acme Academy. Sign in to watch it.');
    await expect(el).to.be.accessible();
    const { pin, link } = await lastSignInEmail(ALAN);
    // The emailed link leads back to this page and this video.
    const back = new URL(link!);
    expect(back.origin + back.pathname).to.equal(location.origin + location.pathname);
    expect(back.searchParams.get('service-video')).to.equal('vid_ts_session_1');

    await sendKeys({ type: otherPin(pin!) });
    await press('Enter');
    await untilText(el, 'That PIN is not right. Tries left: 4.');
    expect($(el, '#pin').getAttribute('aria-invalid')).to.equal('true');
    expect(focused(el)).to.equal('#pin');
    await expect(el).to.be.accessible();

    await press('Control+a');
    await sendKeys({ type: pin! });
    const started = oneEvent(el, 'service-video-started');
    await press('Enter');
    expect((await started).detail).to.deep.equal({ id: 'vid_ts_session_1' });
    await until(() => el.shadowRoot!.activeElement?.getAttribute('aria-label') === 'Pause', 'the focus on Pause');
    expect(el.shadowRoot!.querySelector('.held, .sign-in')).to.equal(null);
    await expect(el).to.be.accessible();

    // The sign-in is the page's: a profile widget that comes later is signed in without asking.
    expect(readSession(service.url, 'c_acme')?.token).to.match(/^ptok_/);
    const profile = await settled(
      await fixture<ServiceProfile>(html`<service-profile key=${keyOf('profile')} base-url=${service.url}></service-profile>`),
    );
    expect(textOf(profile)).to.contain('Hello Alan');
  });

  it('in German: too many wrong tries, a new PIN, another email; the email is kept; accessible in each step', async () => {
    sessionStorage.clear();
    // Nobody's email: the service answers it as a participant's (and emails nobody).
    const stranger = `video-${Date.now()}@example.org`;
    const el = await settled(await mount('vid_ts_session_1', 'de'));
    const held = await heldAfterPlay(el);
    expect(held.textContent!.trim()).to.equal(
      'Dieses Video ist für Teilnehmende von Acme Academy. Melden Sie sich an, um es anzusehen.',
    );
    await until(() => focused(el) === '#email', 'the focus in the email field');
    expect($(el, 'label[for=email]').textContent).to.equal('E-Mail');
    expect(textOf(el)).to.contain('Melden Sie sich mit Ihrer E-Mail-Adresse an: Wir senden Ihnen eine PIN.');
    await expect(el).to.be.accessible();
    // Nothing typed: the widget says so beside the field, in its language.
    await press('Enter');
    await untilText(el, 'Füllen Sie dieses Feld aus.');
    expect($(el, '#email').getAttribute('aria-invalid')).to.equal('true');
    expect(focused(el)).to.equal('#email');
    await expect(el).to.be.accessible();
    await sendKeys({ type: stranger });
    await press('Enter');
    await until(() => focused(el) === '#pin', 'the PIN step');
    expect(textOf(el)).to.contain(`Wenn zu ${stranger} ein Konto gehört`);
    for (const left of [4, 3, 2, 1]) {
      await press('Control+a');
      await sendKeys({ type: '000000' });
      await press('Enter');
      await untilText(el, `Verbleibende Versuche: ${left}.`);
    }
    await press('Control+a');
    await sendKeys({ type: '000000' });
    await press('Enter');
    await untilText(el, 'Zu viele falsche Versuche: Diese PIN gilt nicht mehr. Lassen Sie sich eine neue senden.');
    expect(focused(el)).to.equal('#pin');
    await expect(el).to.be.accessible();

    await tabTo(el, 'Neue PIN senden');
    await press('Enter');
    await untilText(el, 'Eine neue PIN ist unterwegs.');
    await until(() => focused(el) === '#pin', 'the focus back in the PIN field');
    expect($<HTMLInputElement>(el, '#pin').value).to.equal('');
    expect(textOf(el)).not.to.contain('Zu viele falsche Versuche');
    await expect(el).to.be.accessible();

    await tabTo(el, 'Andere E-Mail verwenden');
    await press('Enter');
    await until(() => focused(el) === '#email', 'the email step, the focus in its field');
    expect($<HTMLInputElement>(el, '#email').value).to.equal(stranger);
    await expect(el).to.be.accessible();
    expect(await emailsTo(stranger)).to.have.length(0);
  });

  it('the emailed link signs in when opened: the token leaves the address, the video says who is signed in, and plays', async () => {
    sessionStorage.clear();
    const asking = await settled(await mount('vid_ts_session_1'));
    await heldAfterPlay(asking);
    await until(() => focused(asking) === '#email', 'the email step');
    await sendKeys({ type: ALAN });
    await press('Enter');
    await until(() => focused(asking) === '#pin', 'the PIN step');
    asking.remove();
    const link = new URL((await lastSignInEmail(ALAN)).link!);
    const token = link.searchParams.get('key')!;
    const page = location.href;
    history.replaceState(history.state, '', link.pathname + link.search);
    try {
      const el = await settled(await mount());
      await until(() => !!el.shadowRoot!.querySelector('.held'), 'the video that was asked for');
      const held = $(el, '.held');
      expect(held.querySelector('p')!.textContent).to.equal('You are signed in as Alan Turing.');
      expect(held.querySelector('bdi')!.textContent).to.equal('Alan Turing');
      expect(held.closest('.card')!.querySelector('h3')!.textContent).to.equal('TypeScript for teams: session 1');
      await until(() => el.shadowRoot!.activeElement?.textContent === 'Play now', 'the focus on Play now');
      expect(location.href).not.to.contain(token);
      expect(new URL(location.href).searchParams.has('service-video')).to.equal(false);
      expect(readSession(service.url, 'c_acme')?.token).to.equal(token);
      await expect(el).to.be.accessible();
      const started = oneEvent(el, 'service-video-started');
      await press('Enter');
      expect((await started).detail).to.deep.equal({ id: 'vid_ts_session_1' });
    } finally {
      history.replaceState(history.state, '', page);
    }
  });

  it('a link that no longer works asks for the sign-in again, in German; it never ends a sign-in that works', async () => {
    sessionStorage.clear();
    const page = location.href;
    const open = (search: string) => history.replaceState(history.state, '', location.pathname + search);
    try {
      open('?service-video=vid_ts_session_1&key=ptok_expired_long_ago');
      const el = await settled(await mount('', 'de'));
      await until(() => !!el.shadowRoot!.querySelector('.held'), 'the video that was asked for');
      expect($(el, '.held').textContent!.trim()).to.equal(
        'Dieser Anmeldelink ist abgelaufen. Melden Sie sich erneut an, um dieses Video anzusehen.',
      );
      await until(() => focused(el) === '#email', 'the email step, the focus in its field');
      expect(location.search).to.equal('');
      await expect(el).to.be.accessible();
      el.remove();

      writeSession(service.url, 'c_acme', { token: await participantToken(ALAN) });
      const session = readSession(service.url, 'c_acme');
      open('?service-video=vid_ts_session_1&key=ptok_expired_long_ago');
      const later = await settled(await mount());
      await until(() => location.search === '', 'the link taken');
      await later.updateComplete;
      expect(later.shadowRoot!.querySelector('.held')).to.equal(null);
      expect(readSession(service.url, 'c_acme')).to.deep.equal(session);
    } finally {
      history.replaceState(history.state, '', page);
      writeSession(service.url, 'c_acme', undefined);
    }
  });

  it('a profile widget of another company is no sign-in for this video (it signs in itself); one of its company is, even inside a shadow root of the page', async () => {
    sessionStorage.clear();
    const page = await fixture<HTMLElement>(html`<div>
      <service-profile key="wk_globex_profile" base-url=${service.url}></service-profile>
      <service-video key=${keyOf('video')} base-url=${service.url} video="vid_ts_session_1"></service-video>
    </div>`);
    const el = page.querySelector('service-video')!;
    await Promise.all([settled(el), settled(page.querySelector('service-profile')!)]);
    await heldAfterPlay(el);
    await until(() => focused(el) === '#email', 'its own sign-in');
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

  it('a signed-in participant of another programme is told whose recording it is, in English and German, and can sign in with another email (signed out at the service too); accessible', async () => {
    sessionStorage.clear();
    // A new participant with a place on the free open day only (the seeded ones' places change in other tests).
    const email = `open-day-${Date.now()}@example.org`;
    const registered = await fetch(new URL(`widget-api/v1/registrations?key=${keyOf('registration')}`, service.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ class_id: 'cls_open_1', first_name: 'Open', last_name: 'Day', email, consent: true }),
    });
    expect(registered.status).to.equal(201);
    const token = await participantToken(email);
    const me = () =>
      fetch(new URL(`widget-api/v1/participant/me?key=${keyOf('video')}`, service.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Service-Token': token },
        body: '{}',
      });
    writeSession(service.url, 'c_acme', { token });
    try {
      for (const [locale, line, other, ask] of [
        [
          'de',
          'Diese Aufzeichnung ist für Teilnehmende von „TypeScript for teams“.',
          'Mit anderer E-Mail-Adresse anmelden',
          'Dieses Video ist für Teilnehmende von Acme Academy. Melden Sie sich an, um es anzusehen.',
        ],
        [
          'en',
          'This recording is for participants of TypeScript for teams.',
          'Sign in with another email',
          'This video is for participants of Acme Academy. Sign in to watch it.',
        ],
      ]) {
        const el = await settled(await mount('vid_ts_session_1', locale));
        const held = await heldAfterPlay(el);
        expect(held.querySelector('p')!.textContent!.trim()).to.equal(line);
        // Nothing to try again: the one thing to do is to sign in as someone else.
        expect([...held.querySelectorAll('button')].map((b) => b.textContent!.trim())).to.deep.equal([other]);
        expect(focused(el)).to.equal(other);
        expect(el.shadowRoot!.querySelector('video')).to.equal(null);
        await expect(el).to.be.accessible();
        if (locale === 'de') continue;

        expect((await me()).status).to.equal(200);
        await press('Enter');
        // Signed out in the page and at the service; the sign-in below the poster, the focus in its field.
        await until(() => focused(el) === '#email', 'the focus in the email field');
        expect(readSession(service.url, 'c_acme')).to.equal(undefined);
        expect((await me()).status).to.equal(401);
        expect($(el, '.held p').textContent!.trim()).to.equal(ask);
        expect(el.shadowRoot!.querySelector('video')).to.equal(null);
        await expect(el).to.be.accessible();
      }
    } finally {
      writeSession(service.url, 'c_acme', undefined);
    }
  });

  it('signed in below the poster with an email of no place, “Sign in with another email” begins again with an empty email field', async () => {
    sessionStorage.clear();
    const email = `no-place-${Date.now()}@example.org`;
    const registered = await fetch(new URL(`widget-api/v1/registrations?key=${keyOf('registration')}`, service.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ class_id: 'cls_open_1', first_name: 'No', last_name: 'Place', email, consent: true }),
    });
    expect(registered.status).to.equal(201);
    const el = await settled(await mount('vid_ts_session_1'));
    await heldAfterPlay(el);
    await until(() => focused(el) === '#email', 'the focus in the email field');
    await sendKeys({ type: email });
    await press('Enter');
    await until(() => focused(el) === '#pin', 'the PIN step');
    await sendKeys({ type: (await lastSignInEmail(email)).pin! });
    await press('Enter');
    // Signed in, but for no place in the programme: the way out, then the sign-in anew.
    await until(() => focused(el) === 'Sign in with another email', 'the way out focused');
    await press('Enter');
    await until(() => focused(el) === '#email', 'the email step again');
    expect($<HTMLInputElement>(el, '#email').value).to.equal('');
    expect(readSession(service.url, 'c_acme')).to.equal(undefined);
    await expect(el).to.be.accessible();
  });

  it('a participant whose place is not paid yet (registered for a class that costs money) is told so, in English and German', async () => {
    sessionStorage.clear();
    const email = `unpaid-${Date.now()}@example.org`;
    const registered = await fetch(new URL(`widget-api/v1/registrations?key=${keyOf('registration')}`, service.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ class_id: 'cls_ts_2', first_name: 'Not', last_name: 'Paid', email, consent: true }),
    });
    expect(registered.status).to.equal(201);
    writeSession(service.url, 'c_acme', { token: await participantToken(email) });
    try {
      for (const [locale, line] of [
        ['en', 'Your place in TypeScript for teams is not paid yet: this recording plays once it is.'],
        ['de', 'Ihr Platz in „TypeScript for teams“ ist noch nicht bezahlt: Die Aufzeichnung läuft, sobald er bezahlt ist.'],
      ]) {
        const el = await settled(await mount('vid_ts_session_1', locale));
        const held = await heldAfterPlay(el);
        expect(held.querySelector('p')!.textContent!.trim()).to.equal(line);
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
