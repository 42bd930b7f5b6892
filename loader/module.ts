/**
 * The loader for pages that bundle their own code: the npm package's main entry (scripts/package.ts).
 * It does for `div[data-service-widget]` placeholders what the classic loaders do (loader.ts), as
 * functions a page calls: each widget's code is a dynamic import that the page's bundler splits off,
 * so a page fetches only the widgets it mounts. Importing it defines nothing and listens to nothing.
 *
 * What the classic loaders learn from their own URL, a bundled page says: the service's `baseUrl`.
 */
import {
  ATTRIBUTES,
  RENAMED_OPTIONS,
  RESERVED_HEIGHT,
  WIDGET_TYPES,
  type ErrorCode,
  type WidgetStateDetail,
  type WidgetType,
} from '../contract/index.ts';
import type { WidgetClass, WidgetElement } from '../contract/page.ts';

export { ATTRIBUTES, ERROR_CODES, RESERVED_HEIGHT, WIDGET_TYPES } from '../contract/index.ts';
export type * from '../contract/events.ts';
export type { ErrorCode, WidgetType } from '../contract/index.ts';
export type { ServiceWidgets, WidgetClass, WidgetElement, WidgetLoadState, WidgetOutcome } from '../contract/page.ts';

/** Each widget's element module: importing one defines its `service-<type>` element. */
export const widgets: Record<WidgetType, () => Promise<unknown>> = {
  registration: () => import('../widgets/registration/registration.ts'),
  profile: () => import('../widgets/profile/profile.ts'),
  contact: () => import('../widgets/contact/contact.ts'),
  calendar: () => import('../widgets/calendar/calendar.ts'),
  checkout: () => import('../widgets/checkout/checkout.ts'),
  video: () => import('../widgets/video/video.ts'),
  map: () => import('../widgets/map/map.ts'),
};

export interface MountOptions {
  /** The service's URL (`{base_url}`, such as `https://booking.example.com/`): where the widgets' data comes from. */
  baseUrl: string;
}

const PREFIX = 'data-service-';
const SELECTOR = `div[${ATTRIBUTES.type}]`;

/** Loads a widget's code (once) and answers its element class. */
export const load = async (type: WidgetType): Promise<WidgetClass> => {
  await widgets[type]();
  return customElements.get(`service-${type}`)!;
};

const mounted = new WeakMap<HTMLElement, Promise<WidgetElement | undefined>>();

/** Sets the placeholder's state and tells the page, as the classic loaders do (docs/embedding.md). */
const set = (div: HTMLElement, type: string, state: 'loading' | 'ready' | 'error', code?: ErrorCode, message?: string) => {
  div.dataset.serviceState = state;
  if (code) div.dataset.serviceError = code;
  else delete div.dataset.serviceError;
  if (state !== 'loading')
    div.dispatchEvent(
      new CustomEvent<WidgetStateDetail>(`service-widget-${state}`, {
        bubbles: true,
        detail: code ? { type, code, message } : { type },
      }),
    );
  if (code) console.error(`[service-widgets] ${type || '(no type)'}: ${message}`);
};

/** A placeholder that cannot be mounted: the owner's line in the console and the event, a line in the div. */
const fail = async (div: HTMLElement, type: string, code: ErrorCode, reason?: string) => {
  const { explain } = await import('./messages.ts');
  const [message, shown] = explain(code, { type, src: location.href, reason }, div);
  const line = document.createElement('p');
  line.setAttribute(ATTRIBUTES.message, '');
  line.setAttribute('role', 'alert');
  line.textContent = shown;
  div.append(line);
  set(div, type, 'error', code, message);
  return undefined;
};

/**
 * Mounts a placeholder (`<div data-service-widget="registration" data-service-id="wk_…">`), never
 * twice: reserves its space, loads its widget and puts the element in it, with the div's
 * `data-service-*` options (and their changes later). Answers the element, or nothing when the
 * placeholder cannot be mounted (its `data-service-error` says why, as the classic loaders'
 * `service-widget-error` does).
 */
export const mount = (div: HTMLElement, options: MountOptions): Promise<WidgetElement | undefined> => {
  let element = mounted.get(div);
  if (!element) mounted.set(div, (element = mountOnce(div, options)));
  return element;
};

const mountOnce = async (div: HTMLElement, { baseUrl }: MountOptions) => {
  const type = (div.getAttribute(ATTRIBUTES.type) || '').trim();
  set(div, type, 'loading');
  if (!Object.hasOwn(WIDGET_TYPES, type)) return fail(div, type, 'unknown-type');
  if (!isSecureContext) return fail(div, type, 'insecure-page');
  if (!div.getAttribute(ATTRIBUTES.key)?.trim()) return fail(div, type, 'missing-key');
  const ownHeight = div.style.minHeight;
  if (!parseFloat(getComputedStyle(div).minHeight)) div.style.minHeight = RESERVED_HEIGHT[type as WidgetType] / 16 + 'em';
  let Widget: WidgetClass;
  try {
    Widget = await load(type as WidgetType);
  } catch (error) {
    div.style.minHeight = ownHeight;
    return fail(div, type, 'script-error', (error as Error).message);
  }
  // The element handshake (contract/page.ts), as loader.ts does it.
  const el = new Widget();
  const forward = (attribute: string) => {
    const option = attribute.slice(PREFIX.length);
    const name = RENAMED_OPTIONS[option] || option;
    if (!attribute.startsWith(PREFIX) || name === 'base-url' || !Widget.observedAttributes.includes(name)) return;
    const value = div.getAttribute(attribute);
    if (value === null) el.removeAttribute(name);
    else el.setAttribute(name, value);
  };
  el.setAttribute('base-url', new URL(baseUrl, location.href).href);
  for (const { name } of div.attributes) forward(name);
  el.hidden = !!div.firstChild;
  el.style.minHeight = 'inherit';
  el.addEventListener('service-state', ({ detail: { state, code, message } }) => {
    el.hidden = false;
    if (code) div.style.minHeight = ownHeight;
    if (state === 'ready') for (const n of [...div.childNodes]) if (n !== el) n.remove();
    set(div, type, state, code, message);
  });
  div.append(el);
  new MutationObserver((records) => records.forEach((r) => forward(r.attributeName!))).observe(div, { attributes: true });
  return el;
};

/**
 * Mounts every placeholder in `root` (default: the document), and `root` itself if it is one.
 * Placeholders added later are the page's to mount (`mount`, or `scan` again): nothing watches.
 */
export const scan = (root: ParentNode, options: MountOptions): Promise<(WidgetElement | undefined)[]> => {
  const divs = [...root.querySelectorAll<HTMLElement>(SELECTOR)];
  if (root instanceof HTMLElement && root.matches(SELECTOR)) divs.unshift(root);
  return Promise.all(divs.map((div) => mount(div, options)));
};
