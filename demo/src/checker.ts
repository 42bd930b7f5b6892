/**
 * The snippet checker (checker.html): reads a pasted snippet or page as text (DOMParser: nothing
 * of it runs or loads) and names each problem as the loader would report it on a page of the given
 * address, in the loader's own words (loader/messages.ts) and in its order; the keys are asked of
 * the service (`GET /dev/widget-keys/check`), which answers with the widget API's own checks.
 */
import { ATTRIBUTES, OPTIONS, RENAMED_OPTIONS, WIDGET_TYPES, type ErrorCode, type WidgetType } from '../../contract/index.ts';
import { fixes } from '../../contract/messages.ts';
import type { WidgetKeyCheckResponse as KeyCheck } from '../../contract/api/index.ts';
import { $, h } from './dom.ts';
import { placeholderAttribute } from './snippet.ts';

interface Finding {
  /** A loader error code, or the checker's own word for what the loader cannot say (`no-loader`). */
  code: ErrorCode | 'no-loader' | 'base-url' | 'not-a-div' | 'ignored' | 'ready';
  message: string;
  kind: 'problem' | 'info' | 'fine';
  /** A fix the service can make here (development mode): let the key serve the page's origin. */
  serve?: { key: string; origin: string };
}
const LOADER = /\/widgets\/v(\d+)\/loader\.js(?:[?#].*)?$/;
const TYPES = Object.keys(WIDGET_TYPES) as WidgetType[];

/**
 * Whether a page at `url` is a secure context, as the browser decides (the loader asks
 * `isSecureContext`): https, or http on this machine.
 */
const secure = (url: URL) =>
  url.protocol === 'https:' ||
  (url.protocol === 'http:' && /^(localhost|.+\.localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname));

/** The service's verdict on a key for a page of `origin`, or why it gave none (its own words). */
const checkKey = async (key: string, type: WidgetType | undefined, origin?: string): Promise<KeyCheck | string> => {
  const query = new URLSearchParams({ key });
  if (type) query.set('type', type);
  if (origin) query.set('origin', origin);
  try {
    const response = await fetch(`/dev/widget-keys/check?${query}`);
    if (response.ok) return (await response.json()) as KeyCheck;
    if (response.status === 404)
      return 'The key could not be checked: the service answers GET /dev/widget-keys/check in development mode only.';
    const { error } = (await response.json()) as { error: { message: string; fields?: Record<string, string> } };
    return `The key could not be checked: ${Object.values(error.fields ?? {}).join(' ') || error.message}`;
  } catch {
    return 'The key could not be checked: the service could not be reached.';
  }
};

/** The opening tag of a placeholder, as text. */
const openingTag = (element: Element) =>
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

async function check(source: string, address: URL) {
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
      if (!page.length && !findings.some((f) => f.kind === 'problem')) {
        findings.unshift({ code: 'ready', kind: 'fine', message: `Ready: the ${known} widget will show on ${address.origin}.` });
      }
      return { element, type, key, findings };
    }),
  );
  return { page, results };
}

// --- The page -------------------------------------------------------------------------------------

const summary = $('#summary');
const list = $('#results');

const findingView = (finding: Finding) => {
  const item = h(
    'li',
    { class: finding.kind },
    h('span', { class: 'code-label' }, finding.kind === 'problem' ? finding.code : finding.code === 'ready' ? 'ready' : 'note'),
    h('p', {}, finding.message),
  );
  if (finding.serve) {
    const { key, origin } = finding.serve;
    const button = h('button', { type: 'button', class: 'small secondary' }, `Let ${key} serve ${origin}`);
    button.addEventListener('click', async () => {
      button.disabled = true;
      const response = await fetch('/dev/widget-keys', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ key, origins: [origin] }),
      });
      if (response.ok) await run();
      else {
        const { error } = (await response.json()) as { error: { message: string; fields?: Record<string, string> } };
        item.append(h('p', {}, Object.values(error.fields ?? {}).join(' ') || error.message));
      }
    });
    item.append(
      h(
        'p',
        { class: 'hint' },
        'In development the service adds an origin to a key for you (POST /dev/widget-keys); in production, ask the service.',
      ),
      button,
    );
  }
  return item;
};

async function run() {
  const source = $<HTMLTextAreaElement>('#source').value;
  let address: URL;
  try {
    address = new URL($<HTMLInputElement>('#page-url').value.trim());
    if (!/^(https?|file):$/.test(address.protocol)) throw new TypeError();
  } catch {
    summary.textContent = 'Give the page’s address, such as https://www.example.com/courses.';
    list.replaceChildren();
    return;
  }
  if (!source.trim()) {
    summary.textContent = 'Paste a snippet or a page first.';
    list.replaceChildren();
    return;
  }
  summary.textContent = 'Checking…';
  const { page, results } = await check(source, address);
  const problems = [...page, ...results.flatMap((r) => r.findings)].filter((f) => f.kind === 'problem').length;
  // A problem of the page (no loader, a file) stops every widget on it.
  const failing = page.length ? results.length : results.filter((r) => r.findings.some((f) => f.kind === 'problem')).length;
  summary.textContent =
    results.length === 0
      ? `No placeholder found: a widget is a <div ${ATTRIBUTES.type}="…" ${ATTRIBUTES.key}="…">.`
      : problems === 0
        ? `No problems: ${results.length === 1 ? 'the widget' : `all ${results.length} widgets`} will show on ${address.origin}.`
        : `${problems === 1 ? '1 problem' : `${problems} problems`}: ${failing} of ${results.length} ${results.length === 1 ? 'widget' : 'widgets'} would not show${page.length ? ', and the page has its own' : ''}. The loader reports the first of each.`;

  list.replaceChildren(
    ...(page.length
      ? [h('li', { class: 'card' }, h('h3', {}, 'The page'), h('ul', { class: 'issue-list' }, ...page.map(findingView)))]
      : []),
    ...results.map(({ element, type, key, findings }, i) =>
      h(
        'li',
        { class: 'card' },
        h('h3', {}, `${i + 1}. ${type || '(no type)'}${key ? ` · ${key}` : ''}`),
        h('pre', { class: 'code', tabindex: '0' }, openingTag(element)),
        h('ul', { class: 'issue-list' }, ...findings.map(findingView)),
      ),
    ),
  );
}

const EXAMPLE = `<!doctype html>
<html lang="en">
  <head>
    <title>Our courses</title>
    <script async src="${location.origin}/widgets/v1/loader.js"></script>
  </head>
  <body>
    <div data-service-widget="registration" data-service-id="wk_demo_registration"></div>
    <div data-service-widget="calender" data-service-id="wk_demo_calendar"></div>
    <div data-service-widget="calendar" data-service-id="wk_demo_calendar"></div>
    <div data-service-widget="contact"></div>
    <div data-service-widget="profile" data-service-id="wk_demo_contact"></div>
    <div data-service-widget="registration" data-service-id="wk_demo_registration_example"></div>
  </body>
</html>`;

$('#checker').addEventListener('submit', (event) => {
  event.preventDefault();
  void run();
});
$('#example').addEventListener('click', () => {
  $<HTMLTextAreaElement>('#source').value = EXAMPLE;
  void run();
});
