/**
 * The npm package as a developer who bundles meets it (scripts/package.ts): packed by `npm pack`,
 * unpacked where a tiny Vite app's node_modules has it (Lit and Vite come from the project's, found
 * upwards, so nothing is fetched), type-checked by tsc as that app's code, built by Vite, and served
 * to Chromium beside the real reference service: one element imported on its own, and a placeholder
 * mounted by the package's loader functions, in German.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'vite';
import { PACKAGE_NAME, buildPackage } from '../../scripts/package.ts';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { REPO_ROOT, startService, type RunningService } from '../../service/server.ts';

const root = REPO_ROOT;
// Under the project, so that the app's imports of Lit and Vite's own find the project's node_modules.
const work = `${root}.cache/npm-package/`;
const app = `${work}app/`;

const MAIN = `import { mount, type WidgetElement } from '${PACKAGE_NAME}';
import '${PACKAGE_NAME}/registration';
import type { ServiceRegistration } from '${PACKAGE_NAME}/registration';

const service = new URLSearchParams(location.search).get('service')!;

// HTMLElementTagNameMap: the tag names its element.
const registration: ServiceRegistration = document.createElement('service-registration');
registration.key = 'wk_demo_registration';
registration.baseUrl = service;
// @ts-expect-error: a key is a string (and the element is typed, not any)
registration.key = 42;
registration.key = 'wk_demo_registration';
document.querySelector('main')!.prepend(registration);

const div = document.querySelector<HTMLElement>('#contact')!;
div.addEventListener('service-widget-ready', (event) => {
  const type: string = event.detail.type;
  document.body.dataset.ready = type;
});
const contact: WidgetElement | undefined = await mount(div, { baseUrl: service });
contact?.setAttribute('data-mounted', '');
`;

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <link rel="icon" href="data:," />
    <title>A bundled page</title>
    <script type="module" src="./main.ts"></script>
  </head>
  <body>
    <main>
      <div data-service-widget="contact" data-service-id="wk_demo_contact" data-service-locale="de"></div>
    </main>
  </body>
</html>
`.replace('<div data-service-widget', '<div id="contact" data-service-widget');

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: [],
    strict: true,
    noEmit: true,
    // The package's declarations are checked too, as a strict page would.
    skipLibCheck: false,
  },
  files: ['main.ts'],
};

let packed: { filename: string; size: number; unpackedSize: number; entryCount: number; files: { path: string }[] };
let service: RunningService;
let site: Server;
let siteUrl: string;
let browser: Browser;

before(async () => {
  rmSync(work, { recursive: true, force: true });
  await buildPackage(root, `${work}package/`);
  [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: `${work}package`, encoding: 'utf8' }),
  );
  console.log(`packed ${packed.filename}: ${packed.size} B, ${packed.unpackedSize} B unpacked, ${packed.entryCount} files`);
  // Unpacked as npm installs it: the tarball's package/ folder under node_modules/<name>.
  const installed = `${app}node_modules/${PACKAGE_NAME}`;
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', `${work}${packed.filename}`, '--strip-components=1', '-C', installed]);
  writeFileSync(`${app}main.ts`, MAIN);
  writeFileSync(`${app}index.html`, INDEX);
  writeFileSync(`${app}tsconfig.json`, JSON.stringify(TSCONFIG, null, 2));
});

after(async () => {
  await browser?.close();
  site?.close();
  await service?.close();
});

test('the package offers the loader and each element, typed, with its manifest; only the elements have effects', () => {
  const files = new Set(packed.files.map((f) => f.path));
  const pkg = JSON.parse(readFileSync(`${app}node_modules/${PACKAGE_NAME}/package.json`, 'utf8'));
  assert.equal(pkg.name, PACKAGE_NAME);
  assert.equal(pkg.version, JSON.parse(readFileSync(`${root}package.json`, 'utf8')).version);
  assert.deepEqual(Object.keys(pkg.dependencies).sort(), ['leaflet', 'lit']);
  const types = ['registration', 'profile', 'contact', 'calendar', 'checkout', 'video', 'map'];
  assert.deepEqual(Object.keys(pkg.exports), ['.', ...types.map((t) => `./${t}`), './custom-elements.json', './package.json']);
  for (const target of Object.values(pkg.exports) as (string | { types: string; default: string })[])
    for (const file of typeof target === 'string' ? [target] : [target.types, target.default])
      assert.ok(files.has(file.slice(2)), `${file} is packed`);
  assert.deepEqual(
    pkg.sideEffects,
    types.map((t) => pkg.exports[`./${t}`].default),
  );
  // German words come along as modules of their own, which only a German page loads.
  assert.ok(files.has('widgets/contact/contact.de.js'));
  // Built code and declarations only: no TypeScript source, no maps of files that are not there.
  assert.deepEqual(
    [...files].filter((f) => /(?<!\.d)\.ts$|\.map$/.test(f)),
    [],
  );
  const manifest = JSON.parse(readFileSync(`${app}node_modules/${PACKAGE_NAME}/custom-elements.json`, 'utf8'));
  const registration = manifest.modules.find((m: { path: string }) => m.path === 'widgets/registration/registration.js');
  assert.ok(registration?.declarations?.some((d: { tagName?: string }) => d.tagName === 'service-registration'));
});

test("a page's code type-checks against the package: createElement('service-registration') is the element", () => {
  try {
    execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', app], { encoding: 'utf8' });
  } catch (error) {
    assert.fail(`tsc: ${(error as { stdout: string }).stdout}`);
  }
});

test('a Vite app built against the tarball shows a widget from the reference service, and one mounted by the loader functions', async () => {
  await build({ root: app, configFile: false, logLevel: 'warn', build: { outDir: `${app}dist`, target: 'es2022' } });
  // Only what the page imports is in its first script: no other widget's code.
  const assets = readdirSync(`${app}dist/assets`);
  const entry = readFileSync(`${app}dist/assets/${assets.find((f) => f.startsWith('index-') && f.endsWith('.js'))}`, 'utf8');
  assert.match(entry, /service-registration/);
  assert.doesNotMatch(entry, /service-(calendar|checkout|video|map|profile)['"]/);

  service = await startService({ port: 0, dataDir: mkdtempSync(join(tmpdir(), 'npm-package-')), quiet: true });
  const served = `${app}dist`;
  const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  site = createServer((request, response) => {
    const path = new URL(request.url!, 'http://x').pathname;
    try {
      const body = readFileSync(join(served, path === '/' ? 'index.html' : path));
      response.writeHead(200, { 'Content-Type': MIME[extname(path) || '.html'] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;

  browser = await chromium.launch(chromiumLaunchOptions());
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  await page.goto(`${siteUrl}?service=${encodeURIComponent(service.url)}`);

  // The element imported on its own, with the seeded company's programmes.
  const registration = page.locator('service-registration');
  await registration.getByRole('heading', { name: 'Programmes at Acme Academy' }).waitFor();
  assert.ok((await registration.getByRole('button', { name: /Register|Add to cart|Join waitlist/ }).count()) > 0);
  // The placeholder, mounted by `mount()`: its German words came as their own chunk.
  await page.locator('#contact').getByRole('heading', { name: 'Kontakt zu Acme Academy' }).waitFor();
  assert.equal(await page.locator('#contact').getAttribute('data-service-state'), 'ready');
  assert.equal(await page.locator('body').getAttribute('data-ready'), 'contact');
  assert.equal(await page.locator('#contact service-contact[data-mounted]').count(), 1);
  // Nothing but the elements mounted was defined.
  assert.deepEqual(
    await page.evaluate(() =>
      ['registration', 'profile', 'contact', 'calendar', 'checkout', 'video', 'map'].filter((t) =>
        customElements.get(`service-${t}`),
      ),
    ),
    ['registration', 'contact'],
  );
  assert.deepEqual(problems, []);
});
