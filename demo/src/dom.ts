/**
 * What the demo's pages share. Everything from the network is written as text (`textContent`,
 * text nodes, attributes), never as HTML: the pages run under a strict Content-Security-Policy,
 * with nothing inline.
 */

type Child = Node | string | number | null | undefined | false;

/** An element with attributes (`true` for a bare one; `on…` refused: no inline handlers) and children as text. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (/^on/i.test(name)) throw new Error(`No inline event handlers: ${name}`);
    if (value === true) element.setAttribute(name, '');
    else if (typeof value === 'string') element.setAttribute(name, value);
  }
  element.append(
    ...children
      .filter((c) => c !== null && c !== undefined && c !== false)
      .map((c) => (typeof c === 'number' ? String(c) : (c as Node | string))),
  );
  return element;
}

export const $ = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T => {
  const found = root.querySelector<T>(selector);
  if (!found) throw new Error(`The page has no ${selector}`);
  return found;
};

export const $$ = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T[] => [
  ...root.querySelectorAll<T>(selector),
];

/** A link, only when the address is http(s): an email's link never becomes `javascript:`. */
export function safeLink(href: string | null | undefined, text: string): Node {
  if (!href) return document.createTextNode(text);
  try {
    const url = new URL(href, location.href);
    if (url.protocol === 'http:' || url.protocol === 'https:') return h('a', { href: url.href }, text);
  } catch {
    // not a URL: shown as text
  }
  return document.createTextNode(text);
}

/**
 * Copies `text` and says so in `status` (a `role="status"` element). Where the browser refuses,
 * the text is selected in `select`, for Ctrl+C.
 */
export async function copy(text: string, status: HTMLElement, select?: Node): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = 'Copied.';
  } catch {
    if (select) getSelection()?.selectAllChildren(select);
    status.textContent = 'Copying was refused: the snippet is selected, press Ctrl+C (⌘C).';
  }
  clearTimeout(Number(status.dataset.timer));
  status.dataset.timer = String(setTimeout(() => (status.textContent = ''), 5000));
}

/** JSON of a same-origin GET, or undefined when it fails (the page says what it can do without it). */
export async function getJson<T>(path: string): Promise<T | undefined> {
  try {
    const response = await fetch(path, { headers: { Accept: 'application/json' } });
    return response.ok ? ((await response.json()) as T) : undefined;
  } catch {
    return undefined;
  }
}

const time = () => new Date().toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** The widget events a placeholder sees, newest first, in a list (`role="log"`). */
export function logEvents(div: HTMLElement, list: HTMLElement, names: string[], max = 30): void {
  const add = (name: string, detail: unknown, note = '') => {
    list.querySelector('.event-empty')?.remove();
    const text = detail === undefined ? '' : JSON.stringify(detail);
    list.prepend(
      h(
        'li',
        { class: name.endsWith('-error') ? 'is-error' : undefined },
        h('time', {}, time()),
        h('code', { class: 'event-name' }, name),
        note,
        text && h('code', { class: 'event-detail' }, text),
      ),
    );
    while (list.children.length > max) list.lastElementChild!.remove();
  };
  for (const name of names) div.addEventListener(name, (event) => add(name, (event as CustomEvent).detail));
  // A widget that was quicker than this script: its state event has passed, its state is on the div.
  const state = div.dataset.serviceState;
  if (state === 'ready' || state === 'error') {
    add(
      `service-widget-${state}`,
      { type: div.dataset.serviceWidget, code: div.dataset.serviceError },
      ' (before this log began)',
    );
  }
}

/** A widget's events: the loader's two and its own, as the custom-elements manifest lists them. */
export const eventNames = (own: { name: string }[] = []) => [
  'service-widget-ready',
  'service-widget-error',
  ...own.map((e) => e.name),
];
