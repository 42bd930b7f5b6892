// A customer's website for the end-to-end tests: static pages (and the site's own scripts and
// stylesheets) from ./pages on its own port (another origin than the service), under a strict Content
// Security Policy that allows the service's origin for scripts and requests and nothing inline. `{{SERVICE}}` in a page becomes the service URL.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const pages = fileURLToPath(new URL('./pages/', import.meta.url));
const port = Number(process.env.SITE_PORT ?? 8792);
const serviceUrl = process.env.SERVICE_URL ?? 'http://127.0.0.1:8791';
const TYPES = { html: 'text/html', js: 'text/javascript', css: 'text/css' };

createServer(async (req, res) => {
  const name = new URL(req.url ?? '/', 'http://site').pathname.slice(1) || 'index.html';
  if (!/^[\w-]+\.(html|js|css)$/.test(name)) return void res.writeHead(404).end('not found');
  try {
    const body = (await readFile(pages + name, 'utf8')).replaceAll('{{SERVICE}}', serviceUrl);
    res.writeHead(200, {
      'Content-Type': `${TYPES[name.split('.').pop()]}; charset=utf-8`,
      'Content-Security-Policy':
        `default-src 'none'; script-src 'self' ${serviceUrl}; connect-src ${serviceUrl}; ` +
        `style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'Cache-Control': 'no-store',
    });
    res.end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
}).listen(port, '127.0.0.1', () => console.log(`customer site on http://127.0.0.1:${port}/`));
