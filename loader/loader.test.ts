import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { failOnWarnings, keyOf, service, until } from '../test/browser/support.ts';
import type { DiagnoseRow } from '../contract/page.ts';

/**
 * The built v1 loader, served by the reference service (so chunks and API calls cross origins, as
 * on a customer's site), against placeholders added to this page. Page-level rules (script in
 * <head>, both loaders, double loading, insecure pages) are in test/e2e/loader.spec.ts.
 */
type Row = DiagnoseRow;
const widgets = () => window.ServiceWidgets!;

failOnWarnings();

const loaderUrl = `${service.url}widgets/v1/loader.js`;

before(async () => {
  const script = document.createElement('script');
  script.src = loaderUrl;
  const loaded = oneEvent(script, 'load');
  document.head.append(script);
  await loaded;
});

const errors: string[] = [];
const originalError = console.error;
beforeEach(() => {
  errors.length = 0;
  console.error = (...args: unknown[]) => errors.push(args.join(' '));
});
afterEach(() => (console.error = originalError));

/**
 * Adds a placeholder to the page (found by the loader's observer, or given to `mount`) and waits for
 * its outcome.
 */
const place = async (attributes: Record<string, string>, inner = '', mount?: (div: HTMLElement) => void) => {
  const div = document.createElement('div');
  for (const [name, value] of Object.entries(attributes)) div.setAttribute(name, value);
  div.innerHTML = inner;
  const outcome = new Promise<CustomEvent>((resolve) => {
    div.addEventListener('service-widget-ready', (e) => resolve(e as CustomEvent), { once: true });
    div.addEventListener('service-widget-error', (e) => resolve(e as CustomEvent), { once: true });
  });
  (await fixture(html`<section></section>`)).append(div);
  mount?.(div);
  return { div, event: await outcome };
};

const expectError = async (
  attributes: Record<string, string>,
  code: string,
  says: RegExp,
  mount?: (div: HTMLElement) => void,
) => {
  const { div, event } = await place(attributes, '<a href="/book">Book on our site</a>', mount);
  expect(event.type).to.equal('service-widget-error');
  expect(event.detail.code).to.equal(code);
  expect(div.dataset.serviceState).to.equal('error');
  expect(div.dataset.serviceError).to.equal(code);
  // The site owner's own content stays; the fix-it message is visible in the div.
  expect(div.querySelector('a')!.textContent).to.equal('Book on our site');
  expect(div.innerText).to.match(says);
  expect(errors.filter((line) => line.includes(event.detail.message))).to.have.length(1);
  return div;
};

