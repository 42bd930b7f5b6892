/**
 * What the browser tests share: the reference service the test runner started (its URL and seed),
 * a guard that fails a test on any Lit development warning, and small waits on widget state (`settled`, `until`).
 */
import { chai, expect, fixture, html } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import type { Order } from '../../contract/api/index.ts';
import type { LoadState, ServiceElement } from '../../widgets/shared/base.ts';

interface Seed {
  widget_keys: { key: string; type: string; company_id: number; origins: string[]; enabled?: boolean; revoked?: boolean }[];
  participants: { email: string; company_id: number }[];
  classes?: Record<string, string>;
}

declare global {
  interface Window {
    SERVICE: { url: string; strict: string; grown: string; down: string; seed: Seed };
  }
}

export const service = window.SERVICE;

/** The seeded key of a widget type (of Acme Academy, serving localhost), or a named special one. */
export const keyOf = (type: string, variant?: 'example' | 'revoked' | 'disabled') =>
  variant ? `wk_demo_${type}_${variant}` : `wk_demo_${type}`;

/** Fails the current test if Lit (in development mode) or a widget warns. */
export const failOnWarnings = () => {
  const original = console.warn;
  let warnings: unknown[][] = [];
  beforeEach(() => {
    warnings = [];
    console.warn = (...args: unknown[]) => {
      // Printed once per page by Lit's development build: not about our code.
      if (String(args[0]).includes('Lit is in dev mode')) return;
      warnings.push(args);
      original(...args);
    };
  });
  afterEach(() => {
    console.warn = original;
    if (warnings.length) throw new Error(`Unexpected warnings: ${warnings.map((w) => w.join(' ')).join('\n')}`);
  });
};

/** Resolves once the widget's load has settled in `state` (at once if it already has). */
export const settled = async <T extends ServiceElement<unknown>>(el: T, state: LoadState = 'ready'): Promise<T> => {
  while (el.loadState !== state) {
    await new Promise((resolve) => el.addEventListener('service-state', resolve, { once: true }));
    if (el.loadState !== state && el.loadState !== 'loading') {
      throw new Error(`Expected ${state}, got ${el.loadState} (${el.errorCode}: ${el.errorMessage})`);
    }
  }
  await el.updateComplete;
  return el;
};

/**
 * Resolves once `check()` holds, looked at before each frame (what the visitor would see next);
 * rejects after `timeout` ms, naming `what` (a test's own timeout would say nothing of it).
 */
export const until = (check: () => boolean, what = 'a condition', timeout = 6000) =>
  new Promise<void>((resolve, reject) => {
    const end = Date.now() + timeout;
    (function wait() {
      if (check()) resolve();
      else if (Date.now() > end) reject(new Error(`Timed out waiting for ${what}`));
      else requestAnimationFrame(wait);
    })();
  });

/**
 * Holds a widget to a reservation as the loader does (its own min-height, `reserved` px at a 16 px
 * font) at `width` px wide, and resolves once its first view has fitted itself to it.
 */
export const reserve = async <T extends ServiceElement<unknown>>(el: T, width: number, reserved: number): Promise<T> => {
  Object.assign(el.style, { display: 'block', width: `${width}px`, minHeight: `${reserved / 16}em`, fontSize: '16px' });
  el.requestUpdate();
  await el.updateComplete;
  await fitted(el);
  return el;
};

/**
 * Resolves once a held first view shows no more than fits (its fitting, a chunk of its own, has come
 * and taken out what does not fit whole), at once for a view that is not held.
 */
export const fitted = async (el: Element) => {
  await until(() => {
    const fill = el.shadowRoot!.querySelector('.first .fill');
    return !fill || fill.scrollHeight <= fill.clientHeight;
  }, 'the first view fitted');
};

/**
 * What the visitor sees of a held first view: every item (`li`) shown is whole, inside the widget's
 * space; none is half-cut, no heading stands without its first item. Returns the items shown.
 */
