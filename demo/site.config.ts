/**
 * The demo's build (the last pass of scripts/build.ts): its pages (demo/*.html), their scripts and
 * styles into dist/demo/, which the service serves at `/` and `/demo/`. The pages share their
 * header and footer, and the gallery's cards are written from the showcase and the
 * custom-elements manifest, here at build time, so that the widgets' placeholders are in the page
 * from its first byte (the loaders in its head reserve their space before the first paint).
 */
import { readdirSync } from 'node:fs';
import type { InlineConfig, Plugin } from 'vite';
import { RESERVED_HEIGHT, WIDGET_TYPES } from '../contract/index.ts';
import { PAGES, SHOWCASE, type Facts, type Pinned, type Showcase } from './src/showcase.ts';
import { em, snippet } from './src/snippet.ts';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const header = (file: string) => `<a class="skip-link" href="#main">Skip to the content</a>
    <header class="site-header">
      <div class="wrap bar">
        <a class="brand" href="/"><span class="brand-mark" aria-hidden="true"></span>Service widgets</a>
        <nav class="site-nav" aria-label="Demo">
          <ul>
${PAGES.map(
  (page) =>
    `            <li><a href="${page.href}"${page.file === file ? ' aria-current="page"' : ''}>${escape(page.title)}</a></li>`,
).join('\n')}
          </ul>
        </nav>
      </div>
    </header>`;

const footer = `<footer class="site-footer">
      <div class="wrap">
        <p>
          Served by the reference service on this machine, with its seeded data: Acme Academy and Globex Institute are made up,
          and every email stays in the <a href="/demo/outbox.html">outbox</a>.
        </p>
        <p>
          <a href="/openapi.json">OpenAPI document</a> · <a href="/dev/seed">Seeded data (JSON)</a> ·
          <a href="/dev/widget-keys">Widget keys (JSON)</a>
        </p>
      </div>
    </footer>`;

/** The builder's address fragment for a card's snippet (builder.ts reads it). */
const builderFragment = (type: string, key: string, options: Record<string, string> = {}) =>
  escape(
    new URLSearchParams({
      type,
      key,
      ...Object.fromEntries(Object.entries(options).map(([o, v]) => [`option-${o}`, v])),
    }).toString(),
  );

/** A gallery card: the live widget, its snippet with a copy button, and its events as they happen. */
const card = ({ type, title, key, tryIt, options }: Showcase, facts: Facts) => {
  const version = WIDGET_TYPES[type];
  const { html, attributes } = snippet({ baseUrl: '{base_url}', type, key, options });
  const div = `<div ${attributes.map(([name, value]) => `${name}="${escape(value)}"`).join(' ')}></div>`;
  const outbox = '<a href="/demo/outbox.html">outbox</a>';
  return `<article class="showcase" id="${type}" aria-labelledby="${type}-title">
        <div class="showcase-head">
          <h3 id="${type}-title">${escape(title)}</h3>
          <p class="tags"><span class="tag">loader v${version}</span> <span class="tag">${RESERVED_HEIGHT[type]} px reserved (${em(RESERVED_HEIGHT[type])})</span> <span class="tag"><code>&lt;service-${type}&gt;</code></span></p>
          <p>${escape(facts[type]?.summary ?? '')}</p>
        </div>
        <div class="stage">
          ${div}
        </div>
        <p class="try"><strong>Try it.</strong> ${escape(tryIt).replace('{outbox}', outbox)}</p>
        <div class="showcase-details">
          <div class="snippet">
            <h3 id="${type}-snippet-title">Snippet</h3>
            <pre class="code" tabindex="0"><code data-snippet="${type}">${escape(html)}</code></pre>
            <p class="snippet-actions">
              <button type="button" class="button small" data-copy="${type}">Copy snippet</button>
              <span class="copied" role="status"></span>
              <a href="/demo/builder.html#${builderFragment(type, key, options)}">Customise it</a>
            </p>
          </div>
          <div class="events">
            <h3 id="${type}-events-title">Events on the page</h3>
            <div class="event-log" role="log" aria-labelledby="${type}-events-title">
              <ol data-events="${type}">
                <li class="event-empty">None yet.</li>
              </ol>
            </div>
          </div>
        </div>
      </article>`;
};

const galleryNav = `<nav aria-label="Widgets">
            <ul class="jump">
${SHOWCASE.map(({ type, title }) => `              <li><a href="#${type}">${escape(title)}</a></li>`).join('\n')}
            </ul>
          </nav>`;

/** What every page's head holds first. */
const head = `<meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="./styles/site.css" />`;

/**
 * Fills the pages' `<!-- head -->`, `<!-- header -->`, `<!-- footer -->`, `<!-- gallery-nav -->` and
 * `<!-- gallery -->`, before Vite reads the pages (so that it builds the stylesheet linked here).
 */
const pagesPlugin = (facts: Facts): Plugin => ({
  name: 'demo-pages',
  transformIndexHtml: {
    order: 'pre',
    handler(html, { filename }) {
      const file = filename.split(/[\\/]/).pop()!;
      return html
        .replace('<!-- head -->', head)
        .replace('<!-- header -->', header(file))
        .replace('<!-- footer -->', footer)
        .replace('<!-- gallery-nav -->', galleryNav)
        .replace('<!-- gallery -->', SHOWCASE.map((item) => card(item, facts)).join('\n      '));
    },
  },
});

export function demoConfig(root: string, facts: Facts, pinned: Pinned): InlineConfig {
  const pages = `${root}demo/`;
  return {
    configFile: false,
    root: pages,
    // Every page's scripts and styles are found under /demo/, also from the index at `/`.
    base: '/demo/',
    publicDir: false,
    logLevel: 'warn',
    define: { __WIDGETS__: JSON.stringify(facts), __PINNED__: JSON.stringify(pinned) },
    plugins: [pagesPlugin(facts)],
    build: {
      outDir: `${root}dist/demo`,
      emptyOutDir: true,
      target: 'es2022',
      // Nothing inline: the pages run under the service's strict Content-Security-Policy.
      modulePreload: { polyfill: false },
      assetsInlineLimit: 0,
      rolldownOptions: {
        input: {
          ...Object.fromEntries(
            readdirSync(pages)
              .filter((file) => file.endsWith('.html'))
              .map((file) => [file.replace(/\.html$/, ''), `${pages}${file}`]),
          ),
          // The fake payment provider's pages are the service's, not the demo's: they link its
          // stylesheet by a name that does not change (the demo's files are served `no-cache`).
          provider: `${pages}styles/provider.css`,
        },
        output: {
          assetFileNames: ({ names }) =>
            names.includes('provider.css') ? 'assets/provider.css' : 'assets/[name]-[hash][extname]',
        },
      },
    },
  };
}
