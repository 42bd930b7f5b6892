// Size budgets, checked in `npm test` on the built files: the gzip bytes of each loader, and of
// what a page with one widget downloads (its loader, the shared chunk and the widget's chunk).
// `measureSizes` is also what `npm run bench` reports.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { WIDGET_TYPES, type LoaderVersion, type WidgetType } from '../contract/index.ts';

const dist = fileURLToPath(new URL('../dist/widgets/', import.meta.url));
const LOADER_BUDGET = 2000;
const WIDGET_PAGE_BUDGET = 14000;

/** A built file (path under dist/widgets/) and its bytes, raw and gzip at level 9. */
export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}

export interface SizeReport {
  loaders: (FileSize & { version: LoaderVersion })[];
  /** Per built widget type: what its first render downloads (`files`, loader included in the totals). */
  widgets: { type: string; version: LoaderVersion; files: FileSize[]; raw: number; gzip: number; onDemand: FileSize[] }[];
  /** The loaders' messages, fetched only when a placeholder fails. */
  messages: FileSize;
}

type Manifest = Record<string, { file: string; name?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }>;

/** Sizes of the built loaders and widgets in `widgetsDir` (default dist/widgets/, with a trailing slash). */
export function measureSizes(widgetsDir = dist): SizeReport {
  const size = (file: string): FileSize => {
    const bytes = readFileSync(widgetsDir + file);
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  const manifest: Manifest = JSON.parse(readFileSync(`${widgetsDir}.vite/manifest.json`, 'utf8'));
  const loaders = ([1, 2] as const).map((version) => ({ version, ...size(`v${version}/loader.js`) }));

  /** A chunk and everything it imports statically, directly or not: what a page with the widget loads. */
  const closure = (id: string, files = new Set<string>()): Set<string> => {
    const chunk = manifest[id]!;
    if (!files.has(chunk.file)) {
      files.add(chunk.file);
      for (const imported of chunk.imports ?? []) closure(imported, files);
    }
    return files;
  };
  const widgets = Object.entries(manifest)
    .filter(([, m]) => m.isEntry && Object.hasOwn(WIDGET_TYPES, m.name!))
    .map(([id, entry]) => {
      const type = entry.name!;
      const version = WIDGET_TYPES[type as WidgetType];
      const names = [...closure(id)];
      const files = names.map(size);
      const loader = loaders.find((l) => l.version === version)!;
      // Chunks loaded later, on demand (another language, a signed-in view): reported, not budgeted.
      const chunks = Object.values(manifest).filter((m) => names.includes(m.file));
      const onDemand = [...new Set(chunks.flatMap((m) => m.dynamicImports ?? []))].map((lazy) => size(manifest[lazy]!.file));
      const sum = (key: 'raw' | 'gzip') => loader[key] + files.reduce((total, f) => total + f[key], 0);
      return { type, version, files, raw: sum('raw'), gzip: sum('gzip'), onDemand };
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
    const parts = widget.files.map((f) => `${f.file.replace('chunks/', '')} ${f.gzip}`);
    check(`${widget.type}: loader + ${parts.join(' + ')}`, widget.gzip, WIDGET_PAGE_BUDGET);
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