export const expectWholeItems = async (el: Element) => {
  await fitted(el);
  const root = el.shadowRoot!;
  const bottom = el.getBoundingClientRect().bottom + 0.5;
  const shown = [...root.querySelectorAll<HTMLElement>('.fill li')].filter((li) => li.getClientRects().length);
  for (const li of shown)
    expect(li.getBoundingClientRect().bottom, `${li.textContent!.trim().slice(0, 40)}… whole`).to.be.at.most(bottom);
  for (const h of root.querySelectorAll<HTMLElement>('.fill h3')) {
    const list = h.nextElementSibling;
    if (h.getClientRects().length && list?.matches('ul'))
      expect(list.querySelector('li')!.getClientRects().length, `${h.textContent} has a class`).to.be.above(0);
  }
  return shown;
};

/** A fetch that forwards to the real one after `failures` calls have failed like an unreachable service. */
export const flakyFetch = (failures: number) => {
  const calls: string[] = [];
  const fetcher: typeof fetch = (input, init) => {
    calls.push(String(input));
    return calls.length <= failures ? Promise.reject(new TypeError('Failed to fetch')) : fetch(input, init);
  };
  return Object.assign(fetcher, { calls });
};

/**
 * Calls a dev endpoint of the service (`/dev/clock`, `/dev/outbox`, …), through the test server;
 * of the strict service (`service.strict`) with `{ strict: true }`.
 */
export const dev = async <T = unknown>(path: string, body?: unknown, { strict = false } = {}): Promise<T> => {
  const answer = await fetch(
    `${strict ? '/strict' : ''}/dev/${path}`,
    body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) },
  );
  if (!answer.ok) throw new Error(`/dev/${path} answered ${answer.status}: ${await answer.text()}`);
  return answer.status === 204 ? (undefined as T) : ((await answer.json()) as T);
};

/**
 * A REST API call of Acme's owner (Acme's application, its client secret), through the test server:
 * what an owner sets in the app, such as a widget's options.
 */
