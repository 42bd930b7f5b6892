// Browser tests: real Chromium (Playwright's launcher, Debian's chromium), TypeScript through
// esbuild, and the real reference service on a free port with a fresh SQLite file. Run through
// `node --import tsx` (see package.json) so that this file can start the TypeScript service.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter } from '@web/test-runner';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromiumLaunchOptions } from './scripts/chromium.mjs';
import { startService } from './service/server.ts';
import { plainSummary } from './scripts/wtr-summary.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'widgets-browser-'));
const strictDataDir = mkdtempSync(join(tmpdir(), 'widgets-browser-strict-'));
const grownDataDir = mkdtempSync(join(tmpdir(), 'widgets-browser-grown-'));
// Every browser test writes from this machine's one address: the per-address limits of anonymous
// writes are raised here, and a second service keeps them tiny for the tests of a widget refused by one.
const roomy = { perAddress: { max: 100_000, windowMs: 600_000 } };
const service = await startService({
  port: 0,
  dataDir,
  quiet: true,
  limits: {
    registration: roomy,
    contact: roomy,
    order: roomy,
    seats: { perAddress: { max: 100_000, windowMs: 3_600_000 } },
    voucher: roomy,
    confirmationEmail: { perRecipient: roomy.perAddress },
  },
});
const tight = { perAddress: { max: 1, windowMs: 600_000 } };
const strict = await startService({
  port: 0,
  dataDir: strictDataDir,
  quiet: true,
  limits: { registration: tight, contact: tight },
});
// A company 25 times the seed, for what only a big company has: a month of more classes than one
// answer holds (the calendar's pages), a day of more than a page. Read only by the tests.
const grown = await startService({ port: 0, dataDir: grownDataDir, quiet: true });
const grew = await fetch(`${grown.url}/dev/reset`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ times: 25 }),
});
if (!grew.ok) throw new Error(`The grown service: ${grew.status} ${await grew.text()}`);
const seed = await (await fetch(`${service.url}/dev/seed`)).json();

export default {
  rootDir: root,
  files: ['widgets/**/*.test.ts', 'loader/**/*.test.ts'],
  nodeResolve: { exportConditions: ['development'] },
  concurrency: 2,
  testFramework: { config: { timeout: 8000 } },
  // The services' dev endpoints (clock, outbox, tokens) and the REST API (an owner's settings of a
  // widget) through this server, same-origin for the tests: /dev/* and /v1/* to the service (with
  // the REST API's X-Service-* headers), /strict/dev/* to the strict one.
  middleware: [
    async (ctx, next) => {
      const target = /^\/(dev|v1)\//.test(ctx.path) ? service : ctx.path.startsWith('/strict/dev/') ? strict : undefined;
      if (!target) return next();
      const body =
        ctx.method !== 'GET' && ctx.method !== 'HEAD'
          ? await new Promise((resolve) => {
              let data = '';
              ctx.req.on('data', (chunk) => (data += chunk)).on('end', () => resolve(data));
            })
          : undefined;
      const answer = await fetch(`${target.url}${ctx.url.replace(/^\/strict/, '')}`, {
        method: ctx.method,
        headers: {
          'Content-Type': 'application/json',
          ...Object.fromEntries(Object.entries(ctx.headers).filter(([name]) => name.startsWith('x-service-'))),
        },
        body,
      });
      ctx.status = answer.status;
      ctx.type = answer.headers.get('content-type') ?? 'application/json';
      ctx.body = await answer.text();
    },
  ],
  plugins: [
    // The base options: the plugin reads a tsconfig's own options and does not follow `extends`.
    esbuildPlugin({ ts: true, tsconfig: join(root, 'tsconfig.base.json'), define: { __DEV__: 'true' } }),
    {
      // A stylesheet imported as text (`leaflet.css?inline`, which Vite answers in the build) is a
      // module whose default export is the file's text here too.
      name: 'css-inline',
      resolveImport({ source }) {
        if (source.endsWith('.css?inline') && !source.startsWith('.')) return `/node_modules/${source}`;
      },
      resolveMimeType(context) {
        if (context.path.endsWith('.css') && context.URL.searchParams.has('inline')) return 'js';
      },
      transform(context) {
        if (context.path.endsWith('.css') && context.URL.searchParams.has('inline')) {
          return { body: `export default ${JSON.stringify(context.body)};` };
        }
      },
    },
    {
      // `executeServerCommand('fail-requests', { path, times })`: the page's next `times` requests for
      // `path` fail as on a dropped network (a widget's chunk that does not come).
      name: 'fail-requests',
      async executeCommand({ command, payload, session }) {
        if (command !== 'fail-requests') return undefined;
        const page = session.browser.getPage(session.id);
        await page.route(
          (url) => url.pathname === payload.path,
          (route) => route.abort('internetdisconnected'),
          {
            times: payload.times,
          },
        );
        return true;
      },
    },
    {
      name: 'reference-service',
      async serverStop() {
        await Promise.all([service.close(), strict.close(), grown.close()]);
        for (const dir of [dataDir, strictDataDir, grownDataDir]) rmSync(dir, { recursive: true, force: true });
      },
    },
  ],
  // The tests find the service and its seeded keys here; a closed port stands for a service that is
  // down; `strict` is a service that allows one registration and one message per address; `grown`
  // holds 25 times the seed's programmes, classes and registrations (read only).
  testRunnerHtml: (framework) => `<!doctype html>
    <html lang="en">
      <head><link rel="icon" href="data:,"></head>
      <body>
        <script>window.SERVICE = ${JSON.stringify({ url: `${service.url}/`, strict: `${strict.url}/`, grown: `${grown.url}/`, down: 'http://127.0.0.1:9/', seed })};</script>
        <script type="module" src="${framework}"></script>
      </body>
    </html>`,
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: chromiumLaunchOptions(),
    }),
  ],
  reporters: [defaultReporter(), plainSummary()],
};
