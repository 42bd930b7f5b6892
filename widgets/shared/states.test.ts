/**
 * The load states every widget draws through the base (renderState): loading in its reserved space,
 * each refusal of its key, an unreachable service with a retry, in English and German, and one look
 * for every error. Run for each widget against the real service.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { unsafeStatic, html as staticHtml } from 'lit/static-html.js';
import '../contact/contact.ts';
import '../profile/profile.ts';
import '../registration/registration.ts';
import '../video/video.ts';
import '../map/map.ts';
import '../calendar/calendar.ts';
import '../checkout/checkout.ts';
import type { ServiceElement } from './base.ts';
import {
  expectLoadingState,
  failOnWarnings,
  flakyFetch,
  keyOf,
  service,
  settled,
  textOf,
  until,
} from '../../test/browser/support.ts';

failOnWarnings();

/** Each widget: its type, its skeletons, and what it shows when ready. */
const WIDGETS = [
  { type: 'registration', skeletons: 3, ready: 'Programmes at Acme Academy', other: 'contact' },
  { type: 'profile', skeletons: 2, ready: 'Your account at Acme Academy', other: 'registration' },
  { type: 'contact', skeletons: 3, ready: 'Contact Acme Academy', other: 'registration' },
  { type: 'video', skeletons: 2, ready: 'Videos of Acme Academy', other: 'map' },
  { type: 'map', skeletons: 3, ready: 'Where Acme Academy teaches', other: 'video' },
  { type: 'calendar', skeletons: 3, ready: 'Classes at Acme Academy', other: 'checkout' },
  { type: 'checkout', skeletons: 3, ready: 'Your cart', other: 'calendar' },
] as const;

const mount = (
  type: string,
  {
    key = keyOf(type),
    baseUrl = service.url,
    locale = 'en',
    fetch,
  }: { key?: string; baseUrl?: string; locale?: string; fetch?: typeof window.fetch } = {},
) => {
  const tag = unsafeStatic(`service-${type}`);
  return fixture<ServiceElement<unknown>>(
    staticHtml`<${tag} key=${key} base-url=${baseUrl} locale=${locale} .fetch=${fetch}></${tag}>`,
  );
};

const alertOf = (el: Element) => el.shadowRoot!.querySelector<HTMLElement>('[role=alert]')!;
const buttons = (el: Element, name: string) =>
  [...el.shadowRoot!.querySelectorAll('button')].filter((b) => b.textContent!.trim() === name);

