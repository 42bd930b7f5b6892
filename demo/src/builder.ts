/**
 * The snippet builder (builder.html): a widget, its key, language, options (the contract's
 * `OPTIONS`), colours (the custom properties the manifest lists) and the space of its first view
 * (`RESERVED_HEIGHT`), written as the snippet a site owner pastes, and run as it is in a live
 * preview by the loaders of this page. What was chosen stays in the address's fragment, so that a
 * link brings it back (a widget key is public; nothing secret goes there).
 */
import { OPTIONS, RESERVED_HEIGHT, WIDGET_TYPES, type WidgetType } from '../../contract/index.ts';
import type { SeedDocument, WidgetKeysResponse } from '../../contract/api/index.ts';
import { $, $$, copy, eventNames, getJson, h, logEvents } from './dom.ts';
import { FACTS, PINNED } from './facts.ts';
import { SHOWCASE } from './showcase.ts';
import { em, scriptHash, snippet, type Placement } from './snippet.ts';

/** What the builder takes from a widget's first render (`GET /widget-api/v1/widget`), whichever its type. */
interface WidgetData {
  widget?: { company: { name: string }; options?: { topics?: string[] } };
  courses?: { id: string; title: string; classes: { location: string }[] }[];
  videos?: { id: string; title: string }[];
}
interface Field {
  label: string;
  hint?: string;
  input: 'text' | 'url' | 'email' | 'select' | 'textarea';
  placeholder?: string;
  /** For a select: the first choice, which leaves the option out. */
  none?: string;
  choices?: (data: WidgetData) => [value: string, label: string][];
}

/** How to ask for each option of the contract; an option missing here gets a plain text field. */
const FIELDS: Record<string, Field> = {
  course: {
    label: 'One programme only',
    input: 'select',
    none: 'All programmes',
    choices: (d) => (d.courses ?? []).map((c) => [c.id, c.title]),
  },
  location: {
    label: 'Place',
    input: 'select',
    none: 'All places',
    hint: 'The classes at places whose name holds this.',
    choices: (d) => {
      const cities = (d.courses ?? []).flatMap((c) => c.classes.map((k) => k.location.split(',')[0]!.trim()));
      return [...new Set(cities)].sort().map((city) => [city, city]);
    },
  },
  classes: {
    label: 'Classes put into the cart',
    input: 'text',
    placeholder: 'cls_web_1',
    hint: 'Class ids, separated by spaces, a seat each (cls_web_1 has seats left).',
  },
  video: {
    label: 'One video only',
    input: 'select',
    none: 'All videos',
    choices: (d) => (d.videos ?? []).map((v) => [v.id, v.title]),
  },
  'checkout-url': {
    label: 'Your checkout page',
    input: 'url',
    placeholder: 'https://www.example.com/checkout',
    hint: 'A page of this site with your checkout widget: on pages without one, a class booked links there.',
  },
  'booking-url': {
    label: 'Your booking page',
    input: 'url',
    placeholder: 'https://www.example.com/booking',
    hint: '“Book” links there, with the course and the class.',
  },
  'prefill-name': { label: 'Prefill: name', input: 'text' },
  'prefill-email': { label: 'Prefill: email', input: 'email' },
  'prefill-subject': { label: 'Prefill: subject', input: 'text', hint: 'For a widget without topics.' },
  'prefill-topic': {
    label: 'Prefill: topic',
    input: 'select',
    none: 'None',
    choices: (d) => (d.widget?.options?.topics ?? []).map((t) => [t, t]),
  },
  'prefill-message': { label: 'Prefill: message', input: 'textarea' },
};

const OTHER_KEY = '';
const types = Object.keys(WIDGET_TYPES).filter((type) => FACTS[type as WidgetType]) as WidgetType[];
const keys =
  (await getJson<WidgetKeysResponse>('/dev/widget-keys'))?.widget_keys ??
  SHOWCASE.map(({ key, type }) => ({ key, type, company_id: 1, origins: [], enabled: true, revoked: false, note: '' }));
