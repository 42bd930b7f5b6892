// A customer's website for the end-to-end tests: static pages (and the site's own scripts and
// stylesheets) from ./pages on its own port (another origin than the service), under a strict Content
// Security Policy that allows the service's origin for scripts, requests, images and media, and nothing inline. `{{SERVICE}}` in a page becomes the service URL.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const pages = fileURLToPath(new URL('./pages/', import.meta.url));
const port = Number(process.env.SITE_PORT ?? 8792);
const serviceUrl = process.env.SERVICE_URL ?? 'http://127.0.0.1:8791';
const TYPES = { html: 'text/html', js: 'text/javascript', css: 'text/css' };
/** The widget types a layout page can hold, and the loader version each needs. */
const LOADER_OF = { registration: 1, profile: 1, contact: 1, calendar: 2, checkout: 2, video: 2, map: 2 };
const LAYOUT = new RegExp(`^layout-(${Object.keys(LOADER_OF).join('|')})-(head|reserved|sans)(-de)?\\.html$`);
/**
 * The map pages allow exactly what the README tells a site owner to allow for the map: the service's
 * origin for scripts and requests, and the tiles' host for images (the service's own tiles, or
 * OpenStreetMap's), nothing more: a tile the map would draw from elsewhere is a violation, which fails
 * the test (support.ts).
 */
const MAP_TILES = { 'places.html': serviceUrl, 'places-osm.html': 'https://tile.openstreetmap.org' };
// Pages whose Content-Security-Policy enforces Trusted Types, naming the policies it allows (the host
// page's own Lit has created `lit-html` before the widgets come).
const TRUSTED_TYPES = {
  'trusted-types-allowed.html': "; require-trusted-types-for 'script'; trusted-types lit-html service-widgets",
  'trusted-types-refused.html': "; require-trusted-types-for 'script'; trusted-types lit-html",
};

/**
 * `layout-<type>-<placement>.html`: one widget with text below it, as docs/embedding.md places it. `head`:
 * the loader in <head>, not async (the space is reserved before the first paint); `reserved`: an
 * async loader at the end of <body>, the space reserved by a class in the site's stylesheet; `sans`:
 * as `head`, on a page of a sans-serif font (Arial's widths) with margins of 16 px, as most sites have.
 * `-de` at the end of the name: the page is German (`lang="de"`).
 */
const layoutPage = (type, placement, lang = 'en') => {
  const inHead = placement !== 'reserved';
  const loader = `<script ${inHead ? '' : 'async '}src="${serviceUrl}/widgets/v${LOADER_OF[type]}/loader.js"></script>`;
  return `<!doctype html>
<html lang="${lang}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Acme Academy – ${type}</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/site.css" />
    ${inHead ? loader : ''}
  </head>
  <body${placement === 'sans' ? ' class="sans"' : ''}>
    <main>
      <h1>Acme Academy</h1>
      <div class="service-${type}${placement === 'reserved' ? ' reserve' : ''}" data-service-widget="${type}" data-service-id="wk_demo_${type}"></div>
      <p id="below">Text below the widget, which must not move.</p>
    </main>
    ${inHead ? '' : loader}
  </body>
</html>`;
};

/**
 * Pages made of what a test pastes (`POST /pasted` with `{ html, css }`, as the demo's snippet
 * builder wrote them): `pasted-<n>.html` holds the HTML in its body and links `pasted-<n>.css`, as a
 * site owner would put the CSS into their stylesheet; `scriptSrc`, what the builder told them to add to
 * their CSP's script-src (a pinned snippet's import map, by its hash).
 */
const pasted = [];
const pastedPage = (n) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>A fresh page of the customer's site</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/pasted-${n}.css" />
  </head>
  <body>
    <h1>Our courses</h1>
    ${pasted[n].html}
    <p id="below">Text below the widget.</p>
  </body>
</html>`;
const PASTED = /^pasted-(\d+)\.(html|css)$/;

createServer(async (req, res) => {
  const name = new URL(req.url ?? '/', 'http://site').pathname.slice(1) || 'index.html';
  if (req.method === 'POST' && name === 'pasted') {
    let body = '';
    for await (const chunk of req) body += chunk;
    const { html, css, scriptSrc } = JSON.parse(body);
    pasted.push({ html: String(html), css: String(css ?? ''), scriptSrc: String(scriptSrc ?? '') });
    return void res
      .writeHead(201, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ page: `/pasted-${pasted.length - 1}.html` }));
  }
  if (!/^[\w-]+\.(html|js|css)$/.test(name)) return void res.writeHead(404).end('not found');
  try {
    const layout = name.match(LAYOUT);
    const paste = name.match(PASTED);
    if (paste && !pasted[Number(paste[1])]) throw new Error('nothing pasted under that number');
    const body = layout
      ? layoutPage(layout[1], layout[2], layout[3] ? 'de' : 'en')
      : paste
        ? paste[2] === 'html'
          ? pastedPage(Number(paste[1]))
          : pasted[Number(paste[1])].css
        : (await readFile(pages + name, 'utf8')).replaceAll('{{SERVICE}}', serviceUrl);
    const fixed = `base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
    res.writeHead(200, {
      'Content-Type': `${TYPES[name.split('.').pop()]}; charset=utf-8`,
      'Content-Security-Policy': MAP_TILES[name]
        ? `default-src 'none'; script-src ${serviceUrl}; connect-src ${serviceUrl}; img-src ${MAP_TILES[name]}; ${fixed}`
        : `default-src 'none'; script-src 'self' ${serviceUrl}${paste && pasted[Number(paste[1])].scriptSrc ? ` ${pasted[Number(paste[1])].scriptSrc}` : ''}; connect-src ${serviceUrl}; ` +
          // Posters and the player's files come from the service, map tiles from OpenStreetMap (docs/embedding.md's advice).
          `style-src 'self'; img-src 'self' data: ${serviceUrl} https://tile.openstreetmap.org; media-src ${serviceUrl}; ` +
          fixed +
          (TRUSTED_TYPES[name] ?? ''),
      'Cache-Control': 'no-store',
    });
    res.end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
}).listen(port, '127.0.0.1', () => console.log(`customer site on http://127.0.0.1:${port}/`));