describe('loader v1', () => {
  it('exposes the shared global with its version', () => {
    expect(widgets().versions).to.deep.equal(['v1']);
  });

  it('mounts a registration widget: loading, then ready, fallback content replaced', async () => {
    const div = document.createElement('div');
    div.dataset.serviceWidget = 'registration';
    div.dataset.serviceId = keyOf('registration');
    div.innerHTML = '<a href="/book">Book on our site</a>';
    const ready = oneEvent(div, 'service-widget-ready');
    (await fixture(html`<section></section>`)).append(div);
    await new Promise(requestAnimationFrame);
    // While loading: the owner's link is still there, shown in place of the widget, and the space is reserved.
    expect(div.dataset.serviceState).to.equal('loading');
    expect(div.querySelector('a')).to.not.equal(null);
    expect(div.querySelector('service-registration')?.hidden ?? true).to.equal(true);
    expect(div.getBoundingClientRect().height).to.be.at.least(400);
    const { detail } = await ready;
    expect(detail).to.deep.equal({ type: 'registration' });
    expect(div.dataset.serviceState).to.equal('ready');
    expect(div.querySelector('a')).to.equal(null);
    const el = div.querySelector('service-registration')!;
    expect(el.getAttribute('key')).to.equal(keyOf('registration'));
    expect(el.getAttribute('base-url')).to.equal(service.url);
    expect(el.shadowRoot!.textContent).to.contain('Acme Academy');
    expect(errors).to.have.length(0);
  });

  it('shows a widget loading in its reserved space, announced, when the div holds nothing of the owner’s', async () => {
    const div = document.createElement('div');
    div.dataset.serviceWidget = 'registration';
    div.dataset.serviceId = keyOf('registration');
    // The element as the loader adds it, before its data can have come.
    const added = new Promise<HTMLElement>((resolve) =>
      new MutationObserver((_, observer) => {
        const el = div.querySelector<HTMLElement>('service-registration');
        if (!el) return;
        observer.disconnect();
        resolve(el);
      }).observe(div, { childList: true }),
    );
    const ready = oneEvent(div, 'service-widget-ready');
    (await fixture(html`<section></section>`)).append(div);
    const el = (await added) as HTMLElement & { updateComplete: Promise<boolean>; loadState: string };
    await el.updateComplete;
    expect(el.loadState).to.equal('loading');
    // Shown (a hidden widget's "Loading…" reaches no screen reader), in the space reserved.
    expect(el.hidden).to.equal(false);
    expect(el.shadowRoot!.querySelector('[role=status]')!.textContent).to.equal('Loading…');
    expect(el.getBoundingClientRect().height).to.be.at.least(400);
    await ready;
  });

  it('passes data-service-* options to the widget, live', async () => {
    const { div } = await place({
      'data-service-widget': 'registration',
      'data-service-id': keyOf('registration'),
      'data-service-course': 'crs_ts',
    });
    const el = div.querySelector('service-registration')!;
    expect(el.getAttribute('course')).to.equal('crs_ts');
    div.setAttribute('data-service-course', 'crs_open');
    await new Promise((resolve) => el.addEventListener('service-state', resolve, { once: true }));
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('h3')!.textContent).to.equal('Open day: meet the trainers');
    expect(div.querySelectorAll('service-registration')).to.have.length(1);
  });

  it('forwards only the widget’s own attributes: no handlers, styles or overrides from data-service-*', async () => {
    const { div } = await place({
      'data-service-widget': 'registration',
      'data-service-id': keyOf('registration'),
      'data-service-locale': 'de',
      'data-service-onclick': 'window.hacked = true',
      'data-service-hidden': '',
      'data-service-base-url': 'https://evil.example/',
    });
    const el = div.querySelector('service-registration')!;
    expect(el.getAttribute('locale')).to.equal('de');
    expect(el.shadowRoot!.textContent).to.contain('Programme von Acme Academy');
    for (const name of ['onclick', 'hidden']) expect(el.hasAttribute(name)).to.equal(false);
    expect(el.getAttribute('base-url')).to.equal(service.url);
    el.click();
    expect((window as unknown as { hacked?: boolean }).hacked).to.equal(undefined);
    // A refused option, then an allowed one in the same task: once the allowed one reaches the widget,
    // the loader has seen both.
    const changed: string[] = [];
    const seen = new Promise<void>((resolve) => {
      new MutationObserver((records, observer) => {
        changed.push(...records.map((r) => r.attributeName!));
        if (el.getAttribute('locale') !== 'en') return;
        observer.disconnect();
        resolve();
      }).observe(el, { attributes: true });
    });
    div.setAttribute('data-service-style', 'display:none');
    div.setAttribute('data-service-locale', 'en');
    await seen;
    expect(changed).to.deep.equal(['locale']);
  });

  it('a div moved while loading still becomes ready, and reports it once', async () => {
    const div = document.createElement('div');
    div.dataset.serviceWidget = 'registration';
    div.dataset.serviceId = keyOf('registration');
    let readies = 0;
    div.addEventListener('service-widget-ready', () => readies++);
    const [first, second] = [document.createElement('section'), document.createElement('section')];
    document.body.append(first, second);
    // Move the div once its widget has started loading its data (in its first update).
    const moved = new Promise<void>((resolve) => {
      new MutationObserver(async (_, observer) => {
        const el = div.querySelector('service-registration');
        if (!el) return;
        observer.disconnect();
        await el.updateComplete;
        expect(el.loadState).to.equal('loading');
        second.append(div);
        resolve();
      }).observe(div, { childList: true });
    });
    const ready = oneEvent(div, 'service-widget-ready');
    first.append(div);
    await moved;
    await ready;
    expect(div.dataset.serviceState).to.equal('ready');
    expect(div.style.minHeight).to.equal('26.25em', 'the reserved space is kept: nothing below moves');
    first.remove();
    // An option change reloads the widget without a second ready event.
    div.setAttribute('data-service-course', 'crs_ts');
    const el = div.querySelector('service-registration')!;
    await new Promise((resolve) => el.addEventListener('service-state', resolve, { once: true }));
    expect(readies).to.equal(1);
    second.remove();
  });

  it('reserves the widget’s space while it loads and keeps it once it shows; an owner’s own min-height is theirs', async () => {
    const place = async (minHeight?: string) => {
      const div = document.createElement('div');
      div.dataset.serviceWidget = 'registration';
      div.dataset.serviceId = keyOf('registration');
      if (minHeight) div.style.minHeight = minHeight;
      const seen: string[] = [];
      // Reserved while loading (the loader sets the state and the height in one go) ...
      new MutationObserver(() => seen.push(`${div.dataset.serviceState} ${div.style.minHeight}`)).observe(div, {
        attributeFilter: ['data-service-state'],
      });
      const ready = oneEvent(div, 'service-widget-ready');
      (await fixture(html`<section></section>`)).append(div);
      await ready;
      await new Promise(requestAnimationFrame);
      return { div, seen };
    };
    const reserved = await place();
    expect(reserved.seen).to.deep.equal(['loading 26.25em', 'ready 26.25em']);
    // ... and a space the owner chose (a single programme is shorter) stays theirs, smaller or not.
    const own = await place('280px');
    expect(own.seen).to.deep.equal(['loading 280px', 'ready 280px']);
  });

  it('unknown-type lists the known types, and no inherited name counts as a type', async () => {
    await expectError(
      { 'data-service-widget': 'constructor', 'data-service-id': 'x' },
      'unknown-type',
      /Unknown widget type "constructor"/,
    );
  });

  it('unknown-type lists the known types', async () => {
    await expectError(
      { 'data-service-widget': 'calender', 'data-service-id': 'x' },
      'unknown-type',
      /registration, profile, contact, calendar/,
    );
  });

  it('mount() on a div without data-service-widget does not throw: unknown-type says which attribute to set', async () => {
    const div = await expectError(
      { 'data-service-id': 'x' },
      'unknown-type',
      /Unknown widget type "". Set data-service-widget to one of: registration, profile, contact, calendar, checkout, video, map\./,
      (div) => widgets().mount(div),
    );
    expect(errors[0]).to.match(/^\[service-widgets\] \(no type\): Unknown widget type ""/);
    const rows = (await widgets().diagnose()).filter((r) => r.element === div);
    expect(rows.map(({ element, ...row }) => row)).to.deep.equal([
      { type: '', version: '', state: 'error', error: 'unknown-type' },
    ]);
  });

  it('wrong-loader names the script to use instead', async () => {
    const div = await expectError(
      { 'data-service-widget': 'calendar', 'data-service-id': keyOf('calendar') },
      'wrong-loader',
      /v2/,
    );
    expect(div.innerText).to.contain(`${service.url}widgets/v2/loader.js`);
  });

  it('missing-key says which attribute to add, and leaves the owner’s min-height alone', async () => {
    const div = await expectError(
      { 'data-service-widget': 'registration', style: 'min-height: 123px' },
      'missing-key',
      /data-service-id=/,
    );
    expect(div.style.minHeight).to.equal('123px');
  });

  for (const [code, key] of [
    ['invalid-key', keyOf('registration', 'revoked')],
    ['type-mismatch', keyOf('profile')],
    ['origin-not-allowed', keyOf('registration', 'example')],
    ['not-available', keyOf('registration', 'disabled')],
  ]) {
    it(`${code} from the service's answer`, async () => {
      const { div, event } = await place(
        { 'data-service-widget': 'registration', 'data-service-id': key! },
        '<a href="/book">Book</a>',
      );
      expect(event.detail.code).to.equal(code);
      expect(div.dataset.serviceError).to.equal(code);
      expect(div.querySelector('a')).to.not.equal(null);
      // The widget shows the message (with no retry: retrying cannot help).
      const el = div.querySelector('service-registration')!;
      expect(el.hidden).to.equal(false);
      expect(el.shadowRoot!.querySelector('[role=alert]')!.textContent).to.contain(event.detail.message);
      expect(errors).to.have.length(1);
    });
  }

  it('never mounts one div twice: scan() and mount() again', async () => {
    const { div } = await place({ 'data-service-widget': 'registration', 'data-service-id': keyOf('registration') });
    widgets().scan();
    widgets().mount(div);
    widgets().scan(div.parentElement!);
    expect(div.querySelectorAll('service-registration')).to.have.length(1);
  });

  it('diagnose() resolves with and prints a table of every placeholder, and forgets removed ones', async () => {
    const { div } = await place({ 'data-service-widget': 'calender', 'data-service-id': 'x' });
    const tables: unknown[] = [];
    const originalTable = console.table;
    console.table = (rows: unknown) => tables.push(rows);
    let rows: Row[];
    try {
      rows = await widgets().diagnose();
    } finally {
      console.table = originalTable;
    }
    expect(tables).to.have.length(1);
    expect(rows.find((r) => r.element === div)).to.include({
      type: 'calender',
      version: '',
      state: 'error',
      error: 'unknown-type',
    });
    div.remove();
    // A placeholder added after the removal: once the loader has reported it, it has seen the removal.
    const { div: added } = await place({ 'data-service-widget': 'calender', 'data-service-id': 'y' });
    const after = await widgets().diagnose();
    expect(after.some((r) => r.element === added)).to.equal(true);
    expect(after.some((r) => r.element === div)).to.equal(false);
  });

  it('a removed widget stops its work and re-adding the div does not mount it again', async () => {
    // The widget's first request (the loader's, started with its code), caught as it is sent and held
    // until the div has been removed.
    const realFetch = window.fetch;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sent = new Promise<{ url: string; outcome: Promise<string> }>((resolve) => {
      window.fetch = (input, init) => {
        const answer = held.then(() => realFetch(input, init));
        resolve({
          url: String(input),
          outcome: answer.then(
            () => 'answered',
            (error: Error) => error.name,
          ),
        });
        return answer;
      };
    });
    try {
      const div = document.createElement('div');
      div.dataset.serviceWidget = 'registration';
      div.dataset.serviceId = keyOf('registration');
      const events: string[] = [];
      for (const type of ['service-widget-ready', 'service-widget-error']) div.addEventListener(type, () => events.push(type));
      const parent = await fixture(html`<section></section>`);
      parent.append(div);
      const request = await sent;
      window.fetch = realFetch;
      await until(() => !!div.querySelector('service-registration'), 'the widget');
      const el = div.querySelector('service-registration')!;
      div.remove();
      release();
      expect(request.url).to.contain('/widget-api/v1/widget?');
      // Its work stopped: the answer came, and was not taken. (Another placeholder of the same key,
      // which asks after it, is ready only once the answer's turn has passed.)
      expect(await request.outcome).to.equal('answered');
      await place({ 'data-service-widget': 'registration', 'data-service-id': keyOf('registration') });
      expect(div.dataset.serviceState).to.equal('loading');
      expect(events).to.deep.equal([]);
      // Re-added: the same widget takes up its work and the div reports it once. A second mount would
      // set the div loading first, at once.
      const states: string[] = [];
      new MutationObserver((records) => states.push(...records.map(() => div.dataset.serviceState!))).observe(div, {
        attributeFilter: ['data-service-state'],
      });
      const ready = oneEvent(div, 'service-widget-ready');
      parent.append(div);
      await ready;
      expect(states).to.deep.equal(['ready']);
      expect(div.querySelectorAll('service-registration')).to.have.length(1);
      expect(div.querySelector('service-registration') === el).to.equal(true);
      expect(events).to.deep.equal(['service-widget-ready']);
      expect((await widgets().diagnose()).filter((r) => r.element === div)).to.have.length(1);
    } finally {
      window.fetch = realFetch;
    }
  });
});