const companies = (await getJson<SeedDocument>('/dev/seed'))?.companies ?? [];

// What was chosen: from the address's fragment first.
const given = new URLSearchParams(location.hash.slice(1));
const state = {
  type: (types.includes(given.get('type') as WidgetType) ? given.get('type') : 'registration') as WidgetType,
  key: given.get('key') ?? '',
  locale: given.get('locale') ?? '',
  placement: (['head', 'class', 'style'].includes(given.get('placement') ?? '') ? given.get('placement') : 'head') as Placement,
  height: Number(given.get('height')) || 0,
  className: given.get('class') ?? '',
  /** '' (evergreen), `loader` (pinned by SRI) or `chunks` (the widget's code too, by an import map). */
  pin: ['loader', 'chunks'].includes(given.get('pin') ?? '') ? given.get('pin')! : '',
  options: Object.fromEntries([...given].filter(([name]) => name.startsWith('option-')).map(([n, v]) => [n.slice(7), v])),
  theme: Object.fromEntries([...given].filter(([name]) => name.startsWith('--'))),
};

const title = (type: WidgetType) => SHOWCASE.find((s) => s.type === type)?.title ?? type;
const keysOf = (type: WidgetType) => keys.filter((k) => k.type === type);
const defaultKey = (type: WidgetType) => keysOf(type).find((k) => k.key === `wk_demo_${type}`)?.key ?? keysOf(type)[0]?.key ?? '';
const keyInfo = () => keys.find((k) => k.key === state.key);
const properties = () => FACTS[state.type]?.cssProperties ?? [];
/** `#fff` → `#ffffff`: what a colour input holds. */
const hex6 = (value: string) => (/^#[0-9a-f]{3}$/i.test(value) ? `#${[...value.slice(1)].map((c) => c + c).join('')}` : value);

// --- The form ---------------------------------------------------------------------------------

const typeSelect = $<HTMLSelectElement>('#type');
typeSelect.replaceChildren(...types.map((type) => h('option', { value: type }, `${title(type)} (v${WIDGET_TYPES[type]})`)));
const keySelect = $<HTMLSelectElement>('#key');
const otherKey = $<HTMLInputElement>('#other-key');

function fillKeys() {
  const own = keysOf(state.type);
  const company = (id: number) => companies.find((c) => c.id === id)?.name ?? `company ${id}`;
  keySelect.replaceChildren(
    ...own.map((k) =>
      h(
        'option',
        { value: k.key },
        `${k.key}${k.revoked ? ' (revoked)' : !k.enabled ? ' (not enabled)' : k.key === `wk_demo_${k.type}` ? '' : ` (${company(k.company_id)})`}`,
      ),
    ),
    h('option', { value: OTHER_KEY }, 'Another key…'),
  );
  if (!state.key) state.key = defaultKey(state.type);
  const listed = own.some((k) => k.key === state.key);
  keySelect.value = listed ? state.key : OTHER_KEY;
  otherKey.value = listed ? '' : state.key;
  $('#other-key-field').hidden = listed;
}

/**
 * Where a key's pages may be, said shortly: `http://localhost:*` and `https://localhost:*` are
 * "localhost (any port)"; an exact origin is said as it is.
 */
const served = (origins: string[]) => {
  const hosts = new Map<string, Set<string>>();
  for (const origin of origins) {
    const [, scheme, host, port] = /^(\w+):\/\/([^:/]+)(?::(.+))?$/.exec(origin) ?? [, '', origin, ''];
    const place = port === '*' ? `${host} (any port)` : `${host}${port ? `:${port}` : ''}`;
    hosts.set(place, (hosts.get(place) ?? new Set()).add(scheme!));
  }
  return [...hosts].map(([place, schemes]) => (schemes.size > 1 ? place : `${[...schemes][0]}://${place}`)).join(', ');
};

function keyHint() {
  const info = keyInfo();
  const company = companies.find((c) => c.id === info?.company_id)?.name ?? 'Its company';
  $('#key-hint').textContent = !info
    ? 'A key you were given: the preview shows what the service answers for it.'
    : info.revoked || !info.enabled || !info.origins.some((o) => /localhost|127\.0\.0\.1/.test(o))
      ? `${company} · ${info.revoked ? 'revoked' : !info.enabled ? 'not enabled' : `serves ${served(info.origins)}`} · ${info.note}.`
      : `${company} · serves pages on ${served(info.origins)}.`;
}

const dataCache = new Map<string, Promise<WidgetData>>();
const widgetData = (key: string, type: WidgetType) => {
  const id = `${key} ${type}`;
  if (!dataCache.has(id)) {
    dataCache.set(
      id,
      getJson<WidgetData>(`/widget-api/v1/widget?key=${encodeURIComponent(key)}&type=${type}`).then((d) => d ?? {}),
    );
  }
  return dataCache.get(id)!;
};

async function fillOptions() {
  const options = OPTIONS[state.type];
  $('#no-options').hidden = options.length > 0;
  const data = state.key ? await widgetData(state.key, state.type) : {};
  $('#options').replaceChildren(
    ...options.map((option) => {
      const field = FIELDS[option] ?? { label: `data-service-${option}`, input: 'text' };
      const id = `option-${option}`;
      const hintId = `${id}-hint`;
      const value = state.options[option] ?? '';
      const described = field.hint ? { 'aria-describedby': hintId } : {};
      let control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
      const choices = field.choices?.(data) ?? [];
      if (field.input === 'select' && choices.length) {
        control = h(
          'select',
          { id, name: id, ...described },
          h('option', { value: '' }, field.none ?? 'None'),
          ...choices.map(([v, label]) => h('option', { value: v }, label)),
        );
        // A value of the address that this key does not offer is kept as it was given.
        if (value && !choices.some(([v]) => v === value)) control.append(h('option', { value }, value));
      } else if (field.input === 'textarea') {
        control = h('textarea', { id, name: id, rows: '3', ...described });
      } else {
        const type = field.input === 'select' ? 'text' : field.input;
        control = h('input', {
          id,
          name: id,
          type,
          autocomplete: 'off',
          spellcheck: 'false',
          placeholder: field.placeholder,
          ...described,
        });
      }
      control.value = value;
      control.addEventListener(control.tagName === 'SELECT' ? 'change' : 'input', () => {
        state.options[option] = control.value;
        update(control.tagName !== 'SELECT');
      });
      return h(
        'div',
        { class: field.input === 'textarea' ? 'field wide' : 'field' },
        h('label', { for: id }, field.label),
        control,
        field.hint && h('p', { class: 'hint', id: hintId }, field.hint),
      );
    }),
  );
}

function fillTheme() {
  $('#theme').replaceChildren(
    ...properties().map(({ name, default: fallback, description }) => {
      const id = `theme${name}`;
      const isColour = fallback.startsWith('#');
      const value = state.theme[name] ?? fallback;
      const control = isColour
        ? h('input', { id, name, type: 'color', 'aria-describedby': `${id}-hint` })
        : h('input', { id, name, type: 'number', min: '0', max: '32', 'aria-describedby': `${id}-hint` });
      control.value = isColour ? hex6(value) : String(parseFloat(value));
      const shown = h('code', {}, isColour ? hex6(value) : `${parseFloat(value)}px`);
      control.addEventListener('input', () => {
        const next = isColour ? control.value : `${control.value || 0}px`;
        shown.textContent = next;
        if (next === hex6(fallback) || next === fallback) delete state.theme[name];
        else state.theme[name] = next;
        update(true);
      });
      return h(
        'div',
        { class: 'field' },
        h('label', { for: id }, h('code', {}, name)),
        h('span', { class: 'color-field' }, control, shown),
        h('p', { class: 'hint', id: `${id}-hint` }, `${description} Default ${fallback}.`),
      );
    }),
  );
}

function fillSpace() {
  const reserved = RESERVED_HEIGHT[state.type];
  $('#space-hint').textContent =
    `The ${title(state.type).toLowerCase()} widget’s first view fits ${reserved} px (${em(reserved)} at a 16 px font), at phone and desktop widths. Reserved before the first paint, it keeps everything below it still.`;
  $<HTMLInputElement>('#height').value = String(state.height || reserved);
  $<HTMLInputElement>('#class-name').placeholder = `booking-${state.type}`;
  $<HTMLInputElement>('#class-name').value = state.className;
  $<HTMLInputElement>(`input[name="placement"][value="${state.placement}"]`).checked = true;
}

// --- The snippet and the preview ----------------------------------------------------------------

const preview = $('#preview');
const frame = $('#preview-frame');
const previewState = $('#preview-state');
let mounted = '';

function update(typing = false) {
  const reserved = RESERVED_HEIGHT[state.type];
  const height = state.height || reserved;
  const result = snippet({
    baseUrl: location.origin,
    type: state.type,
    key: state.key,
    locale: state.locale,
    options: Object.fromEntries(OPTIONS[state.type].map((o) => [o, state.options[o] ?? ''])),
    theme: Object.fromEntries(properties().flatMap(({ name }) => (state.theme[name] ? [[name, state.theme[name]]] : []))),
    placement: state.placement,
    height,
    className: state.className,
    ...(state.pin ? { pinned: { loader: pinnedLoader(), chunks: state.pin === 'chunks' } } : {}),
  });
  $('#snippet-html').textContent = result.html;
  $('#snippet-css').textContent = result.css;
  $('#css-part').hidden = !result.css;
  const version = WIDGET_TYPES[state.type];
  const loaderPath = state.pin ? `/widgets/${pinnedLoader().path}` : `/widgets/v${version}/loader.js`;
  $('#loader-note').textContent =
    `The ${title(state.type).toLowerCase()} widget belongs to loader v${version}: the snippet loads ${loaderPath}. A page with widgets of both versions holds both loaders (they share one copy of Lit).` +
    (state.pin
      ? ` Pinned to release ${PINNED.release}: it never changes, and a newer release does not reach your page until you paste its snippet.`
      : '');
  void cspNote(result.importMap);
  $('#height-hint').textContent =
    `Default ${reserved}. The snippet writes it in em (${em(height)}), so that it follows your font size.`;

  // The preview runs the snippet: a new placeholder when its attributes change (the loaders of this
  // page mount it), the same one when only its colours or height do.
  clearTimeout(timer);
  timer = setTimeout(() => mount(result.attributes, result.style), typing ? 400 : 0);

  const hash = new URLSearchParams({ type: state.type, key: state.key });
  if (state.locale) hash.set('locale', state.locale);
  for (const [option, value] of Object.entries(state.options))
    if (value && OPTIONS[state.type].includes(option)) hash.set(`option-${option}`, value);
  for (const [name, value] of Object.entries(state.theme)) hash.set(name, value);
  if (state.placement !== 'head') hash.set('placement', state.placement);
  if (state.height && state.height !== reserved) hash.set('height', String(state.height));
  if (state.className) hash.set('class', state.className);
  if (state.pin) hash.set('pin', state.pin);
  history.replaceState(null, '', `#${hash}`);
}
let timer: ReturnType<typeof setTimeout> | undefined;

const pinnedLoader = () => PINNED.loaders[WIDGET_TYPES[state.type]]!;

/** What a pinned snippet's import map needs of the page's Content-Security-Policy: its hash. */
let cspNotes = 0;
async function cspNote(importMap: string | undefined) {
  const note = $('#csp-note');
  const shown = ++cspNotes;
  const hash = importMap && (await scriptHash(importMap));
  // A later choice may have changed the snippet meanwhile.
  if (shown !== cspNotes) return;
  note.hidden = !hash;
  note.textContent = hash
    ? `Your Content-Security-Policy allows the import map by its hash: add ${hash} to script-src. Paste the import map as it is (its hash covers its exact text), before any other script of the page.`
    : '';
}

function mount(attributes: [string, string][], style: [string, string][]) {
  const id = JSON.stringify(attributes);
  let div = preview.firstElementChild as HTMLElement | null;
  if (!div || id !== mounted) {
    mounted = id;
    div = h('div');
    for (const [name, value] of attributes) div.setAttribute(name, value);
    previewState.textContent = 'Preview: loading…';
    div.addEventListener('service-widget-ready', () => (previewState.textContent = 'Preview: ready.'));
    div.addEventListener('service-widget-error', (event) => {
      const { code, message } = (event as CustomEvent<{ code?: string; message?: string }>).detail;
      previewState.textContent = `Preview: ${code} (${message})`;
    });
    logEvents(div, $('#preview-events'), eventNames(FACTS[state.type]?.events));
    preview.replaceChildren(div);
  }
  // The class's declarations or the style attribute, through the CSSOM (this page's CSP allows no inline styles).
  div.removeAttribute('style');
  for (const [property, value] of style) div.style.setProperty(property, value);
}

// --- Wiring ---------------------------------------------------------------------------------------

async function chooseType(type: WidgetType, key = '') {
  state.type = type;
  state.key = key;
  typeSelect.value = type;
  fillKeys();
  keyHint();
  fillTheme();
  fillSpace();
  update();
  await fillOptions();
}

typeSelect.addEventListener('change', () => {
  state.height = 0;
  void chooseType(typeSelect.value as WidgetType);
});
keySelect.addEventListener('change', () => {
  $('#other-key-field').hidden = keySelect.value !== OTHER_KEY;
  state.key = keySelect.value === OTHER_KEY ? otherKey.value.trim() : keySelect.value;
  if (keySelect.value === OTHER_KEY) otherKey.focus();
  keyHint();
  update();
  void fillOptions();
});
otherKey.addEventListener('input', () => {
  state.key = otherKey.value.trim();
  keyHint();
  update(true);
});
$<HTMLSelectElement>('#locale').value = state.locale;
$('#locale').addEventListener('change', () => {
  state.locale = $<HTMLSelectElement>('#locale').value;
  update();
});
for (const radio of $$<HTMLInputElement>('input[name="placement"]')) {
  radio.addEventListener('change', () => {
    state.placement = radio.value as Placement;
    update();
  });
}
for (const radio of $$<HTMLInputElement>('input[name="pin"]')) {
  radio.checked = radio.value === state.pin;
  radio.addEventListener('change', () => {
    state.pin = radio.value;
    update();
  });
}
$('#pin-hint').textContent =
  `Release ${PINNED.release}: pinned as /widgets/${PINNED.loaders[1]!.path} and /widgets/${PINNED.loaders[2]!.path}, with the hashes of every file they load in integrity.json beside each.`;
$('#height').addEventListener('input', () => {
  state.height = Number($<HTMLInputElement>('#height').value) || 0;
  update(true);
});
$('#class-name').addEventListener('input', () => {
  state.className = $<HTMLInputElement>('#class-name')
    .value.trim()
    .replace(/[^\w-]/g, '');
  update(true);
});
$('#theme-reset').addEventListener('click', () => {
  state.theme = {};
  fillTheme();
  update();
});
$('#copy-html').addEventListener(
  'click',
  () => void copy($('#snippet-html').textContent!, $('#copied-html'), $('#snippet-html')),
);
$('#copy-css').addEventListener('click', () => void copy($('#snippet-css').textContent!, $('#copied-css'), $('#snippet-css')));
for (const radio of $$<HTMLInputElement>('input[name="width"], input[name="background"]')) {
  radio.addEventListener('change', () => {
    frame.classList.toggle('phone', $<HTMLInputElement>('input[name="width"]:checked').value === 'phone');
    frame.classList.toggle('dark', $<HTMLInputElement>('input[name="background"]:checked').value === 'dark');
  });
}
// The gallery's "Customise it" links here with #type=…; a link to this page with the fragment changed.
addEventListener('hashchange', () => {
  const type = new URLSearchParams(location.hash.slice(1)).get('type') as WidgetType;
  if (types.includes(type) && type !== state.type) void chooseType(type);
});

await chooseType(state.type, state.key);
