/**
 * The snippet check: reads a pasted snippet or page as text (DOMParser: nothing of it runs or loads)
 * and names each problem as the loader would report it on a page of the given address, in the
 * loader's own words (contract/messages.ts) and in its order. The keys are asked of the service by
 * the caller's `checkKey`: the demo's checker asks `GET /dev/widget-keys/check`, the app
 * `GET /v1/widgets/check`, both the widget API's own checks.
 */
import { ATTRIBUTES, OPTIONS, RENAMED_OPTIONS, WIDGET_TYPES, type ErrorCode, type WidgetType } from '../../contract/index.ts';
import { fixes } from '../../contract/messages.ts';
import type { WidgetKeyCheckResponse as KeyCheck } from '../../contract/api/index.ts';
import { placeholderAttribute } from './snippet.ts';
import { siteLink } from '../../contract/links.ts';

export type { KeyCheck };
/**
 * The service's verdict on a key for a page of `origin` (no origin: the key's other checks only), or
 * why it gave none, in words for the person checking.
 */
export type KeyChecker = (key: string, type: WidgetType | undefined, origin?: string) => Promise<KeyCheck | string>;

export interface Finding {
  /** A loader error code, or the checker's own word for what the loader cannot say (`no-loader`). */
  code: ErrorCode | 'no-loader' | 'base-url' | 'not-a-div' | 'ignored' | 'link' | 'ready';
  message: string;
  kind: 'problem' | 'info' | 'fine';
  /** A fix the caller may offer: let the key serve the page's origin (the demo's checker in development, the app to an owner). */
  serve?: { key: string; origin: string };
}
// The evergreen loader of a version (`/widgets/v2/loader.js`) or a release's pinned copy of it
// (`/widgets/v2.4.1/loader.js`): the first number is the loader's version either way.
const LOADER = /\/widgets\/v(\d+)(?:\.\d+\.\d+)?\/loader\.js(?:[?#].*)?$/;
const TYPES = Object.keys(WIDGET_TYPES) as WidgetType[];

/**
 * Whether a page at `url` is a secure context, as the browser decides (the loader asks
 * `isSecureContext`): https, or http on this machine.
 */
export const secure = (url: URL) =>
  url.protocol === 'https:' ||
  (url.protocol === 'http:' && /^(localhost|.+\.localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname));

/** The opening tag of a placeholder, as text. */
export const openingTag = (element: Element) =>
  `<${element.localName}${[...element.attributes].map((a) => ` ${a.name.replace(/^data-pasted-/, '')}="${a.value}"`).join('')}>`;

/**
 * The pasted text with its inline event handlers renamed (`onerror=` → `data-pasted-onerror=`):
 * Chromium compiles a handler as it parses one, even into a document that never runs it, so that
 * under this page's Content-Security-Policy each would be a violation (and without it, code).
 */
const inert = (source: string) => {
  const handler = /(<[a-z][^>]*?[\s/])(on[a-z]+\s*=)/gi;
  let text = source;
  for (let before = ''; before !== text;) [before, text] = [text, text.replace(handler, '$1data-pasted-$2')];
  return text;
};

export async function check(source: string, address: URL, checkKey: KeyChecker) {
  const doc = new DOMParser().parseFromString(inert(source), 'text/html');
  const page: Finding[] = [];
  const loaders = [...doc.querySelectorAll('script[src]')].flatMap((script) => {
    const src = script.getAttribute('src')!;
    const version = LOADER.exec(src)?.[1];
    return version
      ? [{ src, version: Number(version), module: script.getAttribute('type')?.trim().toLowerCase() === 'module' }]
      : [];
  });
  const versions = new Set(loaders.map((l) => l.version));
  const base = (src: string) => {
    try {
      return new URL(src, address).href;
    } catch {
      return `${location.origin}/widgets/v1/loader.js`;
    }
  };

  if (address.protocol === 'file:') {
    page.push({
      code: 'origin-not-allowed',
      kind: 'problem',
      message:
        'A page opened from a file (file://) has no origin a key can serve, so every widget on it is refused: serve it from a web server, such as http://localhost:8000 on this machine (python3 -m http.server, npx serve).',
    });
  }
  if (loaders.length === 0) {
    page.push({
      code: 'no-loader',
      kind: 'problem',
      message: `No loader script: without one, nothing happens. Add <script async src="${location.origin}/widgets/v1/loader.js"></script> (v1: ${TYPES.filter((t) => WIDGET_TYPES[t] === 1).join(', ')}) or …/v2/loader.js (v2: ${TYPES.filter((t) => WIDGET_TYPES[t] === 2).join(', ')}).`,
    });
  }
  for (const { src, module } of loaders) {
    if (module) {
      page.push({
        code: 'no-loader',
        kind: 'problem',
        message: `The loader is a classic script: remove type="module" from <script src="${src}"> (as a module it cannot tell where it was loaded from, and finds none of its parts).`,
      });
    }
    if (src.includes('{base_url}')) {
      page.push({
        code: 'base-url',
        kind: 'problem',
        message: `The loader’s address still holds {base_url}: put the service’s address there, ${location.origin} for this service.`,
      });
    }
  }

  const placeholders = [...doc.querySelectorAll(`[${ATTRIBUTES.type}]`)];
  const results = await Promise.all(
    placeholders.map(async (element) => {
      const findings: Finding[] = [];
      const type = (element.getAttribute(ATTRIBUTES.type) ?? '').trim();
      const known = TYPES.includes(type as WidgetType) ? (type as WidgetType) : undefined;
      const version = known ? WIDGET_TYPES[known] : 0;
      const key = element.getAttribute(ATTRIBUTES.key)?.trim() ?? '';
      const loaderSrc = base(loaders[0]?.src.replace('{base_url}', location.origin) ?? `${location.origin}/widgets/v1/loader.js`);
      const say = (code: ErrorCode, facts: { version?: number } = {}) =>
        findings.push({ code, kind: 'problem', message: fixes[code]!({ type, src: loaderSrc, ...facts }) });

      if (element.localName !== 'div') {
        findings.push({
          code: 'not-a-div',
          kind: 'problem',
          message: `The loader looks only at div elements: make this <${element.localName}> a <div>.`,
        });
      }
      // The loader's own checks, in its order.
      if (!known) say('unknown-type');
      else if (loaders.length && !versions.has(version)) say('wrong-loader', { version });
      if (!secure(address)) say('insecure-page');
      if (!key) say('missing-key');
      else {
        // The service's checks of the key for this page, then the same without the origin, so that a
        // key of another type or not enabled is named even where the origin is refused first.
        const first = await checkKey(key, known, address.protocol === 'file:' ? undefined : address.origin);
        const answers = [first];
        if (typeof first !== 'string' && first.error?.code === 'origin-not-allowed') answers.push(await checkKey(key, known));
        for (const answer of answers) {
          if (typeof answer === 'string') findings.push({ code: 'ignored', kind: 'info', message: answer });
          else if (answer.error) {
            findings.push({
              code: answer.error.code,
              kind: 'problem',
              message: answer.error.message,
              // A key can be let serve a secure page's origin; an http page elsewhere is refused anyway.
              ...(answer.error.code === 'origin-not-allowed' && secure(address)
                ? { serve: { key, origin: address.origin } }
                : {}),
            });
          }
        }
      }
      // What the loader passes over without a word.
      if (known) {
        const options = new Set([...OPTIONS[known], ...Object.keys(RENAMED_OPTIONS)]);
        for (const { name } of element.attributes) {
          const option = name.slice('data-service-'.length);
          if (
            name.startsWith('data-service-') &&
            ![ATTRIBUTES.type, ATTRIBUTES.locale].includes(name as never) &&
            !options.has(option)
          ) {
            findings.push({
              code: 'ignored',
              kind: 'info',
              message: `${name} is no option of the ${known} widget, and is left out${OPTIONS[known].length ? ` (its options: ${OPTIONS[known].map(placeholderAttribute).join(', ')})` : ''}.`,
            });
          }
        }
      }
      // A page of the site the widget links to that it would not link (contract/links.ts); a
      // checkout page on another site than this page, whose tab's cart is not there.
      if (known) {
        for (const option of OPTIONS[known].filter((o) => o.endsWith('-url'))) {
          const name = placeholderAttribute(option);
          const value = element.getAttribute(name)?.trim();
          if (!value) continue;
          const url = siteLink(value, address.href);
          const example = option.slice(0, -4);
          if (!url)
            findings.push({
              code: 'link',
              kind: 'problem',
              message: `${name} "${value}" is no web page, and the widget links nowhere: give https:// and the page (https://www.example.com/${example}) or a path of this site (/${example}).`,
            });
          else if (option === 'checkout-url' && url.origin !== address.origin)
            findings.push({
              code: 'link',
              kind: 'problem',
              message: `${name} is on another site than this page (${url.origin}, not ${address.origin}): the visitor's cart is kept by the site, and would be empty there. Give a page of this site, such as /${example}.`,
            });
        }
      }
      if (!page.length && !findings.some((f) => f.kind === 'problem')) {
        findings.unshift({ code: 'ready', kind: 'fine', message: `Ready: the ${known} widget will show on ${address.origin}.` });
      }
      return { element, type, key, findings };
    }),
  );
  return { page, results };
}
