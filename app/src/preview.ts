/**
 * The live preview: the widget's placeholder as its snippet writes it, mounted by the service's own
 * loaders on this page (every key serves the service's own origin). A change makes a new
 * placeholder (a loader never mounts a div twice); the colours go in as the snippet's class, through
 * a constructed style sheet (the page's CSP allows no inline style). The pages of the owner's site
 * that the widget links to are left out: the preview is on no page of that site.
 */
import { WIDGET_TYPES, type WidgetType } from '../../contract/index.ts';
import type { Snippet } from '../../demo/src/snippet.ts';
import { BASE_URL } from './app.ts';

const loaders = new Map<number, Promise<void>>();

/** Loads a loader once; resolves when it has run (or failed: the placeholder then says nothing). */
function loader(version: number): Promise<void> {
  if (!loaders.has(version)) {
    loaders.set(
      version,
      new Promise((resolve) => {
        const script = document.createElement('script');
        script.src = `${BASE_URL}/widgets/v${version}/loader.js`;
        script.async = true;
        script.addEventListener('load', () => resolve());
        script.addEventListener('error', () => resolve());
        document.head.append(script);
      }),
    );
  }
  return loaders.get(version)!;
}

const sheet = new CSSStyleSheet();
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

export type PreviewState = { state: 'loading' } | { state: 'ready' } | { state: 'error'; code: string };

/** A new placeholder for `written`, which tells `onState` how it goes. Mount it with `start()` once it is in the page. */
export function placeholder(type: WidgetType, written: Snippet, onState: (state: PreviewState) => void) {
  const div = document.createElement('div');
  // The pages of the owner's site the widget links to (`data-service-checkout-url`, `-booking-url`)
  // are not this page's: a relative one led from the preview to a page of the app that is not there.
  for (const [name, value] of written.attributes) if (!name.endsWith('-url')) div.setAttribute(name, value);
  // The snippet's CSS is a class of the div (snippet.ts: `booking-<type>` unless named otherwise).
  if (written.css) div.className = `booking-${type}`;
  div.addEventListener('service-widget-ready', () => onState({ state: 'ready' }));
  div.addEventListener('service-widget-error', (event) =>
    onState({ state: 'error', code: (event as CustomEvent<{ code?: string }>).detail.code ?? 'error' }),
  );
  return {
    div,
    async start() {
      sheet.replaceSync(written.css);
      await loader(WIDGET_TYPES[type]);
      window.ServiceWidgets?.scan(div.parentElement ?? document);
    },
  };
}
