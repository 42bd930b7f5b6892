/**
 * The embed loader: a classic script that finds `div[data-service-widget]` placeholders, checks them,
 * and lazily loads and mounts the widgets of its version. Built twice (v1, v2) from this one file.
 *
 * Both loaders (and a loader included twice) share one `window.ServiceWidgets`: the first loader on
 * the page installs the scanning machinery, every loader registers the chunks of its own version in
 * it. Claims are kept in that shared object, so a div is never mounted twice.
 */
import { RENAMED_OPTIONS, WIDGET_TYPES, type ErrorCode, type WidgetStateDetail, type WidgetType } from '../contract/index.ts';
import type { ServiceWidgets, WidgetElement } from '../contract/page.ts';
import type { Claimed, Messages, Facts } from './messages.ts';

/**
 * Injected by the build: this loader's version; per built type, the space it reserves (px), its first
 * request (contract/index.ts, FIRST_REQUEST) and the names of its chunks, its own first:
 * `[420, 'widget?type=registration&course=', 'registration-abc123', 'shared-def456']`; and the name
 * of the chunk of messages (messages.ts), loaded when a placeholder fails.
 */
declare const __VERSION__: number;
declare const __CHUNKS__: Record<string, Built>;
declare const __MESSAGES__: string;
type Built = [height: number, first: string, ...chunks: string[]];

type State = 'loading' | 'ready' | 'error';

interface Handler {
  /** The loader's own URL: chunks and the service's base URL are found relative to it. */
  src: string;
  chunks: Record<string, Built>;
}

interface Placeholder extends Claimed {
  state: State;
  error?: ErrorCode;
  el?: WidgetElement;
  /** The widget's public attributes, the only ones forwarded. */
  options?: string[];
}

const PREFIX = 'data-service-';
const SELECTOR = 'div[data-service-widget]';
const src = (document.currentScript as HTMLScriptElement | null)?.src || location.href;