describe('loader v1, its chunks unreachable', () => {
  /**
   * A page of its own (an iframe) whose Content-Security-Policy allows the loader's file and nothing
   * else: none of its chunks comes, neither the widget's code nor the loader's messages, as when the
   * service is gone after the page got the loader. Resolves with the line the placeholder shows.
   */
  const lineOf = async (lang: string, attributes: string) => {
    const frame = document.createElement('iframe');
    frame.srcdoc = `<!doctype html><html lang="${lang}"><head><meta http-equiv="Content-Security-Policy" content="script-src ${loaderUrl}"></head>
      <body><div data-service-widget="registration" data-service-id="${keyOf('registration')}" ${attributes}><a href="/book">Book on our site</a></div>
      <script src="${loaderUrl}"></script></body></html>`;
    (await fixture(html`<section></section>`)).append(frame);
    await until(() => !!frame.contentDocument?.querySelector('[data-service-message]'), 'the loader’s line', 10_000);
    const div = frame.contentDocument!.querySelector<HTMLElement>('[data-service-widget]')!;
    expect(div.dataset.serviceError).to.equal('network');
    expect(div.querySelector('a')!.textContent).to.equal('Book on our site');
    return div.querySelector('[data-service-message]')!;
  };
  const EN = 'Could not load. Check the connection and reload the page.';
  const DE = 'Laden fehlgeschlagen. Bitte Seite neu laden.';

  for (const [where, lang, attributes, says] of [
    ['an English page', 'en', '', EN],
    ['a German page', 'de-AT', '', DE],
    ['a German placeholder on an English page', 'en', 'data-service-locale="de"', DE],
    ['an English placeholder on a German page', 'de', 'data-service-locale="en"', EN],
  ])
    it(`says what to do in the placeholder’s language: ${where}`, async () => {
      const line = await lineOf(lang!, attributes!);
      expect(line.textContent).to.equal(says);
      expect(line.getAttribute('role')).to.equal('alert');
    });
});
