// The three-pass build (docs/architecture.md, "Chunks"): an IIFE cannot split code, so the widget chunks are built
// once as ES modules, then each classic-script loader is built with its chunk map injected. A fourth
// pass builds the typed REST client as an ES module, for the demo and for developers' pages; then the
// demo's pages, with what the custom-elements manifest says of each widget; the last, the service's
// app (`/app/`), with the same.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import widgetConfig, { builtTypes } from '../vite.config.ts';
import { FIRST_REQUEST, RESERVED_HEIGHT, WIDGET_TYPES, type WidgetType } from '../contract/index.ts';
import { demoConfig } from '../demo/site.config.ts';
import { appConfig } from '../app/site.config.ts';
import type { Facts } from '../demo/src/showcase.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist`, { recursive: true, force: true });

// Pass 1: the widget chunks and the shared chunk.
await build({ ...widgetConfig, configFile: false });

interface ManifestEntry {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
}
const manifest: Record<string, ManifestEntry> = JSON.parse(readFileSync(`${root}dist/widgets/.vite/manifest.json`, 'utf8'));

/**
 * A built type's chunk and every chunk it imports statically, directly or not: the loader starts
 * them all at once rather than in a waterfall.
 */
const chunksOf = (type: string) => {
  const entry = Object.entries(manifest).find(([, m]) => m.isEntry && m.name === type)!;
  const files = new Set<string>();
  const visit = (id: string) => {
    const chunk = manifest[id]!;
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry[0]);
  // Names only (`shared-abc123`): the loader adds `../chunks/` and `.js`, a few bytes less to ship.
  return [...files].map((file) => file.replace(/^chunks\/(.*)\.js$/, '$1'));
};

// Passes 2 and 3: the two classic-script loaders.
for (const version of [1, 2]) {
  const own = Object.fromEntries(
    builtTypes
      .filter((type) => WIDGET_TYPES[type as WidgetType] === version)
      .map((type) => [type, [RESERVED_HEIGHT[type as WidgetType], FIRST_REQUEST[type as WidgetType], ...chunksOf(type)]]),
  );
  await build({
    configFile: false,
    root,
    publicDir: false,
    logLevel: 'warn',
    define: {
      __VERSION__: String(version),
      __CHUNKS__: JSON.stringify(own),
      __MESSAGES__: JSON.stringify(chunksOf('messages')[0]),
    },
    build: {
      outDir: `dist/widgets/v${version}`,
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      lib: { entry: `${root}loader/loader.ts`, formats: ['iife'], name: 'ServiceWidgetsLoader', fileName: () => 'loader.js' },
    },
  });
}
// Pass 4: the REST client.
await build({
  configFile: false,
  root,
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: 'dist/client',
    emptyOutDir: false,
    target: 'es2022',
    minify: false,
    sourcemap: true,
    lib: { entry: `${root}contract/rest-client.ts`, formats: ['es'], fileName: () => 'rest-client.js' },
  },
});
// The custom-elements manifest, from the widgets' JSDoc (custom-elements-manifest.config.mjs).
const manifestRun = spawnSync(
  process.execPath,
  [`${root}node_modules/@custom-elements-manifest/analyzer/cem.js`, 'analyze', '--quiet'],
  { cwd: root, stdio: 'inherit' },
);
if (manifestRun.status !== 0) process.exit(manifestRun.status ?? 1);

// Pass 5: the demo.
interface Declaration {
  tagName?: string;
  summary?: string;
  events?: { name: string; description?: string }[];
  cssProperties?: { name: string; default?: string; description?: string }[];
}
const elements = (
  JSON.parse(readFileSync(`${root}dist/custom-elements.json`, 'utf8')) as { modules: { declarations?: Declaration[] }[] }
).modules.flatMap((m) => m.declarations ?? []);
const facts: Facts = Object.fromEntries(
  builtTypes.map((type) => {
    const element = elements.find((d) => d.tagName === `service-${type}`)!;
    return [
      type,
      {
        summary: element.summary ?? '',
        events: (element.events ?? []).map((e) => ({ name: e.name, description: e.description ?? '' })),
        cssProperties: (element.cssProperties ?? []).map((p) => ({
          name: p.name,
          default: p.default ?? '',
          // Its first sentence: the manifest runs the element's description on after the last one.
          description: (p.description ?? '').split(/(?<=\.)\s/)[0]!,
        })),
      },
    ];
  }),
);
await build(demoConfig(root, facts));
// Pass 6: the app.
await build(appConfig(root, facts));

// Each text file of the build also as brotli and gzip, made once here at their best: the service
// sends the one a browser takes (service/http/static.ts), so the bytes the budgets promise are the
// bytes sent.
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt)$/;
const precompress = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((n, entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return n + precompress(path);
    if (!COMPRESSIBLE.test(entry.name)) return n;
    const bytes = readFileSync(path);
    writeFileSync(`${path}.br`, brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
    return n + 1;
  }, 0);
const precompressed = ['widgets', 'client', 'demo', 'app'].reduce((n, dir) => n + precompress(`${root}dist/${dir}`), 0);

console.log(
  `built dist/widgets: loaders v1 and v2; widgets: ${builtTypes.join(', ') || 'none'}; dist/client/rest-client.js; dist/custom-elements.json; dist/demo; dist/app; ${precompressed} files also as .br and .gz`,
);
