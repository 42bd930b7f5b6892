import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { failOnWarnings, keyOf, service, settled, textOf } from '../shared/test-support.ts';
import './video.ts';
import type { ServiceVideo } from './video.ts';

failOnWarnings();

const mount = (video = '', locale = 'en') =>
  fixture<ServiceVideo>(
    html`<service-video key=${keyOf('video')} base-url=${service.url} locale=${locale} video=${video}></service-video>`,
  );
const $ = <T extends Element = HTMLElement>(el: ServiceVideo, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const until = (check: () => boolean) =>
  new Promise<void>(function wait(resolve) {
    if (check()) resolve();
    else requestAnimationFrame(() => wait(resolve));
  });
/** Presses a key on the focused element, as a person would (a real key press, which lets a video play). */
const press = (key: string) => sendKeys({ press: key });

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

  it('asks for the sign-in before a participants-only video; without a profile widget on the page it says where', async () => {
    sessionStorage.clear();
    const el = await settled(await mount('vid_ts_session_1'));
    $<HTMLButtonElement>(el, '.play').click();
    await until(() => !!el.shadowRoot!.querySelector('.ask'));
    expect($(el, '.ask').textContent).to.contain('Sign in to your account on this site, then play it again.');
    expect(el.shadowRoot!.activeElement).to.equal($(el, '.ask'));
    expect(el.shadowRoot!.querySelector('video')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('an unknown video is not-available', async () => {
    const el = await settled(await mount('vid_nope'), 'error');
    expect(el.errorCode).to.equal('not-available');
  });
});
