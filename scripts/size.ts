// Size budgets, checked in `npm test` on the built files: the gzip bytes of each loader, and of
// what a page with one widget downloads (its loader, the shared chunk and the widget's chunk).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { WIDGET_TYPES, type WidgetType } from '../loader/widget-types.ts';

const dist = fileURLToPath(new URL('../dist/widgets/', import.meta.url));
const LOADER_BUDGET = 2000;
const WIDGET_PAGE_BUDGET = 14000;

const gz = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;
const manifest: Record<string, { file: string; name?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }> = JSON.parse(readFileSync(`${dist}.vite/manifest.json`, 'utf8'));
const rows: { name: string; bytes: number; budget: number; ok: boolean }[] = [];
const check = (name: string, bytes: number, budget: number) => rows.push({ name, bytes, budget, ok: bytes <= budget });

const loaders: Record<number, number> = { 1: gz(`${dist}v1/loader.js`), 2: gz(`${dist}v2/loader.js`) };
check('v1/loader.js', loaders[1], LOADER_BUDGET);
check('v2/loader.js', loaders[2], LOADER_BUDGET);

/** A chunk and everything it imports statically, directly or not: what a page with the widget loads. */
const closure = (id: string, files = new Set<string>()): Set<string> => {
  const chunk = manifest[id]!;
  if (!files.has(chunk.file)) {
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(imported, files);
  }
  return files;
};
for (const [id, entry] of Object.entries(manifest).filter(([, m]) => m.isEntry)) {
  const files = [...closure(id)];
  const parts = files.map((file) => `${file.replace('chunks/', '')} ${gz(dist + file)}`);
  const total = loaders[WIDGET_TYPES[entry.name as WidgetType]]! + files.reduce((sum, file) => sum + gz(dist + file), 0);
  check(`${entry.name}: loader + ${parts.join(' + ')}`, total, WIDGET_PAGE_BUDGET);
  // Chunks loaded later, on demand (another language, a signed-in view): reported, not budgeted.
  const chunks = Object.values(manifest).filter((m) => files.includes(m.file));
  for (const lazy of new Set(chunks.flatMap((m) => m.dynamicImports ?? []))) {
    rows.push({ name: `  ${entry.name}, on demand: ${manifest[lazy]!.file.replace('chunks/', '')}`, bytes: gz(dist + manifest[lazy]!.file), budget: Infinity, ok: true });
  }
}

for (const { name, bytes, budget, ok } of rows) {
  console.log(budget === Infinity ? `     ${String(bytes).padStart(6)} B gzip  ${name}` : `${ok ? 'ok  ' : 'OVER'} ${String(bytes).padStart(6)} / ${budget} B gzip  ${name}`);
}
const checked = rows.filter((r) => r.budget !== Infinity);
const over = checked.filter((r) => !r.ok).length;
console.log(`${checked.length - over} passed, ${over} failed`);
process.exit(over ? 1 : 0);
