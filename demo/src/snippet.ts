/**
 * The snippet a site owner pastes, from what they chose: the gallery, the builder and the build of
 * the gallery's page all write it here, so that what the page runs and what it shows are the same.
 * The rules (each type's loader, the space its first view needs, the placeholder's attributes) are
 * the contract's.
 */
import { ATTRIBUTES, RENAMED_OPTIONS, RESERVED_HEIGHT, WIDGET_TYPES, type WidgetType } from '../../contract/index.ts';
import type { Pinned } from './showcase.ts';

/**
 * Where the space of the widget's first view comes from before the page's first paint
 * (docs/embedding.md, "No layout shift"): the loader in `<head>` reserves it itself; an async loader needs it
 * from the page, by a class in the site's stylesheet or, on a page without a strict CSP, a style
 * attribute.
 */
export type Placement = 'head' | 'class' | 'style';

export interface SnippetChoice {
  /** The service's address: `{base_url}` of the documentation (`http://localhost:8787` with `npm start`). */
  baseUrl: string;
  type: WidgetType;
  key: string;
  /** `en`, `de`, or '' for the page's language. */
  locale?: string;
  /** The widget's options by their element attribute's name (contract `OPTIONS`): `course`, `classes`. */
  options?: Record<string, string>;
  /** Custom properties (`--service-accent`) and their values; only those that differ from the defaults. */
  theme?: Record<string, string>;
  /** Default: the two lines of the README and docs/embedding.md, an async loader after the div, no reservation. */
  placement?: Placement;
  /** The space in px at a 16 px font; default the type's RESERVED_HEIGHT. */
  height?: number;
  /** The div's class, where the snippet needs one (`class` placement, or a theme). */
  className?: string;
  /**
   * Pins this release (docs/embedding.md, "Pinned versions"): the pinned loader of the type's version
   * (`PINNED.loaders[version]`) with its SRI hash; `chunks` also pins the code the widget loads, by an
   * import map's `integrity`.
   */
  pinned?: { loader: PinnedLoader; chunks?: boolean };
}

type PinnedLoader = Pinned['loaders'][number];

export interface Snippet {
  /** The HTML, with a comment where its parts go when they go to different places. */
  html: string;
  /** What goes into the site's stylesheet ('' when nothing does). */
  css: string;
  /** The placeholder's attributes, in the order the snippet writes them (the live preview takes them). */
  attributes: [name: string, value: string][];
  /** The custom properties and the min-height the div gets, as the preview applies them. */
  style: [property: string, value: string][];
  /** A pinned snippet's import map (the text inside its script element), which the page's CSP allows by its hash. */
  importMap?: string;
}

/** The loader of a type's version. */
export const loaderUrl = (baseUrl: string, type: WidgetType) => `${baseUrl}/widgets/v${WIDGET_TYPES[type]}/loader.js`;

/** The placeholder's attribute of an option: `course` → `data-service-course`, `classes` → `data-service-class`. */
export const placeholderAttribute = (option: string) =>
  `data-service-${Object.entries(RENAMED_OPTIONS).find(([, renamed]) => renamed === option)?.[0] ?? option}`;

/** A px height as the loader reserves it: em at a 16 px font. */
export const em = (px: number) => `${+(px / 16).toFixed(4)}em`;

const quote = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function snippet(choice: SnippetChoice): Snippet {
  const { type, placement } = choice;
  const attributes: [string, string][] = [
    [ATTRIBUTES.type, type],
    [ATTRIBUTES.key, choice.key],
  ];
  if (choice.locale) attributes.push([ATTRIBUTES.locale, choice.locale]);
  for (const [option, value] of Object.entries(choice.options ?? {})) {
    if (value.trim()) attributes.push([placeholderAttribute(option), value.trim()]);
  }

  const style: [string, string][] = Object.entries(choice.theme ?? {});
  const reserved = RESERVED_HEIGHT[type];
  const height = choice.height ?? reserved;
  // The loader reserves the type's own space; the page gives it when the loader is async, or
  // when the owner wants another height.
  if ((placement && placement !== 'head') || height !== reserved) style.push(['min-height', em(height)]);

  const className = choice.className || `booking-${type}`;
  const declarations = style.map(([property, value]) => `${property}: ${value};`);
  let css = '';
  const divAttributes = [...attributes];
  if (style.length && placement === 'style') {
    divAttributes.push(['style', declarations.join(' ')]);
  } else if (style.length) {
    divAttributes.unshift(['class', className]);
    css = `.${className} {\n${declarations.map((line) => `  ${line}`).join('\n')}\n}`;
  }
  const div = `<div ${divAttributes.map(([name, value]) => `${name}="${quote(value)}"`).join(' ')}></div>`;
  const pinned = choice.pinned;
  const loader = pinned ? `${choice.baseUrl}/widgets/${pinned.loader.path}` : loaderUrl(choice.baseUrl, type);
  const pin = pinned ? ` integrity="${pinned.loader.integrity}" crossorigin="anonymous"` : '';
  const importMap = pinned?.chunks ? pinnedImportMap(loader, type, pinned.loader) : undefined;
  const script = `<script ${placement === 'head' ? '' : 'async '}src="${loader}"${pin}></script>`;
  const html = importMap
    ? `<!-- In <head>, before any other script: the hashes of the widget's code (allow it in your Content-Security-Policy by its hash) -->\n<script type="importmap">${importMap}</script>\n${
        placement === 'head'
          ? `${script}\n\n<!-- Where the widget goes: -->\n${div}`
          : `\n<!-- Where the widget goes: -->\n${div}\n${script}`
      }`
    : placement === 'head'
      ? `<!-- In <head>: the loader reserves the widget's space before the first paint -->\n${script}\n\n<!-- Where the widget goes: -->\n${div}`
      : `${div}\n${script}`;
  return { html, css, attributes, style, ...(importMap ? { importMap } : {}) };
}

/**
 * The import map that pins every file the widget may load by its SRI hash (the loader's integrity
 * list, `widgets[type]`). The loader asks again for the widget's own chunk (the first) under `?1` and
 * `?2` when it fails: those URLs are pinned too, or a refused chunk would come in unchecked on the
 * retry. One line: the page's CSP allows it by the hash of its exact text.
 */
export function pinnedImportMap(loader: string, type: WidgetType, pinned: PinnedLoader): string {
  const integrity: Record<string, string> = {};
  (pinned.widgets[type] ?? []).forEach((file, i) => {
    const url = new URL(file, loader).href;
    for (const retry of i ? [''] : ['', '?1', '?2']) integrity[url + retry] = pinned.files[file]!;
  });
  return JSON.stringify({ integrity });
}

/** The CSP source that allows an inline script's exact text: `'sha256-…'`. */
export async function scriptHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`;
}