export const asOwner = async <T = unknown>(path: string, method = 'GET', body?: unknown): Promise<T> => {
  const headers = { 'X-Service-Api-Key': 'rk_demo_acme' };
  const login = await fetch('/v1/login', {
    method: 'POST',
    headers,
    body: JSON.stringify({
      login: 'olivia.owner@acme.example',
      verification_method: 'client_secret',
      client_secret: 'cs_demo_acme_secret',
    }),
  });
  const { token } = (await login.json()) as { token: string };
  const answer = await fetch(path, {
    method,
    headers: { ...headers, 'X-Service-Token': token, 'X-Service-Company': '1' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as T;
};

/** The words of a form's own check (widgets/shared/form.ts and form.de.ts), as a visitor reads them. */
export const FORM_WORDS = {
  en: {
    fillIn: 'Fill in this field.',
    pickOne: 'Choose one from the list.',
    tickBox: 'Tick the box to agree.',
    line: 'Please correct the highlighted fields.',
  },
  de: {
    fillIn: 'Füllen Sie dieses Feld aus.',
    pickOne: 'Wählen Sie einen Eintrag aus der Liste.',
    tickBox: 'Setzen Sie hier ein Häkchen, um zuzustimmen.',
    line: 'Bitte korrigieren Sie die markierten Felder.',
  },
};

/**
 * What a visitor sees of a form's faults, all at once: each field named in `faults` (by its `name`,
 * in the order of the form) marked `aria-invalid="true"` and in the colour of its message, described
 * by its message, no other field marked, `line` above the button, and the focus on the first field
 * at fault.
 */
export const expectFaults = async (el: Element, faults: Record<string, string>, line: string) => {
  const root = el.shadowRoot!;
  await until(() => root.activeElement?.getAttribute('aria-invalid') === 'true', 'the focus on a field at fault');
  const marked = [...root.querySelectorAll<HTMLElement>('[aria-invalid="true"]')];
  expect(
    marked.map((control) => control.getAttribute('name')),
    'the fields at fault',
  ).to.deep.equal(Object.keys(faults));
  for (const control of marked) {
    const name = control.getAttribute('name')!;
    const described = control
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => root.getElementById(id)?.textContent);
    expect(described, `what describes ${name}`).to.include(faults[name]);
    // Marked in the colour of its message too (a box to tick keeps the browser's own).
    if (control.getAttribute('type') !== 'checkbox')
      expect(getComputedStyle(control).borderTopColor, `${name}'s border`).to.equal(
        getComputedStyle(root.getElementById(`${name}-error`)!).color,
      );
  }
  expect(root.getElementById('form-error')!.textContent!.trim()).to.equal(line);
  expect(root.activeElement, 'the focus').to.equal(marked[0]);
};

/** The hooks of Lit and of the base that a widget overrides: public in JavaScript, but no API of the widget. */
const HOOKS = new Set([
  'connectedCallback',
  'disconnectedCallback',
  'willUpdate',
  'render',
  'firstUpdated',
  'updated',
  'load',
  'loadWords',
  'step',
]);

/**
 * The methods a widget's class adds to its prototype beyond those hooks, sorted. A widget's public
 * side is its attributes, properties and events; the chunks it loads get callbacks rather than public
 * methods (which a page could call).
 */
export const ownMethods = (element: CustomElementConstructor) =>
  Object.entries(Object.getOwnPropertyDescriptors(element.prototype))
    .filter(([name, { value }]) => name !== 'constructor' && typeof value === 'function' && !HOOKS.has(name))
    .map(([name]) => name)
    .sort();

/** The visible text of an element's shadow root, white space folded. */
export const textOf = (el: Element) => (el.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Mounts `widget` on a page in dark mode (light text on near-black), and returns that page. */
export const darkPage = async (widget: TemplateResult) => {
  const page = await fixture<HTMLElement>(html`<div>${widget}</div>`);
  page.style.cssText = 'background: #1e1e1e; color: #eeeeee; padding: 1rem';
  return page;
};

/**
 * The loading state of every widget: mounts it (through `mount`, given a fetch that holds the
 * service's answers back) and checks the skeleton, its reserved space, the announcement and
 * accessibility; then lets the answers through and checks the widget settles ready, the skeleton and
 * the announcement's region gone.
 */
export const expectLoadingState = async <T extends ServiceElement<unknown>>(
  mount: (fetcher: typeof fetch) => Promise<T>,
  { skeletons, minHeight }: { skeletons: number; minHeight: number },
) => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const el = await mount((input, init) => gate.then(() => fetch(input, init)));
  expect(el.shadowRoot!.querySelectorAll('.skeleton')).to.have.length(skeletons);
  expect(el.getBoundingClientRect().height).to.be.greaterThan(minHeight);
  // Announced, in no part marked busy (whose changes a screen reader may hold back).
  const status = el.shadowRoot!.querySelector('[role=status]')!;
  expect(status.textContent).to.equal('Loading…');
  expect(!!status.closest('[aria-busy=true]'), 'in a part marked busy').to.equal(false);
  await expect(el).to.be.accessible();
  release();
  await settled(el);
  expect(el.shadowRoot!.querySelectorAll('.skeleton').length, 'skeletons once ready').to.equal(0);
  expect(status.isConnected, 'no region of its own once ready').to.equal(false);
};

/**
 * An order placed straight through the widget API (another visitor, or a participant whose profile a
 * test reads), in the service at `baseUrl`: its `order` and the `token` that may cancel it. By
 * invoice, or by card: then it holds its seats (and its voucher's use) while it waits for its
 * payment. Its attendees are the buyer, or the names given.
 */
export const placeOrder = async (
  classId: string,
  seats: number,
  {
    buyer = { first_name: 'Other', last_name: 'Visitor', email: 'other.visitor@example.org' },
    attendees,
    paymentMethod = 'invoice',
    baseUrl = service.url,
    voucher,
  }: {
    buyer?: { first_name: string; last_name: string; email: string };
    attendees?: { first_name: string; last_name: string }[];
    paymentMethod?: 'invoice' | 'card';
    baseUrl?: string;
    voucher?: string;
  } = {},
) => {
  const { first_name, last_name } = buyer;
  const answer = await fetch(new URL('widget-api/v1/orders?key=wk_demo_checkout', baseUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({
      items: [
        { class_id: classId, seats, attendees: attendees ?? Array.from({ length: seats }, () => ({ first_name, last_name })) },
      ],
      buyer: { ...buyer, address: { line1: 'Am Markt 1', postal_code: '20095', city: 'Hamburg', country: 'DE' } },
      payment_method: paymentMethod,
      voucher,
      ...(paymentMethod === 'card' ? { return_url: location.href } : {}),
      consent: true,
    }),
  });
  if (answer.status !== 201) throw new Error(`The order answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as { order: Order; token: string };
};

/**
 * Another visitor's card order that holds `seats` of a class while it waits for its payment (in the
 * service at `baseUrl`); `release()` cancels it, so that its seats are free again at once.
 */
export const holdSeats = async (classId: string, seats: number, baseUrl = service.url, voucher?: string) => {
  const { order, token } = await placeOrder(classId, seats, {
    buyer: { first_name: 'Held', last_name: 'Seat', email: 'held.seat@example.org' },
    paymentMethod: 'card',
    baseUrl,
    voucher,
  });
  return {
    release: async () => {
      const cancelled = await fetch(new URL(`widget-api/v1/orders/${order.id}/cancel?key=wk_demo_checkout`, baseUrl), {
        method: 'POST',
        headers: { 'X-Order-Token': token },
      });
      if (!cancelled.ok) throw new Error(`Cancelling the order that held seats answered ${cancelled.status}`);
    },
  };
};

/**
 * Checks a "try again in N min" line against the end of a hold: N is the minutes left then (or one
 * more, should a minute have turned between drawing and checking). The service's clock may be ahead
 * of this browser's (other tests move it): what the visitor sees is counted on the browser's.
 */
export const expectMinutesUntil = (shown: number, heldUntil: string) => {
  const left = Math.max(1, Math.ceil((Date.parse(heldUntil) - Date.now()) / 60_000));
  expect([left, left + 1]).to.include(shown);
};

/**
 * Signs a participant in through the widget API as the profile widget does (the PIN from the outbox)
 * and answers their token, for a page's session.
 */
export const participantToken = async (email: string, key = 'wk_demo_profile') => {
  const call = (path: string, body: unknown) =>
    fetch(new URL(`widget-api/v1/participant/${path}?key=${key}`, service.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  if ((await call('login', { email, return_url: location.href })).status !== 202) throw new Error(`No login for ${email}`);
  const { emails } = await dev<{ emails: { pin: string }[] }>(`outbox?to=${encodeURIComponent(email)}`);
  const verified = await call('verify', { email, pin: emails[0]!.pin });
  if (!verified.ok) throw new Error(`No sign-in for ${email}: ${await verified.text()}`);
  return ((await verified.json()) as { token: string }).token;
};

export type Rgba = [r: number, g: number, b: number, a: number];

/**
 * A CSS colour as the browser paints it (any syntax it computes: `rgb()`, `color(srgb …)`, with
 * alpha); what is no colour (`none`) paints nothing.
 */
export const paint = (() => {
  const context = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true })!;
  return (color: string): Rgba => {
    context.clearRect(0, 0, 1, 1);
    context.fillStyle = 'transparent';
    context.fillStyle = color;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!, a! / 255];
  };
})();

/** `top` painted over an opaque `bottom`. */
export const over = (top: Rgba, bottom: Rgba): Rgba =>
  [0, 1, 2].map((i) => top[i]! * top[3] + bottom[i]! * (1 - top[3])).concat(1) as Rgba;

const luminance = ([r, g, b]: Rgba) =>
  [r, g, b]
    .map((c) => c / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i]!, 0);

/** The WCAG contrast ratio of two colours (`a` over `b` where it lets `b` through). */
export const contrast = (a: Rgba, b: Rgba) => {
  a = over(a, b);
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
};

/** The element a node is drawn in: its slot, its parent, or the host of its shadow root. */
const drawnIn = (node: Element) =>
  node.assignedSlot ?? node.parentElement ?? ((node.parentNode as ShadowRoot | null)?.host as Element | undefined) ?? null;

/** The opaque colour behind an element's content: its background over its ancestors' (the page's canvas white). */
export const backdrop = (el: Element): Rgba => {
  const layers: Rgba[] = [];
  for (let node: Element | null = el; node && layers.at(-1)?.[3] !== 1; node = drawnIn(node)) {
    const color = paint(getComputedStyle(node).backgroundColor);
    if (color[3]) layers.push(color);
  }
  return layers.reduceRight<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1]);
};

const deepActive = () => {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active as HTMLElement | null;
};

const nameOf = (el: Element) =>
  `<${el.localName}${el.id ? '#' + el.id : ''}> "${(el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)}"`;

/** What of an element's look a focus indicator may change. */
const look = (el: Element) => {
  const s = getComputedStyle(el);
  return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.outlineOffset, s.boxShadow, s.backgroundColor, s.borderColor].join(
    ' ',
  );
};

/** An element and the elements it is drawn in, up to its widget's host. */
const drawnWithin = (el: Element) => {
  const chain = [el];
  while (!chain.at(-1)!.shadowRoot && drawnIn(chain.at(-1)!)) chain.push(drawnIn(chain.at(-1)!)!);
  return chain;
};

/**
 * What is wrong with the focus indicator of an element that has just taken the focus, if anything
 * (`unfocused`: the looks of it and the elements it is drawn in before, `drawnWithin`): no
 * `:focus-visible`, no change of look, no ring (an outline of it, or of a box around it: a map's
 * ring is its box's), a ring cut by a box around it that clips, or a ring of less than `min` (3:1,
 * WCAG 1.4.11) against the colours beside it: the page behind the ringed element for a ring around
 * it, its own background for a ring inside it.
 */
export const focusRing = (el: HTMLElement, unfocused: string[], min = 3): string | undefined => {
  if (!el.matches(':focus-visible')) return 'shows no focus (:focus-visible does not match)';
  const chain = drawnWithin(el);
  const changed = chain.filter((node, i) => look(node) !== unfocused[i]);
  if (!changed.length) return 'looks the same with and without the focus';
  const ringed = changed.find((node) => {
    const s = getComputedStyle(node);
    return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
  });
  if (!ringed) return 'has no focus ring (outline)';
  const s = getComputedStyle(ringed);
  const width = parseFloat(s.outlineWidth);
  const offset = parseFloat(s.outlineOffset);
  const ring = paint(s.outlineColor);
  const behind = backdrop(drawnIn(ringed)!);
  // Beside the ring: the page behind the element (around it, and in the gap of an offset), its own
  // background (a ring drawn inside it, or touching it).
  const beside = offset > 0 ? [behind] : offset + width <= 0 ? [backdrop(ringed)] : [backdrop(ringed), behind];
  const ratio = Math.min(...beside.map((color) => contrast(over(ring, color), color)));
  if (ratio < min)
    return `has a ring of ${ratio.toFixed(2)}:1 (${s.outlineColor} beside ${beside.map((c) => `rgb(${c.slice(0, 3).join(' ')})`).join(' and ')})`;
  // Cut by a box that clips its overflow (the element itself inside it: one scrolled out is not shown).
  const out = Math.max(0, offset + width);
  const box = ringed.getBoundingClientRect();
  for (const node of drawnWithin(ringed).slice(1)) {
    const style = getComputedStyle(node);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const r = node.getBoundingClientRect();
    const [top, right, bottom, left] = ['top', 'right', 'bottom', 'left'].map((side) =>
      parseFloat(style.getPropertyValue(`border-${side}-width`)),
    ) as [number, number, number, number];
    const clip = { top: r.top + top, right: r.right - right, bottom: r.bottom - bottom, left: r.left + left };
    const within = (grow: number) =>
      box.top - grow >= clip.top - 0.5 &&
      box.bottom + grow <= clip.bottom + 0.5 &&
      box.left - grow >= clip.left - 0.5 &&
      box.right + grow <= clip.right + 0.5;
    if (within(0) && !within(out)) return `has its ring cut by ${nameOf(node)} (overflow ${style.overflowX} ${style.overflowY})`;
  }
  return undefined;
};

/** What takes the focus in a shadow root: its Tab stops, and the headings and lines a widget moves the focus to. */
const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex^="-"]), [data-focus]';

/**
 * The focus rings of every widget in `root` (a widget, or a page holding widgets): each element that
 * takes the focus (a Tab stop, or a heading the widget moves the focus to) is focused in turn, and
 * its ring must show, be whole and keep 3:1 against what lies beside it (`focusRing`). The focus goes
 * back where it was. Every `to.be.accessible()` checks it too (below), on whatever page the test
 * mounted its widget: a light one, or a dark one (`darkPage`).
 */
export const expectFocusRings = (root: Element) => {
  const widgets = [root, ...root.querySelectorAll('*')].filter((el) => el.shadowRoot);
  const before = deepActive();
  const faults: string[] = [];
  try {
    for (const widget of widgets)
      for (const el of widget.shadowRoot!.querySelectorAll<HTMLElement>(FOCUSABLE)) {
        if ((el as HTMLButtonElement).disabled || !el.checkVisibility({ visibilityProperty: true }) || el.closest('[inert]'))
          continue;
        const { width, height } = el.getBoundingClientRect();
        if (width <= 1 || height <= 1) continue;
        if (el === deepActive()) el.blur();
        const unfocused = drawnWithin(el).map(look);
        // Focused as by Tab (a list that scrolls brings it into view), and then scrolled back.
        const scrolled = [...drawnWithin(el), document.scrollingElement!].map(
          (node) => [node, node.scrollTop, node.scrollLeft] as const,
        );
        el.focus();
        const fault = focusRing(el, unfocused);
        for (const [node, top, left] of scrolled) Object.assign(node, { scrollTop: top, scrollLeft: left });
        if (fault) faults.push(`${nameOf(el)} ${fault}`);
      }
  } finally {
    if (before && before !== document.body) before.focus({ preventScroll: true });
    else deepActive()?.blur();
  }
  expect(faults, `Focus rings:\n${faults.join('\n')}`).to.deep.equal([]);
};

/**
 * Every target of a pointer in the widgets of `root` (a button, a link, a field, a Tab stop) is at
 * least 24 × 24 px (WCAG 2.5.8), but for a link inside a sentence, which the criterion leaves out.
 */
export const expectTargetSizes = (root: Element) => {
  const small: string[] = [];
  for (const widget of [root, ...root.querySelectorAll('*')].filter((el) => el.shadowRoot))
    for (const el of widget.shadowRoot!.querySelectorAll<HTMLElement>(FOCUSABLE)) {
      if (el.matches('[data-focus], [tabindex^="-"]') || !el.checkVisibility({ visibilityProperty: true })) continue;
      const { width, height } = el.getBoundingClientRect();
      if (width <= 1 || height <= 1) continue;
      const inSentence =
        getComputedStyle(el).display === 'inline' && el.parentElement!.textContent!.trim() !== el.textContent!.trim();
      if (!inSentence && (width < 23.5 || height < 23.5)) small.push(`${nameOf(el)} ${width.toFixed(0)} × ${height.toFixed(0)}`);
    }
  expect(small, `Targets under 24 × 24 px:\n${small.join('\n')}`).to.deep.equal([]);
};

// `to.be.accessible()` is axe's, and then the focus rings' (expectFocusRings) and the targets'
// sizes (expectTargetSizes): every state a test checks with axe has them checked too.
chai.Assertion.overwriteMethod(
  'accessible',
  (axe: (...args: unknown[]) => Promise<void>) =>
    async function (this: Chai.AssertionStatic, ...args: unknown[]) {
      await axe.apply(this, args);
      if (chai.util.flag(this, 'negate')) return;
      const root = chai.util.flag(this, 'object') as Element;
      expectFocusRings(root);
      expectTargetSizes(root);
    },
);
