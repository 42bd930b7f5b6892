// The three-pass build (docs/architecture.md, "Chunks"): an IIFE cannot split code, so the widget chunks are built
// once as ES modules, then each classic-script loader is built with its chunk map injected. A fourth
// pass builds the typed REST client as an ES module, for the demo and for developers' pages; then the
// demo's pages, with what the custom-elements manifest says of each widget; the last, the service's
// app (`/app/`), with the same.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { brotliBest, gzipBest } from './compress.mjs';
import { pinnedDir, readReleases, RELEASES_FILE, sealBroken } from './releases.ts';
import widgetConfig, { builtTypes } from '../vite.config.ts';
import { FIRST_REQUEST, RESERVED_HEIGHT, WIDGET_TYPES, type WidgetType } from '../contract/index.ts';
import { FIRST_RENDER_FILE, FIRST_VIEW, type FirstRender } from './first-render.ts';
import { demoConfig } from '../demo/site.config.ts';
import { appConfig } from '../app/site.config.ts';
import type { Facts, Pinned } from '../demo/src/showcase.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

// The pinned loaders of this release (docs/embedding.md, "Pinned versions"): `v<loader major>.<minor>.<patch>`
// of package.json's version, whose major stays 0 while the loaders carry the majors that name their API.
const release = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }).version;
const [releaseMajor, releaseMinor, releasePatch] = release.split(/[.+-]/).map(Number);
if (releaseMajor !== 0 || !Number.isInteger(releaseMinor) || !Number.isInteger(releasePatch)) {
  console.error(
    `package.json's version ${release}: the pinned loaders are named v<loader major>.<minor>.<patch>, which needs a release 0.<minor>.<patch> (docs/embedding.md, "Pinned versions"); a release 1.0 must choose another scheme first.`,
  );
  process.exit(1);
}
const pinnedName = (version: number) => pinnedDir(release, version);

/** `<dir>/integrity.json`: each file a pinned loader may load (relative to the list), with its SRI hash. */
interface PinnedList {
  release: string;
  loader: string;
  files: Record<string, string>;
  /** Per widget type of this loader, the files (keys of `files`) it may load, its own chunk first. */
  widgets: Record<string, string[]>;
}
const copy = (from: string, to: string) => {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to);
};
const integrity = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

// The pinned loaders of earlier releases and every file their integrity lists name stay: pages pin
// them by hash, for good. They are set aside while dist/ is built anew, and put back after.
const PINNED_DIR = /^v\d+\.\d+\.\d+$/;
const kept = mkdtempSync(join(tmpdir(), 'pinned-'));
const keptFiles: string[] = [];
const widgetsDir = `${root}dist/widgets`;
for (const dir of existsSync(widgetsDir) ? readdirSync(widgetsDir) : []) {
  if (!PINNED_DIR.test(dir) || [1, 2].some((version) => pinnedName(version) === dir)) continue;
  const list = `${widgetsDir}/${dir}/integrity.json`;
  if (!existsSync(list)) continue;
  const { files } = JSON.parse(readFileSync(list, 'utf8')) as PinnedList;
  for (const file of [`${dir}/integrity.json`, ...Object.keys(files).map((f) => join(dir, f))]) {
    // A chunk's source map stays with it: the pages that still load it are debugged with it.
    for (const name of [file, `${file}.map`]) {
      if (!existsSync(`${widgetsDir}/${name}`)) continue;
      copy(`${widgetsDir}/${name}`, `${kept}/${name}`);
      keptFiles.push(name);
    }
  }
}
// The current release's pinned loaders as the last build wrote them: a rebuild that changes them is
// fine until the release is deployed, and must not be deployed under the same version after.
const previousPinned = Object.fromEntries(
  [1, 2].flatMap((version) => {
    const file = `${widgetsDir}/${pinnedName(version)}/loader.js`;
    return existsSync(file) ? [[version, readFileSync(file)]] : [];
  }),
);
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

/** For each chunk file, the chunks it fetches for the first view every visitor gets (scripts/first-render.ts). */
const firstViews: FirstRender = JSON.parse(readFileSync(`${root}dist/widgets/${FIRST_RENDER_FILE}`, 'utf8'));
const idOfFile = new Map(Object.entries(manifest).map(([id, m]) => [m.file, id]));

/**
 * A built type's chunk, every chunk it imports statically, directly or not, and those it imports
 * for its first view (the profile's sign-in): the loader starts them all at once rather than in a
 * waterfall (the sign-in was asked for once the profile's code had come and run).
 */
