/**
 * The snippet checker (checker.html): the check of a pasted snippet or page (check.ts, which the
 * app's widget view runs too), with the keys asked of the service's development endpoint
 * (`GET /dev/widget-keys/check`), which answers with the widget API's own checks.
 */
import { ATTRIBUTES } from '../../contract/index.ts';
import { check, openingTag, type Finding, type KeyChecker, type KeyCheck } from './check.ts';
import { $, h } from './dom.ts';

/** The service's verdict on a key for a page of `origin`, or why it gave none (its own words). */
const checkKey: KeyChecker = async (key, type, origin) => {
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
  const { page, results } = await check(source, address, checkKey);
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