for (const { type, skeletons, ready, other } of WIDGETS) {
  describe(`service-${type}: load states`, () => {
    it('reserves its space with a skeleton while loading, announces it, and is accessible', async () => {
      await expectLoadingState((fetcher) => mount(type, { fetch: fetcher }), { skeletons, minHeight: skeletons * 100 });
    });

    for (const [code, key, owner] of [
      ['invalid-key', keyOf(type, 'revoked'), /revoked/],
      ['invalid-key', 'wk_nobody_knows_this', /does not know this widget key/],
      ['type-mismatch', keyOf(other), new RegExp(`belongs to a ${other} widget`)],
      ['missing-key', '', /data-service-id/],
    ] as const) {
      it(`${code} (${key || 'no key'}): the visitor's line, the owner's fix on a development page, no retry`, async () => {
        const el = await settled(await mount(type, { key }), 'error');
        expect(el.errorCode).to.equal(code);
        const [visitor, fix] = [...alertOf(el).querySelectorAll('p')].map((p) => p.textContent);
        expect(visitor).to.equal('This part of the page cannot be shown right now.');
        // This test page is on localhost: a development page.
        expect(fix).to.match(owner);
        expect(el.errorMessage).to.match(owner);
        expect(buttons(el, 'Try again')).to.have.length(0);
        await expect(el).to.be.accessible();
      });
    }

    it('retries an unreachable service by itself, then offers a retry that recovers with the focus on the heading', async () => {
      const flaky = flakyFetch(3);
      const el = await settled(await mount(type, { fetch: flaky }), 'error');
      expect(flaky.calls).to.have.length(3); // three attempts before giving up
      expect(el.errorCode).to.equal('network');
      expect(alertOf(el).textContent).to.contain('could not be reached');
      await expect(el).to.be.accessible();
      // The announcement's region is there, silent, so that the retry's "Loading…" is announced.
      const region = el.shadowRoot!.querySelector('[role=status]')!;
      expect(region.textContent).to.equal('');
      buttons(el, 'Try again')[0]!.click();
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[role=status]') === region, 'the same region').to.equal(true);
      expect(region.textContent).to.equal('Loading…');
      await settled(el);
      expect(textOf(el)).to.contain(ready);
      // The focus does not fall to the page: it goes to the new step's heading.
      await until(() => el.shadowRoot!.activeElement?.tagName === 'H2');
    });

    it('marks its language on an English page: German content is lang="de", while loading, ready and failed', async () => {
      expect(document.documentElement.lang).to.equal('en');
      const el = await mount(type, { locale: 'de' });
      // (What holds content: the map's ruler, an empty box it measures its width by, says nothing.)
      const marked = () =>
        [...el.shadowRoot!.children]
          .filter((child) => child.childNodes.length)
          .map((child) => child.closest('[lang]')?.getAttribute('lang'));
      expect(marked(), 'loading').to.satisfy((langs: string[]) => langs.every((lang) => lang === 'de'));
      await settled(el);
      expect(marked(), 'ready').to.satisfy((langs: string[]) => langs.length && langs.every((lang) => lang === 'de'));
      const failed = await settled(await mount(type, { locale: 'de', key: '' }), 'error');
      expect(alertOf(failed).closest('[lang]')!.getAttribute('lang')).to.equal('de');
    });

    it('reports a service that is down as network, in German too', async () => {
      const el = await settled(await mount(type, { baseUrl: service.down, locale: 'de' }), 'error');
      expect(el.errorCode).to.equal('network');
      expect(alertOf(el).textContent).to.contain('nicht erreichbar');
      expect(buttons(el, 'Erneut versuchen')).to.have.length(1);
      await expect(el).to.be.accessible();
    });
  });
}

describe('one look for every error', () => {
  it('is plain text in the page’s font and colour, the same in every widget and state', async function () {
    // 21 errors, seven of them after the API client's retries (0.9 s each): a ceiling for a busy machine.
    this.timeout(40_000);
    const page = await fixture<HTMLElement>(html`<div></div>`);
    page.style.cssText = 'font: 17px Georgia, serif; color: rgb(20, 40, 60)';
    const looks = new Set<string>();
    for (const { type, other } of WIDGETS) {
      for (const options of [{ key: keyOf(other) }, { baseUrl: service.down }, { key: '' }]) {
        const el = await mount(type, options);
        page.append(el);
        await settled(el, 'error');
        const line = alertOf(el).querySelector('p')!;
        const style = getComputedStyle(line);
        looks.add(
          [
            style.fontFamily,
            style.fontSize,
            style.color,
            style.backgroundColor,
            getComputedStyle(alertOf(el)).backgroundColor,
            style.borderStyle,
          ].join(' | '),
        );
      }
    }
    expect([...looks]).to.deep.equal(['Georgia, serif | 17px | rgb(20, 40, 60) | rgba(0, 0, 0, 0) | rgba(0, 0, 0, 0) | none']);
  });
});

describe('the page’s text styles', () => {
  it('reach every widget as its font and colour, and in nothing else (a centred, uppercase, spaced body)', async () => {
    const page = await fixture<HTMLElement>(html`<div></div>`);
    page.style.cssText =
      'font: 17px Georgia, serif; color: rgb(20, 40, 60); text-align: center; text-transform: uppercase; letter-spacing: 3px; word-spacing: 9px; text-indent: 2em; white-space: pre; text-shadow: 1px 1px red';
    const looks = new Set<string>();
    for (const { type } of WIDGETS) {
      const el = await mount(type);
      page.append(el);
      await settled(el, 'ready');
      const heading = getComputedStyle(el.shadowRoot!.querySelector('h2')!);
      looks.add(
        [
          heading.fontFamily,
          heading.color,
          heading.textAlign,
          heading.textTransform,
          heading.letterSpacing,
          heading.wordSpacing,
          heading.textIndent,
          heading.whiteSpace,
          heading.textShadow,
        ].join(' | '),
      );
    }
    expect([...looks]).to.deep.equal(['Georgia, serif | rgb(20, 40, 60) | start | none | normal | 0px | 0px | normal | none']);
  });
});