const chunksOf = (type: string) => {
  const entry = Object.entries(manifest).find(([, m]) => m.isEntry && m.name === type)!;
  const files = new Set<string>();
  const visit = (id: string) => {
    const chunk = manifest[id]!;
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
    for (const file of firstViews[chunk.file]?.[FIRST_VIEW] ?? []) visit(idOfFile.get(file)!);
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
// The pinned copies: the same loader under its release's path, at the same depth, so that it finds the
// same chunks (`../chunks/`, hashed names) and the same service (`../../`).
/** A built entry's chunk and everything it may import, statically or on demand, directly or not. */
const reachable = (name: string) => {
  const entry = Object.keys(manifest).find((id) => manifest[id]!.isEntry && manifest[id]!.name === name)!;
  const files: string[] = [];
  const visit = (id: string) => {
    const chunk = manifest[id]!;
    if (files.includes(chunk.file)) return;
    files.push(chunk.file);
    for (const imported of [...(chunk.imports ?? []), ...((chunk as { dynamicImports?: string[] }).dynamicImports ?? [])])
      visit(imported);
  };
  visit(entry);
  return files.map((file) => `../${file}`);
};
const pinned: Pinned = { release, loaders: {} };
const releases = readReleases(`${root}${RELEASES_FILE}`);
for (const version of [1, 2]) {
  const dir = pinnedName(version);
  const loader = readFileSync(`${root}dist/widgets/v${version}/loader.js`);
  if (previousPinned[version] && !previousPinned[version].equals(loader))
    console.warn(
      `The pinned loader ${dir}/loader.js changed since the last build: if release ${release} is deployed, bump package.json's version first (pages pin it by its hash).`,
    );
  const widgets = Object.fromEntries(
    builtTypes
      .filter((type) => WIDGET_TYPES[type as WidgetType] === version)
      .map((type) => [type, [...new Set([...reachable(type), ...reachable('messages')])]]),
  );
  const files = Object.fromEntries(
    ['loader.js', ...new Set(Object.values(widgets).flat())].map((file) => [
      file,
      integrity(readFileSync(join(`${root}dist/widgets/${dir}`, file === 'loader.js' ? `../v${version}/loader.js` : file))),
    ]),
  );
  // A release that is out keeps its files for good (scripts/releases.ts).
  const broken = sealBroken(releases, release, dir, files);
  if (broken) {
    console.error(broken);
    process.exit(1);
  }
  const list: PinnedList = { release, loader: `v${version}`, files, widgets };
  copy(`${root}dist/widgets/v${version}/loader.js`, `${root}dist/widgets/${dir}/loader.js`);
  writeFileSync(`${root}dist/widgets/${dir}/integrity.json`, JSON.stringify(list, null, 2) + '\n');
  pinned.loaders[version] = { path: `${dir}/loader.js`, integrity: files['loader.js']!, widgets, files };
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
await build(demoConfig(root, facts, pinned));
// Pass 6: the app.
await build(appConfig(root, facts, pinned));

// Earlier releases' pinned files back in place; a chunk the new build wrote under the same hashed name
// is the same file.
for (const file of keptFiles) if (!existsSync(`${widgetsDir}/${file}`)) copy(`${kept}/${file}`, `${widgetsDir}/${file}`);
rmSync(kept, { recursive: true, force: true });

// Each text file of the build also as brotli and gzip, made once here: the service sends the one a
// browser takes (service/http/static.ts). The files other sites' pages load (the widgets, the REST
// client) get gzip at its best, by Zopfli (scripts/compress.mjs), and the size budgets count these
// very copies (scripts/size.ts), so the bytes the budgets promise are the bytes sent; the demo's and
// the app's, our own pages, zlib's level 9 (Zopfli would add 2.5 s to every build for them).
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt)$/;
const compressible = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? compressible(path) : COMPRESSIBLE.test(entry.name) ? [path] : [];
  });
let compressed = 0;
for (const [dirs, gzip] of [
  [['widgets', 'client'], gzipBest],
  [['demo', 'app'], (bytes: Buffer) => gzipSync(bytes, { level: 9 })],
] as const)
  for (const path of dirs.flatMap((dir) => compressible(`${root}dist/${dir}`))) {
    const bytes = readFileSync(path);
    writeFileSync(`${path}.br`, brotliBest(bytes));
    writeFileSync(`${path}.gz`, await gzip(bytes));
    compressed++;
  }

console.log(
  `built dist/widgets: loaders v1 and v2, pinned as ${pinnedName(1)} and ${pinnedName(2)}${keptFiles.length ? ` (${keptFiles.length} files of earlier releases kept)` : ''}; widgets: ${builtTypes.join(', ') || 'none'}; dist/client/rest-client.js; dist/custom-elements.json; dist/demo; dist/app; ${compressed} files also as .br and .gz`,
);
