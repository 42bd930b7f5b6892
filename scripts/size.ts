// Size budgets, checked in `npm test` on the built files: the gzip bytes of each loader, and of
// what a page with one widget downloads before its first view (its loader, the widget's chunks and
// what it fetches with its first request). The bytes are those of the build's gzip copies, the very
// files the service sends (scripts/compress.mjs: by Zopfli, 2 to 5 % smaller than zlib's level 9).
// `measureSizes` is also what `npm run bench` reports.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WIDGET_TYPES, type LoaderVersion, type WidgetType } from '../contract/index.ts';
import { FIRST_RENDER_FILE, FIRST_VIEW, type FirstRender } from './first-render.ts';

const dist = fileURLToPath(new URL('../dist/widgets/', import.meta.url));
const LOADER_BUDGET = 2000;
const WIDGET_PAGE_BUDGET = 14000;

/** A built file (path under dist/widgets/) and its bytes, raw and as the build's gzip copy. */
export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}

/** What a page with one widget downloads before a first view: `files`, and in the totals its loader. */
export interface FirstRenderSize {
  files: FileSize[];
  raw: number;
  gzip: number;
}

export interface SizeReport {
  loaders: (FileSize & { version: LoaderVersion })[];
  /**
   * Per built widget type: its first render, the one every visitor gets (the budget's); the first
   * renders of its other first views (`views`: a returning participant's …), reported; and what its
   * first render may fetch later, on demand.
   */
  widgets: (FirstRenderSize & {
    type: string;
    version: LoaderVersion;
    views: (FirstRenderSize & { view: string })[];
    onDemand: FileSize[];
  })[];
  /** The loaders' messages, fetched only when a placeholder fails. */
  messages: FileSize;
}

type Manifest = Record<string, { file: string; name?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }>;

/** Sizes of the built loaders and widgets in `widgetsDir` (default dist/widgets/, with a trailing slash). */
export function measureSizes(widgetsDir = dist): SizeReport {
  const size = (file: string): FileSize => {
    const built = statSync(widgetsDir + file);
    const gzip = statSync(`${widgetsDir}${file}.gz`, { throwIfNoEntry: false });
    // (The service sends a copy only when it is not older than its file: an older one is not what is sent.)
    if (!gzip || gzip.mtimeMs < built.mtimeMs)
      throw new Error(`${widgetsDir}${file}.gz is ${gzip ? 'older than its file' : 'missing'}: \`npm run build\` makes it.`);
    return { file, raw: built.size, gzip: gzip.size };
  };
  const manifest: Manifest = JSON.parse(readFileSync(`${widgetsDir}.vite/manifest.json`, 'utf8'));
  // Written by the build from the marks in the widgets' code (scripts/first-render.ts).
  const marked: FirstRender = JSON.parse(readFileSync(widgetsDir + FIRST_RENDER_FILE, 'utf8'));
  const chunkOf = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk]));
  const loaders = ([1, 2] as const).map((version) => ({ version, ...size(`v${version}/loader.js`) }));

  /**
   * A chunk and, directly or not, everything it imports statically and everything it fetches with
   * the first request in `view`: what a page with the widget loads before that first view.
   */
  const firstFiles = (file: string, view: string, files = new Set<string>()): Set<string> => {
    if (!files.has(file)) {
      files.add(file);
      for (const imported of chunkOf.get(file)!.imports ?? []) firstFiles(manifest[imported]!.file, view, files);
      for (const fetched of marked[file]?.[view] ?? []) firstFiles(fetched, view, files);
    }
    return files;
  };
  /** The first views a chunk leads to, besides the one every visitor gets. */
  const viewsOf = (file: string, seen = new Set<string>(), views = new Set<string>()): Set<string> => {
    if (!seen.has(file)) {
      seen.add(file);
      for (const imported of chunkOf.get(file)!.imports ?? []) viewsOf(manifest[imported]!.file, seen, views);
      for (const [view, fetched] of Object.entries(marked[file] ?? {})) {
        if (view !== FIRST_VIEW) views.add(view);
        for (const next of fetched) viewsOf(next, seen, views);
      }
    }
    return views;
  };
  const widgets = Object.values(manifest)
    .filter((entry) => entry.isEntry && Object.hasOwn(WIDGET_TYPES, entry.name!))
    .map((entry) => {
      const type = entry.name!;
      const version = WIDGET_TYPES[type as WidgetType];
      const loader = loaders.find((l) => l.version === version)!;
      const firstRender = (view: string): FirstRenderSize => {
        const files = [...firstFiles(entry.file, view)].map(size);
        const sum = (key: 'raw' | 'gzip') => loader[key] + files.reduce((total, f) => total + f[key], 0);
        return { files, raw: sum('raw'), gzip: sum('gzip') };
      };
      const first = firstRender(FIRST_VIEW);
      const names = first.files.map((f) => f.file);
      // Chunks loaded later, on demand (another language, a signed-in view): reported, not budgeted.
      const onDemand = [...new Set(names.flatMap((file) => chunkOf.get(file)!.dynamicImports ?? []))]
        .map((lazy) => manifest[lazy]!.file)
        .filter((file) => !names.includes(file))
        .map(size);
      const views = [...viewsOf(entry.file)].map((view) => ({ view, ...firstRender(view) }));
      return { type, version, ...first, views, onDemand };
    });
  // What the loaders fetch only when a placeholder fails.
  const messages = size(Object.values(manifest).find((m) => m.isEntry && m.name === 'messages')!.file);
  return { loaders, widgets, messages };
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const { loaders, widgets, messages } = measureSizes();
  const rows: { name: string; bytes: number; budget: number; ok: boolean }[] = [];
  const check = (name: string, bytes: number, budget: number) => rows.push({ name, bytes, budget, ok: bytes <= budget });
  for (const loader of loaders) check(loader.file, loader.gzip, LOADER_BUDGET);
  rows.push({
    name: `  loaders, on error: ${messages.file.replace('chunks/', '')}`,
    bytes: messages.gzip,
    budget: Infinity,
    ok: true,
  });
  for (const widget of widgets) {
    const parts = (files: FileSize[]) => `loader + ${files.map((f) => `${f.file.replace('chunks/', '')} ${f.gzip}`).join(' + ')}`;
    check(`${widget.type}: ${parts(widget.files)}`, widget.gzip, WIDGET_PAGE_BUDGET);
    for (const { view, files, gzip } of widget.views)
      rows.push({ name: `  ${widget.type}, ${view}: ${parts(files)}`, bytes: gzip, budget: Infinity, ok: true });
    for (const lazy of widget.onDemand) {
      rows.push({
        name: `  ${widget.type}, on demand: ${lazy.file.replace('chunks/', '')}`,
        bytes: lazy.gzip,
        budget: Infinity,
        ok: true,
      });
    }
  }

  for (const { name, bytes, budget, ok } of rows) {
    console.log(
      budget === Infinity
        ? `     ${String(bytes).padStart(6)} B gzip  ${name}`
        : `${ok ? 'ok  ' : 'OVER'} ${String(bytes).padStart(6)} / ${budget} B gzip  ${name}`,
    );
  }
  const checked = rows.filter((r) => r.budget !== Infinity);
  const over = checked.filter((r) => !r.ok).length;
  console.log(`${checked.length - over} passed, ${over} failed`);
  process.exit(over ? 1 : 0);
}