const install = (): ServiceWidgets => {
  // Every claimed div, for good (a div moved or re-added is not mounted again) ...
  const claims = new WeakMap<HTMLElement, Placeholder>();
  // ... and the ones in the document now, for diagnose() (messages.ts).
  const placeholders = new Map<HTMLElement, Placeholder>();
  const handlers: Record<number, Handler> = {};
  // The widgets' first requests, by URL: started here, taken by the widgets (widgets/shared/api.ts).
  const first: Record<string, Promise<Response>> = {};

  // What the loader says (its messages' chunk): loaded when a placeholder fails, or diagnose() is called.
  const messages = (): Promise<Messages> => import(/* @vite-ignore */ new URL(`../chunks/${__MESSAGES__}.js`, src).href);
  const set = (p: Placeholder, state: State, code?: ErrorCode, message?: string) => {
    const { div, type } = p;
    p.state = state;
    p.error = code;
    div.dataset.serviceState = state;
    if (code) div.dataset.serviceError = code;
    else delete div.dataset.serviceError;
    // `service-widget-ready` and `-error` (contract/events.ts): a plain CustomEvent, typed by
    // HTMLElementEventMap; a class of its own for this one dispatch would cost every page its bytes.
    if (state !== 'loading')
      div.dispatchEvent(
        new CustomEvent<WidgetStateDetail>('service-widget-' + state, {
          bubbles: true,
          detail: code ? { type, code, message } : { type },
        }),
      );
    // Its console line is said where the error is known: the messages' chunk, or the widget.
  };

  // A loader-level error: the site owner's own content in the div stays, and a line is added (the
  // visitor's; the owner's fix-it line on a development page), once the messages' chunk has come.
  // The error is the placeholder's at once (a loader that comes meanwhile takes back a wrong-loader
  // div by it); a div taken back before the line came gets none.
  const fail = (p: Placeholder, code: ErrorCode, facts: Partial<Facts>) =>
    (p.error = code) &&
    messages()
      .then(
        (m) => m.explain(code, { type: p.type, src, ...facts }, p.div),
        // Unreachable: the service is, too. Said in the placeholder's language: its `data-service-locale`,
        // else the nearest `lang` (a selector: the fewest bytes for what every page pays).
        () =>
          Array(2).fill(
            p.div.matches(`[${PREFIX}locale^=de i],:lang(de):not([${PREFIX}locale])`)
              ? 'Laden fehlgeschlagen. Bitte Seite neu laden.'
              : 'Could not load. Check the connection and reload the page.',
          ),
      )
      .then(([message, shown]) => {
        if (claims.get(p.div) !== p) return;
        const line = document.createElement('p');
        line.setAttribute(PREFIX + 'message', '');
        line.role = 'alert';
        line.textContent = shown;
        p.div.append(line);
        set(p, 'error', code, message);
      });

  // Forwards a data-service-* attribute to the widget, but only the widget's own public attributes
  // (its observedAttributes): `data-service-onclick` must not become an event handler.
  const forward = ({ div, el, options }: Placeholder, attribute: string) => {
    const option = attribute.slice(PREFIX.length);
    const name = RENAMED_OPTIONS[option] || option;
    if (!attribute.startsWith(PREFIX) || name === 'base-url' || !options!.includes(name)) return;
    // Removed from the element when the div no longer has it; else set to the div's value.
    if (el!.toggleAttribute(name, div.hasAttribute(attribute))) el!.setAttribute(name, div.getAttribute(attribute)!);
  };

  const mount = (div: HTMLElement) => {
    const claimed = claims.get(div);
    if (claimed) return void placeholders.set(div, claimed);
    const type = (div.getAttribute(PREFIX + 'widget') || '').trim();
    // `| 0`: a name of Object's prototype (`constructor`) is no type either.
    const version: number = WIDGET_TYPES[type as WidgetType] | 0;
    const p = { div, type, version } as Placeholder; // its state is set just below
    const handler = handlers[version];
    placeholders.set(div, p);
    set(p, 'loading');
    // The other version's loader may still arrive (it can stand later in the page): decide at load.
    if (version && !handler && document.readyState !== 'complete') return;
    claims.set(div, p);
    // install() runs in the first loader on the page: the other version's loader stands beside it.
    const key = div.getAttribute(PREFIX + 'id');
    const built = handler?.chunks[type];
    const refused = !version
      ? 'unknown-type'
      : !handler
        ? 'wrong-loader'
        : !isSecureContext
          ? 'insecure-page'
          : !key?.trim()
            ? 'missing-key'
            : !built && 'not-available';
    if (refused) return void fail(p, refused, { version });
    // The space the widget's first view fits in (in em: the widget's text has the div's font size),
    // reserved while it loads and kept once it shows, so that nothing below the div moves. A min-height of the owner's (a class in their stylesheet,
    // there before the loader runs) is theirs to choose, and left alone. It comes back on an error.
    const ownHeight = div.style.minHeight;
    const [height, path, ...chunks] = built!;
    if (!parseFloat(getComputedStyle(div).minHeight)) div.style.minHeight = height / 16 + 'em';
    // The widget's code, tried three times. A browser that follows whatwg/html#10327 fetches a failed
    // module again; an older one keeps the failure for that URL, so a retry asks for the widget's own
    // chunk (the first, which no chunk imports) under a new URL. Shared chunks keep theirs: one
    // instance per page (and an older browser cannot fetch a failed one again at all). Code that
    // came but failed to run (a page's Trusted Types policy, a browser too old) is not fetched again.
    const load = (attempt: number): Promise<unknown> =>
      Promise.all(
        chunks.map(
          (c, i) =>
            import(/* @vite-ignore */ new URL(`../chunks/${c}.js${attempt && !i ? '?' + attempt : ''}`, handler.src).href),
        ),
      ).catch((error: Error) =>
        /imported module|script failed/.test(error.message)
          ? new Promise((retry, giveUp) => (attempt > 1 ? giveUp(0) : setTimeout(retry, 300 * ++attempt))).then(() =>
              load(attempt),
            )
          : Promise.reject(error),
      );
    // The widget's first request goes out with its code, not after it (its answer waits for the
    // widget), once for placeholders that ask the same; its options fill the query's empty parameters.
    const base = new URL('../../', handler.src).href;
    const url = new URL('widget-api/v1/' + path, base);
    const query = url.searchParams;
    for (const [name, value] of [...query]) {
      const option = value || div.getAttribute(PREFIX + name);
      if (option) query.set(name, option);
      else query.delete(name);
    }
    query.set('key', key!);
    // When it is answered (or fails), the browser's list of its locales is built (the first Intl date
    // or number format, 37 to 79 ms on 2 cores, one call that cannot be split), in that task: else in the task that draws the first widget that
    // shows a date or a price, which would then be a long one. Once per first request, not per
    // placeholder (each later date format costs some 0.4 ms: 80 ms on a page of 200).
    // (Its failure is the widget's to say: caught here.)
    if (!first[url.href]) (first[url.href] = fetch(url)).then(Intl.DateTimeFormat as never, Intl.DateTimeFormat as never);
    load(0).then(
      () => {
        // The element handshake (contract/page.ts): its attributes, its reserved space, its outcomes.
        const Widget = customElements.get(`service-${type}`)!;
        const el = (p.el = new Widget());
        p.options = Widget.observedAttributes;
        el.setAttribute('base-url', base);
        for (const { name } of div.attributes) forward(p, name);
        // Its loading state (a skeleton, and "Loading…" for a screen reader) shows in the space
        // reserved; the owner's own content in the div, if any, shows instead until the widget is ready.
        el.hidden = !!div.firstChild;
        // Its first view fits its own min-height: the div's, as it is now and as it changes.
        el.style.minHeight = 'inherit';
        el.addEventListener('service-state', ({ detail: { state, code, message } }) => {
          if (state === p.state && code === p.error) return;
          el.hidden = false;
          if (code) div.style.minHeight = ownHeight;
          // The widget replaces the owner's fallback content only once it has something to show.
          if (state === 'ready') for (const n of [...div.childNodes]) if (n !== el) n.remove();
          set(p, state, code, message);
        });
        div.append(el);
        attributes.observe(div, { attributes: true });
      },
      (error?: Error) => {
        div.style.minHeight = ownHeight;
        fail(p, error ? 'script-error' : 'network', { src: handler.src, reason: error?.message });
      },
    );
  };

  const scan = (root: ParentNode = document) => {
    if ((root as Element).matches?.(SELECTOR)) mount(root as HTMLElement);
    root.querySelectorAll<HTMLElement>(SELECTOR).forEach(mount);
  };

  // Options change live: a data-service-* attribute set on the div reaches the widget.
  const attributes = new MutationObserver((records) => {
    for (const { target, attributeName } of records) {
      const p = claims.get(target as HTMLElement);
      if (p?.el) forward(p, attributeName!);
    }
  });

  new MutationObserver((records) => {
    // Elements only (a text node has no querySelectorAll).
    for (const { addedNodes } of records) addedNodes.forEach((n) => (n as Element).querySelectorAll && scan(n as Element));
    // Removed divs are forgotten once a batch: placeholders are few.
    for (const [div] of placeholders) if (!div.isConnected) placeholders.delete(div);
  }).observe(document.documentElement, { childList: true, subtree: true });

  // Divs waiting for the other version's loader are decided at load (a loader that comes later finds
  // the page loaded, and this listener never fires).
  addEventListener('load', () => scan());

  return {
    versions: [],
    _first: first,
    scan,
    mount,
    diagnose: () => messages().then((m) => m.diagnose(placeholders)),
    // A handler comes from a loader of this project (the contract types it loosely: not public API).
    _add(version, handler: Handler) {
      if (handlers[version]) return;
      handlers[version] = handler;
      this.versions.push('v' + version);
      // A loader that arrives after the page loaded takes back the divs refused as wrong-loader.
      for (const p of placeholders.values())
        if (p.error === 'wrong-loader' && p.version === version) {
          p.div.querySelector(`[${PREFIX}message]`)?.remove();
          claims.delete(p.div);
          placeholders.delete(p.div);
        }
      scan();
    },
  };
};

(window.ServiceWidgets ||= install())._add(__VERSION__, { src, chunks: __CHUNKS__ });
